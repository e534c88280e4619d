import { describe, expect, it } from 'vitest';
import type { RecordsField } from '../../../../src/shared/ipc/areas/records';
import {
  clampWidth,
  currenciesShown,
  defaultLayout,
  headerTitle,
  MAX_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  reconcileLayout,
  toggleColumn,
} from '../../../../src/renderer/src/features/records/columnLayout';
import {
  BLOCK_ROWS,
  MAX_BLOCKS,
  MAX_IN_FLIGHT,
  RowWindows,
} from '../../../../src/renderer/src/features/records/rowWindows';
import { sampleRow } from './sampleRow';

describe('row windows', () => {
  const rows = (block: number) =>
    Array.from({ length: BLOCK_ROWS }, (_, i) => sampleRow({ id: String(block * BLOCK_ROWS + i) }));

  it('asks for the blocks on screen first, then one either side, a few at a time', () => {
    const windows = new RowWindows();
    const asked: number[] = [];
    for (;;) {
      const next = windows.nextToFetch(1_000, 1_040, 1_000_000);
      if (next === undefined) break;
      windows.started(next);
      asked.push(next);
    }
    expect(asked[0]).toBe(10);
    expect(asked).toHaveLength(MAX_IN_FLIGHT);
    expect(new Set(asked)).toEqual(new Set([9, 10, 11]));
    windows.finished(10, rows(10), 1_000);
    expect(windows.row(1_005)?.id).toBe('1005');
    expect(windows.row(1_105)).toBeUndefined();
    // A failed fetch may be asked for again.
    windows.finished(9, undefined, 1_000);
    expect(windows.nextToFetch(900, 950, 1_000_000)).toBe(9);
  });

  it('never asks past the end and keeps at most MAX_BLOCKS, dropping the farthest', () => {
    const windows = new RowWindows();
    expect(windows.nextToFetch(0, 10, 0)).toBeUndefined();
    expect(windows.nextToFetch(950, 999, 1_000)).toBe(9);
    for (let block = 0; block < MAX_BLOCKS + 5; block += 1) {
      windows.started(block);
      windows.finished(block, rows(block), 0);
    }
    expect(windows.size).toBe(MAX_BLOCKS);
    expect(windows.has(0)).toBe(true);
    expect(windows.has(MAX_BLOCKS + 4)).toBe(false);
  });

  it('keeps the focused row’s block however far the screen goes, and fetches it back', () => {
    const windows = new RowWindows();
    const focused = 5; // block 0, where the focus stayed while the list scrolled away
    windows.started(0);
    windows.finished(0, rows(0), 0, focused);
    for (let block = 1000; block < 1000 + MAX_BLOCKS + 20; block += 1) {
      windows.started(block);
      windows.finished(block, rows(block), block * BLOCK_ROWS, focused);
    }
    expect(windows.size).toBe(MAX_BLOCKS);
    expect(windows.row(focused)?.id).toBe('5');
    // A block of the focused row that is not here (a new list) comes after the screen's.
    const fresh = new RowWindows();
    const screen = [200, 201, 202];
    for (const block of screen) {
      fresh.started(block);
      fresh.finished(block, rows(block), 20_100, 70);
    }
    expect(fresh.nextToFetch(20_100, 20_150, 1_000_000, 70)).toBe(0);
    expect(fresh.nextToFetch(20_100, 20_150, 1_000_000)).toBeUndefined();
    // Never past the end of the list.
    expect(fresh.nextToFetch(20_100, 20_150, 60, 70)).toBeUndefined();
  });
});

describe('column layout', () => {
  const field = (key: string, type: string, system = false): RecordsField => ({
    key,
    label: key,
    type,
    system,
    sortable: true,
    filterKind: null,
    options: [],
  });
  const fields = [
    field('name', 'name', true),
    field('status', 'status', true),
    field('owner', 'owner', true),
    field('id', 'id', true),
    field('last_updated_time', 'timestamp', true),
    field('cf_cost', 'currency'),
    field('cf_tags', 'multi_select'),
  ];

  it('starts with the fixed columns people scan first, then custom fields', () => {
    expect(defaultLayout(fields).visible).toEqual([
      'name',
      'status',
      'owner',
      'last_updated_time',
      'cf_cost',
      'cf_tags',
    ]);
  });

  it('shows a field once when the module lists a fixed one among its own fields too', () => {
    const listedTwice = [...fields, { ...fields.find((f) => f.key === 'owner')!, system: false }];
    const { visible } = defaultLayout(listedTwice);
    expect(visible).toEqual([...new Set(visible)]);
    expect(visible.filter((key) => key === 'owner')).toHaveLength(1);
  });

  it('fits a stored choice to the module as it is now', () => {
    const layout = reconcileLayout(
      { visible: ['cf_gone', 'cf_cost', 'name'], widths: { cf_cost: 5000, cf_gone: 10 } },
      fields,
    );
    expect(layout.visible).toEqual(['cf_cost', 'name']);
    expect(layout.widths.cf_cost).toBe(MAX_COLUMN_WIDTH);
    expect(layout.widths.cf_gone).toBeUndefined();
    expect(reconcileLayout('garbage', fields)).toEqual(defaultLayout(fields));
    expect(clampWidth(1)).toBe(MIN_COLUMN_WIDTH);
  });

  it('says how a column sorts; a currency sorted by names the currencies shown', () => {
    const cost = fields.find((f) => f.key === 'cf_cost')!;
    const tags = { ...fields.find((f) => f.key === 'cf_tags')!, sortable: false };
    expect(headerTitle(fields[0]!, true, [])).toBe('Sort by name');
    expect(headerTitle(tags, false, [])).toBe('cf_tags holds several values and cannot be sorted');
    expect(headerTitle(cost, false, ['EUR'])).toBe('Sort by cf_cost: by currency, then amount');
    expect(headerTitle(cost, true, ['EUR', 'INR'])).toBe(
      'Sorted by currency, then amount. Currencies shown: EUR, INR.',
    );
    expect(headerTitle(cost, true, ['USD'])).toBe(
      'Sorted by currency, then amount. Currency shown: USD.',
    );
    expect(headerTitle(cost, true, [])).toBe('Sorted by currency, then amount.');
    const cost$ = (code: string, amount: number) =>
      sampleRow({
        custom: { cf_cost: { currency_code: code, formatted_amount: `${code} ${amount}`, amount } },
      });
    // Each code once, in the list's order; empty values, rows not read yet and odd shapes skipped.
    expect(
      currenciesShown(
        [
          cost$('INR', 5),
          undefined,
          cost$('INR', 9),
          sampleRow({ custom: {} }),
          sampleRow({ custom: { cf_cost: 'USD 3' } }),
          cost$('EUR', 1),
          cost$('USD', 0),
        ],
        'cf_cost',
      ),
    ).toEqual(['INR', 'EUR', 'USD']);
  });

  it('hides and shows columns but never the name', () => {
    const layout = defaultLayout(fields);
    expect(toggleColumn(layout, 'name')).toBe(layout);
    const hidden = toggleColumn(layout, 'owner');
    expect(hidden.visible).not.toContain('owner');
    expect(toggleColumn(hidden, 'owner').visible.at(-1)).toBe('owner');
  });
});
