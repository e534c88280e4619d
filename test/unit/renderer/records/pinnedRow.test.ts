/**
 * Which row keeps the records table's tab stop while the table is virtualised: the focused row,
 * inside the list, rendered besides the window when it scrolled out of it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pinnedRow, tabStopRow } from '../../../../src/renderer/src/features/records/pinnedRow';

describe('tabStopRow', () => {
  it('is the focused row, moved into a list that became shorter, none for an empty list', () => {
    expect(tabStopRow(7, 100)).toBe(7);
    expect(tabStopRow(150, 100)).toBe(99);
    expect(tabStopRow(-1, 100)).toBe(0);
    expect(tabStopRow(0, 0)).toBeNull();
    expect(tabStopRow(5, 0)).toBeNull();
  });
});

describe('pinnedRow', () => {
  it('pins the tab stop only when the window does not render it', () => {
    expect(pinnedRow(10, { first: 0, last: 30, rendered: true })).toBeNull();
    expect(pinnedRow(0, { first: 0, last: 30, rendered: true })).toBeNull();
    expect(pinnedRow(30, { first: 0, last: 30, rendered: true })).toBeNull();
    expect(pinnedRow(31, { first: 0, last: 30, rendered: true })).toBe(31);
    expect(pinnedRow(3, { first: 500, last: 530, rendered: true })).toBe(3);
    // Before the virtualiser measured its box it renders nothing: the stop still exists.
    expect(pinnedRow(0, { first: 0, last: 0, rendered: false })).toBe(0);
    expect(pinnedRow(null, { first: 0, last: 30, rendered: true })).toBeNull();
  });

  it('renders the tab stop exactly once, whatever the window and the focus', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -10, max: 1_000_010 }),
        (total, firstRaw, size, focused) => {
          const first = Math.min(firstRaw, Math.max(0, total - 1));
          const last = Math.min(first + size, Math.max(0, total - 1));
          const rendered = total > 0;
          const windowRows = rendered
            ? Array.from({ length: last - first + 1 }, (_, i) => first + i)
            : [];
          const stop = tabStopRow(focused, total);
          const pin = pinnedRow(stop, { first, last, rendered });
          const rows = pin === null ? windowRows : [...windowRows, pin];
          if (stop === null) {
            expect(pin).toBeNull();
            return;
          }
          expect(rows.filter((row) => row === stop)).toHaveLength(1);
          // Nothing but the window and at most the stop: the table keeps its speed.
          expect(rows.length).toBeLessThanOrEqual(windowRows.length + 1);
        },
      ),
    );
  });
});
