/**
 * An export reads its rows for its columns only (src/main/store/mirror/columnRows.ts: the chosen
 * columns, the custom values taken out of the JSON by SQLite). Two ways of getting the same
 * answer: for any records (custom values of any JSON shape, known and unknown statuses and
 * owners), any pending edits and any choice of columns, the cells made from those rows equal the
 * cells made from the rows every list reads (recordViews), as shown and raw; a custom text
 * damaged in the file reads as no values in both.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../../src/shared/ipc/areas/records';
import { rowCellsOf, type CellValues } from '../../../src/shared/recordValues/cellText';
import { columnRowsPlan } from '../../../src/main/store/mirror/columnRows';
import { STATUSES, USERS } from '../../unit/store/mirror/fixture';
import { MODULE, PORTAL, record, recordsWorkspace } from '../../unit/records/workspace';

/** Custom keys the generated records hold (some fields of the module, some not). */
const CUSTOM_KEYS = ['cf_cost', 'cf_tags', 'cf_audit', 'cf_insured', 'cf_quantity', 'cf_other'];
const FIXED_KEYS = [
  'id',
  'name',
  'description',
  'status',
  'owner',
  'project',
  'created_time',
  'last_updated_time',
  'is_closed',
  'is_external',
];
/** Every column type a cell is made for (describeValue's cases and one it does not know). */
const TYPES = [
  'text',
  'status',
  'owner',
  'project',
  'user_pick_list',
  'multi_user',
  'multi_select',
  'check_box',
  'currency',
  'percentage',
  'number',
  'date',
  'timestamp',
  'url',
  'id',
  'unknown_type',
];

const customValue = fc.oneof(
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }),
  fc.record({ currency_code: fc.constantFrom('USD', 'EUR', 'jpy'), amount: fc.double() }),
  fc.record({ zpuid: fc.constantFrom(...USERS.map((u) => u.zpuid)), name: fc.string() }),
  fc.constantFrom('2024-03-05', '2024-03-05T10:20:30.000Z', '=1+1', '', null),
);

const storedRecord = fc.record({
  name: fc.string(),
  description: fc.string(),
  statusId: fc.option(fc.constantFrom(...STATUSES.map((s) => s.id), '9999'), { nil: null }),
  ownerZpuid: fc.option(fc.constantFrom(...USERS.map((u) => u.zpuid), '5999'), { nil: null }),
  projectId: fc.option(fc.constantFrom('p1', 'p2'), { nil: null }),
  projectName: fc.option(fc.string(), { nil: null }),
  isClosed: fc.boolean(),
  isExternal: fc.boolean(),
  createdTime: fc.constantFrom('2024-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', 'garbled'),
  custom: fc.dictionary(fc.constantFrom(...CUSTOM_KEYS), customValue, { maxKeys: 6 }),
  /** A custom text damaged in the file (not JSON, JSON5 only, not an object), or none. */
  damaged: fc.option(fc.constantFrom('{broken', '{cf_cost: 1}', '[1, 2]', '"text"', 'null', ''), {
    nil: null,
  }),
  /** A pending rename: such a row is read by recordViews, its edits merged. */
  edited: fc.option(
    fc.string().map((s) => `Renamed ${s}`),
    { nil: null },
  ),
});

const columnChoice = fc.uniqueArray(
  fc.record({
    key: fc.constantFrom(...FIXED_KEYS, ...CUSTOM_KEYS, 'cf_absent'),
    type: fc.constantFrom(...TYPES),
  }),
  { selector: (column) => column.key, minLength: 1, maxLength: 8 },
);

describe('an export reads its rows for its columns', () => {
  it('makes the same cells as the rows every list reads, for any records, edits and columns', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(storedRecord, { minLength: 1, maxLength: 25 }),
        columnChoice,
        fc.constantFrom<CellValues>('shown', 'raw'),
        fc.boolean(),
        async (stored, columns, values, defuse) => {
          const workspace = recordsWorkspace();
          try {
            const { mirror } = workspace;
            mirror.records.upsertRecords(
              stored.map(({ edited: _edited, damaged: _damaged, ...fields }, i) => ({
                ...record(i + 1),
                ...fields,
                lastUpdatedTime: `2024-02-0${(i % 9) + 1}T10:00:00.000Z`,
              })),
            );
            const ids = stored.map((_, i) => record(i + 1).id);
            const damage = workspace.engine.store.db.prepare(
              'UPDATE records SET custom = ? WHERE portal_id = ? AND id = ?',
            );
            for (const [i, { damaged }] of stored.entries()) {
              if (damaged !== null) damage.run(damaged, PORTAL, ids[i]);
            }
            for (const [i, recordStored] of stored.entries()) {
              if (recordStored.edited === null) continue;
              await workspace.ok('outbox.edit', {
                portalId: PORTAL,
                recordId: ids[i]!,
                changes: { name: recordStored.edited },
              });
            }
            const view = { portalId: PORTAL, moduleId: MODULE };
            const keys = [...mirror.query.openView(view).keys];
            // A key no longer stored is left out by both.
            const asked = [...keys].reverse().concat([987654321]);
            const keyList = columns.map((column) => column.key);
            expect(columnRowsPlan(keyList)).not.toBeNull();
            const lean = mirror.query.rowsOfKeys(view, asked, keyList).read(0, asked.length);
            const full = mirror.query.rowsOfKeys(view, asked).read(0, asked.length);
            const cellsOf = rowCellsOf(columns, {
              values,
              defuse,
              context: { timeZone: 'Asia/Kolkata', locale: 'en-GB' },
            });
            expect(lean.map((row) => row.id)).toEqual(full.map((row) => row.id));
            expect(lean.map((row) => cellsOf(row as RecordRow))).toEqual(
              full.map((row) => cellsOf(row as RecordRow)),
            );
          } finally {
            workspace.engine.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads every row through the lists when a key cannot be a plain JSON path or a plain key', () => {
    expect(columnRowsPlan(['name', 'cf.dotted'])).toBeNull();
    expect(columnRowsPlan(['name', 'cf "quoted"'])).toBeNull();
    expect(columnRowsPlan(['name', '__proto__'])).toBeNull();
    expect(columnRowsPlan(['name', 'cf_plain'])).not.toBeNull();
  });
});
