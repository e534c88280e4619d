/**
 * A file's columns matched to fields by their headers, where headers name more than one column
 * of the module: a file exported from PortalDesk never fills a field from another column (the
 * record's own Project filled a custom field labelled "Project" on every record it updated);
 * the one column a header names, by its label written exactly or folded, is still matched.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchColumns, type TargetField } from '../../../src/main/recordsImport/columnTargets';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { inlineExportStarter } from '../../../src/main/recordsExport/inlineExport';
import { tempDir } from '../../support/tempDir';
import { LAYOUT, MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { FIELDS, mirrorField } from '../store/mirror/fixture';
import { settled } from './importSteps';

const fold = (text: string) => text.replace(/[\s_]+/g, '').toLowerCase();

describe('columns matched by their headers', () => {
  it('never matches a header to a column other than the one it names; matches every column only it names', () => {
    // Labels from a small alphabet, so that columns often share a label, or differ in case alone.
    const label = fc.stringMatching(/^[AaBb][ _]?[Aa]?$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ label, fills: fc.boolean() }), {
          minLength: 1,
          maxLength: 8,
          selector: (c) => c.label,
          comparator: 'SameValue',
        }),
        fc.array(fc.record({ label, fills: fc.boolean() }), { maxLength: 4 }),
        fc.integer(),
        (unique, clashing, seed) => {
          const columns = [...unique, ...clashing].map((c, i) => ({ ...c, key: `cf_${i}` }));
          const fields: TargetField[] = columns.filter((c) => c.fills);
          const others: TargetField[] = columns.filter((c) => !c.fills);
          // The export's header row: every column's label, in any order.
          const order = columns
            .map((c, i) => ({ c, at: Math.sin(seed + i) }))
            .sort((x, y) => x.at - y.at)
            .map(({ c }) => c);
          const targets = matchColumns(
            order.map((c) => c.label),
            fields,
            others,
          );
          order.forEach((column, i) => {
            const sharing = columns.filter((c) => fold(c.label) === fold(column.label));
            if (targets[i] !== null) expect(targets[i]).toBe(column.key);
            else if (column.fills && sharing.length === 1) {
              throw new Error(`${column.label} alone names ${column.key} but was not matched`);
            }
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('matches a header written exactly as one of two like-named fields, and the record id as ID', () => {
    const fields = [
      { key: 'cf_a', label: 'Code' },
      { key: 'cf_b', label: 'CODE' },
      { key: 'cf_c', label: 'Id' },
    ];
    expect(matchColumns(['CODE', 'Code', 'ID', 'Id'], fields)).toEqual([
      'cf_b',
      'cf_a',
      'id',
      'cf_c',
    ]);
    // Folded, "code" names both: neither is guessed.
    expect(matchColumns(['code'], fields)).toEqual([null]);
    // A field's label alone in the file names it, though a column no import fills shares it.
    const project = [{ key: 'cf_project', label: 'Project' }];
    const system = [{ key: 'project', label: 'Project' }];
    expect(matchColumns(['PROJECT'], project, system)).toEqual(['cf_project']);
    expect(matchColumns(['Project', 'Project'], project, system)).toEqual([null, null]);
  });

  it("round trip: a custom field labelled as a record's own column keeps its values", async () => {
    const w = recordsWorkspace();
    w.mirror.metadata.replaceFields(PORTAL, MODULE, [
      ...FIELDS,
      { ...mirrorField('f30', 'cf_project', 'single_line'), displayName: 'Project' },
    ]);
    w.mirror.metadata.replaceSections(PORTAL, LAYOUT, [
      {
        id: 's1',
        name: 'All',
        position: 1,
        fields: ['f1', 'f2', 'f3', 'f30'].map((fieldId, i) => ({ fieldId, position: i + 1 })),
      },
    ]);
    w.mirror.records.upsertRecords(
      [1, 2].map((i) =>
        record(i, {
          name: `R${i}`,
          projectName: 'Warehouse Automation',
          custom: { cf_serial: `S${i}`, cf_project: `Own ${i}` },
        }),
      ),
    );
    // Exported as shown, by the export's own job: the record's Project, then the custom one.
    const reader = new RecordsReader(w.engine.store.db, w.mirror);
    const columns = reader.columns(PORTAL, MODULE);
    const file = path.join(tempDir('portaldesk-import-'), 'export.csv');
    const started = await inlineExportStarter(w.mirror)(
      {
        view: { portalId: PORTAL, moduleId: MODULE },
        columns: columns.fields.map(({ key, label, type }) => ({ key, label, type })),
        cells: {
          values: 'shown',
          context: { timeZone: columns.timeZone, locale: 'en-GB' },
          defuse: true,
        },
        format: 'csv',
        file,
        sheet: 'Assets',
      },
      () => undefined,
    );
    expect((await started.done).state).toBe('done');
    const text = readFileSync(file, 'utf8');
    expect(
      text
        .split('\r\n')[0]!
        .split(',')
        .filter((h) => h === 'Project'),
    ).toHaveLength(2);
    const changed = text.replace(',S1,', ',S1 changed,');
    const { uploadId } = await w.ok('records.importUpload', {
      fileName: 'export.csv',
      offset: 0,
      chunk: Buffer.from(changed).toString('base64'),
      last: true,
    });
    const opened = await w.ok('records.importOpen', {
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId,
      locale: 'en-GB',
    });
    // Both left to the user, each saying why.
    expect(
      opened.columns.filter((c) => c.header === 'Project').map((c) => [c.target, c.note]),
    ).toEqual([
      [null, expect.stringMatching(/^Not matched: more than one column.*"Project"/)],
      [null, expect.stringMatching(/^Not matched: more than one column.*"Project"/)],
    ]);
    expect(opened.columns.find((c) => c.header === 'Owner')).toMatchObject({
      target: null,
      note: null,
    });
    await w.ok('records.importCheck', {
      importId: opened.importId,
      targets: opened.columns.map((c) => c.target),
      mode: 'update',
    });
    await settled(w, opened.importId);
    await w.ok('records.importConfirm', { importId: opened.importId });
    await settled(w, opened.importId);
    const queued = await w.ok('outbox.list', {});
    expect(queued.map((e) => [e.recordName, e.fields.map((f) => [f.field, f.mine])])).toEqual([
      ['R1', [['cf_serial', 'S1 changed']]],
    ]);
  });
});
