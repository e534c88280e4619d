/**
 * Which record a row of an update names, and whether it may change it:
 * - two rows naming one record: the second fails, naming the first (the file's order alone would
 *   decide which values win);
 * - a trashed record: the check fails the row as queuing would, instead of calling it ready;
 * - matched by a unique field: by its value, not its text ("1234" meets the "1,234" the table
 *   shows; a name cell's stray space meets the name), held by a property against the export's
 *   cells for any value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valueCell } from '../../../src/shared/recordValues/cellText';
import { cellMatchKey, valueMatchKey } from '../../../src/main/recordsImport/matchKey';
import { LAYOUT, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { openFile, settled } from './importSteps';

type Workspace = ReturnType<typeof recordsWorkspace>;

async function checked(w: Workspace, text: string, matchBy?: string) {
  const file = await openFile(w, 'changes.csv', text);
  await w.ok('records.importCheck', {
    importId: file.importId,
    targets: file.columns.map((c) => c.target),
    mode: 'update',
    ...(matchBy === undefined ? {} : { matchBy }),
  });
  const state = await settled(w, file.importId);
  const { failures } = await w.ok('records.importFailures', {
    importId: file.importId,
    offset: 0,
    limit: 20,
  });
  return { file, state, failures };
}

describe('the record a row of an update names', () => {
  it('fails a second row naming a record a first row named, by id or by a unique field', async () => {
    const w = recordsWorkspace();
    const alpha = record(1, { name: 'Alpha' });
    w.mirror.records.upsertRecords([alpha, record(2, { name: 'Beta' })]);
    const byId = await checked(w, `ID,description\r\n${alpha.id},First\r\n${alpha.id},Second\r\n`);
    expect(byId.state).toMatchObject({ ready: 1, failing: 1 });
    expect(byId.failures).toEqual([
      {
        row: 3,
        column: 'ID',
        reason: `row 2 names the same record (${alpha.id}), and one import changes a record once. Nothing of this row was checked; put its changes in row 2, or remove one of the two rows.`,
      },
    ]);
    const byName = await checked(
      w,
      'name,description\r\nBeta,One\r\nAlpha,Two\r\nAlpha ,Three\r\n',
      'name',
    );
    expect(byName.state).toMatchObject({ ready: 2, failing: 1 });
    expect(byName.failures).toEqual([
      expect.objectContaining({ row: 4, reason: expect.stringMatching(/^row 3 names the same/) }),
    ]);
    // Queued: one edit of each record, row 2's and row 3's values, nothing of row 4.
    await w.ok('records.importConfirm', { importId: byName.file.importId });
    await settled(w, byName.file.importId);
    const queued = await w.ok('outbox.list', {});
    expect(
      queued.map((e) => [e.recordName, e.fields.map((f) => [f.field, f.mine])]).sort(),
    ).toEqual([
      ['Alpha', [['description', 'Two']]],
      ['Beta', [['description', 'One']]],
    ]);
  });

  it('fails a row naming a trashed record at the check, as queuing would', async () => {
    const w = recordsWorkspace();
    const gone = record(1, { name: 'Alpha', trashedTime: '2026-03-01T00:00:00.000Z' });
    w.mirror.records.upsertRecords([gone]);
    const { state, failures } = await checked(w, `ID,name\r\n${gone.id},Renamed\r\n`);
    expect(state).toMatchObject({ ready: 0, failing: 1 });
    expect(failures).toEqual([
      {
        row: 2,
        column: null,
        reason:
          'Record "Alpha" is in the trash, and the service refuses changes to trashed records. Nothing was queued; restore it first.',
      },
    ]);
  });

  it('tells a value only trashed records hold from one no record holds', async () => {
    const w = recordsWorkspace();
    const trashedTime = '2026-03-01T00:00:00.000Z';
    const gone = record(1, { name: 'Alpha', trashedTime });
    w.mirror.records.upsertRecords([
      gone,
      record(2, { name: 'Beta' }),
      record(3, { name: 'Twice', trashedTime }),
      record(4, { name: 'Twice', trashedTime }),
      // Listed and trashed alike: the listed one is the record the row names.
      record(5, { name: 'Gamma' }),
      record(6, { name: 'Gamma', trashedTime }),
    ]);
    const { state, failures } = await checked(
      w,
      'name,description\r\nAlpha,One\r\nBeta,Two\r\nNobody,Three\r\nTwice,Four\r\nGamma,Five\r\n',
      'name',
    );
    expect(state).toMatchObject({ ready: 2, failing: 3 });
    expect(failures).toEqual([
      {
        row: 2,
        column: 'name',
        reason: `the record holding "Alpha" (id ${gone.id}) is in the trash, and the service refuses changes to trashed records. Nothing of this row was queued; restore it first, or import this row as a new record.`,
      },
      { row: 4, column: 'name', reason: 'no record of this module holds "Nobody".' },
      {
        row: 5,
        column: 'name',
        reason: expect.stringMatching(
          /^the 2 records holding "Twice" \(ids \S+, \S+\) are in the trash, .* restore the one to change first/,
        ),
      },
    ]);
  });

  it('meets a number field by its value, and a name by its text without stray spaces', async () => {
    const w = recordsWorkspace();
    // The layout's fields: the serial and the quantity too, so rows may set them.
    w.mirror.metadata.replaceSections(PORTAL, LAYOUT, [
      {
        id: 's1',
        name: 'All',
        position: 1,
        fields: ['f1', 'f2', 'f3', 'f12'].map((fieldId, i) => ({ fieldId, position: i + 1 })),
      },
    ]);
    w.mirror.records.upsertRecords([
      record(1, { name: 'Alpha', custom: { cf_quantity: 1234 } }),
      record(2, { name: 'Beta', custom: { cf_quantity: 7 } }),
    ]);
    const byNumber = await checked(
      w,
      'cf_quantity,cf_serial\r\n1234,S1\r\n"7",S2\r\n1234.5,S3\r\n',
      'cf_quantity',
    );
    expect(byNumber.failures).toEqual([
      { row: 4, column: 'cf_quantity', reason: 'no record of this module holds "1234.5".' },
    ]);
    expect(byNumber.state).toMatchObject({ ready: 2, failing: 1 });
    const shown = await checked(w, 'cf_quantity,cf_serial\r\n"1,234",S1\r\n', 'cf_quantity');
    expect(shown.state).toMatchObject({ ready: 1, failing: 0 });
    const byName = await checked(w, 'name,cf_serial\r\nAlpha ,S1\r\n', 'name');
    expect(byName.state).toMatchObject({ ready: 1, failing: 0 });
  });
});

describe('match keys', () => {
  it("of a sheet's cells that are no plain value: a percentage its number, the others none", () => {
    const reading = { context: { locale: 'en-GB', timeZone: 'UTC' }, defused: false };
    expect(cellMatchKey('number', { kind: 'percent', value: 0.15 }, reading)).toBe('15');
    expect(cellMatchKey('number', { kind: 'error', error: '#N/A' }, reading)).toBeNull();
    expect(
      cellMatchKey('name', { kind: 'formula without result', formula: 'A1' }, reading),
    ).toBeNull();
    expect(cellMatchKey('name', { kind: 'percent', value: 0.15 }, reading)).toBeNull();
  });

  const LOCALES = ['en-GB', 'en-US', 'de-DE', 'fr-FR', 'hi-IN', 'ja-JP'];
  it("of the export's cell equal the key of the value it shows, for numbers and texts", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.boolean(),
        fc.oneof(
          fc.record({
            type: fc.constant('number'),
            value: fc.oneof(
              fc.integer({ min: -99_999_999, max: 99_999_999 }),
              fc.integer({ min: -9_999_999, max: 9_999_999 }).map((n) => n / 100),
            ),
          }),
          fc.record({
            type: fc.constantFrom('name', 'single_line', 'email'),
            value: fc
              .string({ unit: fc.constantFrom('a', 'Z', ' ', '=', "'", '+', '@', 'é', ',') })
              .filter((t) => t.trim() !== ''),
          }),
        ),
        (locale, defused, { type, value }) => {
          const reading = { context: { locale, timeZone: 'UTC' }, defused };
          const cell = valueCell(type, value, {
            values: 'shown',
            context: reading.context,
            defuse: defused,
          });
          expect(cellMatchKey(type, cell, reading)).toBe(valueMatchKey(type, value));
        },
      ),
    );
  });
});
