/**
 * clipSelection against the plain meaning of a selection: a row of the shortened list is
 * selected after the clip exactly when it was before, and no row past its end is; the ranges stay
 * sorted, apart and inside the list; the anchor stays a row of the list (or none).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clipSelection,
  extendTo,
  isSelected,
  NO_SELECTION,
  selectOnly,
  toggleRow,
  type RowSelection,
} from '../../../../src/renderer/src/features/records/rowSelection';

/** Selections as the table makes them: clicks, Ctrl+clicks and Shift+clicks on rows. */
const selection = fc
  .array(
    fc.tuple(fc.constantFrom('only', 'toggle', 'extend', 'extend-keep'), fc.nat({ max: 60 })),
    { maxLength: 12 },
  )
  .map((steps) =>
    steps.reduce<RowSelection>((s, [how, row]) => {
      if (how === 'only') return selectOnly(row);
      if (how === 'toggle') return toggleRow(s, row);
      return extendTo(s, row, how === 'extend-keep');
    }, NO_SELECTION),
  );

describe('clipSelection', () => {
  it('keeps exactly the selected rows that are still in the list', () => {
    fc.assert(
      fc.property(selection, fc.nat({ max: 70 }), (before, total) => {
        const after = clipSelection(before, total);
        for (let row = 0; row < 75; row++) {
          expect(isSelected(after, row)).toBe(row < total && isSelected(before, row));
        }
        let end = -2;
        for (const [a, b] of after.ranges) {
          expect(a).toBeGreaterThan(end + 1);
          expect(b).toBeGreaterThanOrEqual(a);
          expect(b).toBeLessThan(total);
          end = b;
        }
        if (after.anchor !== null) {
          expect(after.anchor).toBeGreaterThanOrEqual(0);
          expect(after.anchor).toBeLessThan(total);
        }
        if (total === 0) expect(after).toEqual({ ranges: [], anchor: null });
        if (before.anchor !== null && before.anchor < total)
          expect(after.anchor).toBe(before.anchor);
      }),
      { numRuns: 2_000 },
    );
  });

  it('returns the same selection when the list still holds all of it', () => {
    const s = extendTo(selectOnly(3), 9);
    expect(clipSelection(s, 10)).toBe(s);
  });
});
