/**
 * A record's text holding characters an XLSX cannot (a vertical tab pasted from Word, other
 * controls, a lone surrogate): the export writes them as U+FFFD, so an untouched cell of the
 * exported sheet, imported as an update, is no change; it rewrote the record's text with U+FFFD.
 * So is a text longer than an Excel cell holds, which the export cut to fit.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { inlineExportStarter } from '../../../src/main/recordsExport/inlineExport';
import type { EditableField } from '../../../src/shared/ipc/areas/outbox';
import { parseCell } from '../../../src/shared/recordValues/parseCell';
import { xmlText } from '../../../src/shared/recordValues/xmlText';
import { tempDir } from '../../support/tempDir';
import { MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { settled } from './importSteps';

const text = fc.string({
  unit: fc.constantFrom(
    'a',
    ' ',
    '\n',
    '\u000B',
    '\u0007',
    '\u001F',
    '\u007F',
    '\uFFFE',
    '\uD800',
    'é',
  ),
  minLength: 1,
  maxLength: 12,
});

function field(type: string): EditableField {
  return {
    key: 'f',
    label: 'F',
    type,
    mandatory: false,
    options: [],
    users: [],
    usersRestricted: false,
    statuses: [],
    currencyCode: 'USD',
    precision: 2,
  };
}

describe('a record text an XLSX cannot hold', () => {
  it('is the same as the sheet cell the export wrote of it', () => {
    const reading = { context: { timeZone: 'UTC', locale: 'en-GB' }, defused: false, xml: true };
    fc.assert(
      fc.property(fc.constantFrom('single_line', 'multi_line', 'description'), text, (type, t) => {
        expect(parseCell(field(type), xmlText(t), reading, t)).toEqual({ kind: 'same' });
      }),
    );
  });

  it('round trip: an exported XLSX imported untouched as an update queues nothing', async () => {
    const w = recordsWorkspace();
    // And a description longer than an Excel cell holds: the sheet holds it cut (sheetText).
    const texts = [...fc.sample(text, { numRuns: 30, seed: 7 }), `${'word '.repeat(9_000)}😀`];
    w.mirror.records.upsertRecords(
      texts.map((t, i) => record(i + 1, { name: `R${i + 1}`, description: t })),
    );
    const reader = new RecordsReader(w.engine.store.db, w.mirror);
    const columns = reader.columns(PORTAL, MODULE);
    const file = path.join(tempDir('portaldesk-import-'), 'export.xlsx');
    const started = await inlineExportStarter(w.mirror)(
      {
        view: { portalId: PORTAL, moduleId: MODULE },
        columns: columns.fields
          .filter((f) => ['id', 'name', 'description'].includes(f.key))
          .map(({ key, label, type }) => ({ key, label, type })),
        cells: {
          values: 'shown',
          context: { timeZone: columns.timeZone, locale: 'en-GB' },
          defuse: false,
        },
        format: 'xlsx',
        file,
        sheet: 'Assets',
      },
      () => undefined,
    );
    expect((await started.done).state).toBe('done');
    const { uploadId } = await w.ok('records.importUpload', {
      fileName: 'export.xlsx',
      offset: 0,
      chunk: readFileSync(file).toString('base64'),
      last: true,
    });
    const opened = await w.ok('records.importOpen', {
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId,
      locale: 'en-GB',
    });
    await w.ok('records.importCheck', {
      importId: opened.importId,
      targets: opened.columns.map((c) => c.target),
      mode: 'update',
    });
    expect(await settled(w, opened.importId)).toMatchObject({
      rows: texts.length,
      ready: 0,
      failing: 0,
      unchanged: texts.length,
    });
  });
});
