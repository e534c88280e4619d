/**
 * `rowCellsOf` remembers a column's cell by its value (text, yes/no, a number other than 0, an
 * object by itself) for the rows it makes. The cells of many rows made by one `rowCellsOf` must be
 * the cells each row gets alone, for values that repeat, objects shared among rows (as
 * columnRows.ts shares a batch's statuses and owners), 0 beside -0, and more distinct values than
 * it remembers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../../src/shared/ipc/areas/records';
import { rowCells, rowCellsOf, type CellOptions } from '../../../src/shared/recordValues/cellText';
import { sampleRow } from '../renderer/records/sampleRow';

const COLUMNS = [
  { key: 'status', type: 'status' },
  { key: 'owner', type: 'owner' },
  { key: 'cf_number', type: 'number' },
  { key: 'cf_cost', type: 'currency' },
  { key: 'cf_text', type: 'single_line' },
  { key: 'cf_box', type: 'check_box' },
  { key: 'cf_user', type: 'user_pick_list' },
  { key: 'cf_tags', type: 'multi_select' },
  { key: 'last_updated_time', type: 'timestamp' },
];

const statuses = [
  { id: '1', name: 'Open', color: '#00ff00', isClosedType: false },
  { id: '2', name: '=Closed', color: null, isClosedType: true },
];
const owners = [
  { zpuid: '5001', name: 'Maya Raman', email: 'maya@example.test' },
  { zpuid: '5002', name: null, email: null },
];

/** Values drawn from small pools, so rows repeat them; objects from pools are shared. */
const row = fc
  .record({
    status: fc.option(fc.constantFrom(...statuses)),
    owner: fc.option(fc.constantFrom(...owners)),
    number: fc.oneof(
      fc.constantFrom(0, -0, 1, -1, 2.5, 1e21, null),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    ),
    cost: fc.oneof(
      fc.constant(undefined),
      fc.record({
        currency_code: fc.constantFrom('USD', 'EUR', 'XYZ'),
        amount: fc.constantFrom(0, -0, 5, -5.25),
      }),
    ),
    text: fc.oneof(fc.constantFrom('', '=1+1', ' a', 'x', '-2'), fc.string({ maxLength: 4 })),
    box: fc.constantFrom(true, false, null, undefined, 'yes', 0),
    user: fc.option(fc.constantFrom({ zpuid: '1', name: 'Ravi' }, { zpuid: '2' })),
    tags: fc.option(fc.constantFrom(['a', 'b'], [], ['=x'])),
    updated: fc.constantFrom('2026-03-05T10:00:00.000Z', '2024-01-01T00:00:00.000Z', 'not a time'),
  })
  .map((v): RecordRow =>
    sampleRow({
      status: v.status,
      owner: v.owner,
      lastUpdatedTime: v.updated,
      custom: {
        cf_number: v.number,
        ...(v.cost === undefined ? {} : { cf_cost: v.cost }),
        cf_text: v.text,
        cf_box: v.box,
        cf_user: v.user,
        cf_tags: v.tags,
      },
    }),
  );

const options = fc.record({
  values: fc.constantFrom('shown' as const, 'raw' as const),
  defuse: fc.boolean(),
  context: fc.constantFrom(
    { timeZone: 'Asia/Kolkata', locale: 'en-US' },
    { timeZone: 'Europe/Berlin', locale: 'de-DE' },
  ),
});

describe('cells remembered within one rowCellsOf', () => {
  it('are the cells each row gets alone, for any rows, values and options', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), options, (rows, cellOptions: CellOptions) => {
        const cellsOf = rowCellsOf(COLUMNS, cellOptions);
        const together = rows.map(cellsOf);
        const alone = rows.map((r) => rowCells(COLUMNS, r, cellOptions));
        expect(together).toEqual(alone);
      }),
      { numRuns: 300 },
    );
  });

  it('tells 0 from -0 and keeps making cells past what it remembers', () => {
    const cellOptions: CellOptions = {
      values: 'shown',
      defuse: true,
      context: { timeZone: 'UTC', locale: 'en-US' },
    };
    const numbers = [0, -0, ...Array.from({ length: 600 }, (_, i) => i + 0.5), 0, -0, 3.5];
    const rows = numbers.map((n) => sampleRow({ custom: { cf_number: n } }));
    const cells = rows.map(rowCellsOf([{ key: 'cf_number', type: 'number' }], cellOptions));
    expect(cells.map(([cell]) => cell)).toEqual(
      numbers.map(
        (n) =>
          rowCells(
            [{ key: 'cf_number', type: 'number' }],
            sampleRow({ custom: { cf_number: n } }),
            cellOptions,
          )[0],
      ),
    );
    expect(cells[1]![0]).toBe('-0');
  });
});
