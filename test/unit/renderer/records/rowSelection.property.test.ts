/**
 * The table's selection (rowSelection.ts) against the plain reading of the gestures over places
 * in a list that does not change (the selection by places the table had before, kept here as
 * the oracle): the same rows selected and counted, after any clicks, Ctrl+clicks, Shift+clicks,
 * Space and Ctrl+A. Then the list changes (a sync stores records before, between and after the
 * picked ones, and moves some): the same records stay selected, whatever places they moved to.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIST_IDS_MAX } from '../../../../src/shared/ipc/areas/records';
import {
  applyGesture,
  clipAnchor,
  gestureRows,
  isSelected,
  NO_SELECTION,
  pickedInOrder,
  selectAll,
  selectedCount,
  type Gesture,
  type GestureMode,
  type RowSelection,
} from '../../../../src/renderer/src/features/records/rowSelection';

// ---- the oracle: a selection of places ------------------------------------------------------
interface Places {
  ranges: [number, number][];
  anchor: number | null;
}

function normalize(ranges: [number, number][]): [number, number][] {
  const sorted = ranges
    .map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]))
    .sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const range of sorted) {
    const last = out[out.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else out.push([range[0], range[1]]);
  }
  return out;
}

const placeSelected = (s: Places, i: number) => s.ranges.some(([a, b]) => i >= a && i <= b);

function toggle(s: Places, i: number): Places {
  if (!placeSelected(s, i)) return { ranges: normalize([...s.ranges, [i, i]]), anchor: i };
  const ranges = s.ranges.flatMap(([a, b]): [number, number][] => {
    if (i < a || i > b) return [[a, b]];
    return [
      ...(a <= i - 1 ? [[a, i - 1] as [number, number]] : []),
      ...(i + 1 <= b ? [[i + 1, b] as [number, number]] : []),
    ];
  });
  return { ranges, anchor: i };
}

function oracle(s: Places, step: Step, total: number): Places {
  if (step.mode === 'all') return total === 0 ? s : { ranges: [[0, total - 1]], anchor: 0 };
  const i = step.index;
  switch (step.mode) {
    case 'only':
      return { ranges: [[i, i]], anchor: i };
    case 'toggle':
      return toggle(s, i);
    case 'add':
      return placeSelected(s, i) ? { ...s, anchor: i } : toggle(s, i);
    case 'extend':
    case 'extend-keep': {
      const anchor = s.anchor ?? i;
      const range: [number, number] = [anchor, i];
      return {
        ranges: normalize(step.mode === 'extend-keep' ? [...s.ranges, range] : [range]),
        anchor,
      };
    }
  }
}

// ---- the selection by records, driven as the store drives it --------------------------------
type Step = Gesture | { mode: 'all' };

function apply(selection: RowSelection, step: Step, list: readonly string[]): RowSelection {
  if (step.mode === 'all')
    return selection.ids.size === 0 && list.length === 0 ? selection : selectAll(list.length);
  const rows = gestureRows(selection, step, list.length);
  const ids = rows.kind === 'rows' ? list.slice(rows.first, rows.last + 1) : [];
  return applyGesture(selection, step, ids, list.length);
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);

const modes: GestureMode[] = ['only', 'toggle', 'add', 'extend', 'extend-keep'];
const steps = (total: number) =>
  fc.array(
    fc.oneof(
      {
        weight: 12,
        arbitrary: fc.record({
          mode: fc.constantFrom(...modes),
          index: fc.nat({ max: total - 1 }),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ mode: 'all' as const }) },
    ),
    { maxLength: 14 },
  );

const listAndSteps = fc
  .integer({ min: 1, max: 40 })
  .chain((total) => fc.tuple(fc.constant(total), steps(total)));

describe('the selection of records', () => {
  it('selects the rows the gestures select, over a list that does not change', () => {
    fc.assert(
      fc.property(listAndSteps, ([total, gestures]) => {
        const list = ids(total);
        let places: Places = { ranges: [], anchor: null };
        let records: RowSelection = NO_SELECTION;
        for (const step of gestures) {
          places = oracle(places, step, total);
          records = apply(records, step, list);
          const want = list.filter((_, i) => placeSelected(places, i));
          expect(list.filter((id) => isSelected(records, id))).toEqual(want);
          expect(selectedCount(records, total)).toBe(want.length);
          expect(records.anchor).toBe(places.anchor);
          if (records.kind === 'rows') expect(pickedInOrder(records)).toEqual(want);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('keeps the same records selected when a sync adds, removes and moves rows', () => {
    fc.assert(
      fc.property(
        listAndSteps,
        fc.array(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 20 }),
        fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
        ([total, gestures], added, shuffle) => {
          const list = ids(total);
          let records: RowSelection = NO_SELECTION;
          for (const step of gestures) records = apply(records, step, list);
          const before = new Set(list.filter((id) => isSelected(records, id)));
          // The new list: some rows gone, new ones (never picked) mixed in, the order changed.
          const kept = list.filter(() => shuffle.next().value > 0.2);
          const next = [...kept, ...added.map((a) => `new-${a}`)]
            .map((id) => ({ id, at: shuffle.next().value }))
            .sort((a, b) => a.at - b.at)
            .map(({ id }) => id);
          const after = clipAnchor(records, next.length);
          for (const id of next) {
            const wasPicked = before.has(id);
            const isNew = id.startsWith('new-');
            // A record picked stays picked; a new record is selected only by "every row".
            expect(isSelected(after, id)).toBe(isNew ? records.kind === 'every' : wasPicked);
          }
          if (after.anchor !== null) expect(after.anchor).toBeLessThan(next.length);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('makes a range over the whole list every row, without reading a million ids', () => {
    const total = 1_000_000;
    const first = applyGesture(NO_SELECTION, { mode: 'only', index: 0 }, ['r0'], total);
    const step: Gesture = { mode: 'extend', index: total - 1 };
    expect(gestureRows(first, step, total)).toEqual({ kind: 'all' });
    const all = applyGesture(first, step, [], total);
    expect(all.kind).toBe('every');
    expect(selectedCount(all, total)).toBe(total);
  });

  it('refuses in words a range too long to name one by one, and changes nothing', () => {
    const total = LIST_IDS_MAX * 3;
    const first = applyGesture(NO_SELECTION, { mode: 'only', index: 5 }, ['r5'], total);
    const step: Gesture = { mode: 'extend', index: 5 + LIST_IDS_MAX };
    const rows = gestureRows(first, step, total);
    expect(rows.kind).toBe('refused');
    expect(rows.kind === 'refused' && rows.message).toMatch(/50,001 rows.*not changed/);
    expect(applyGesture(first, step, [], total)).toBe(first);
    // Ctrl+Shift adds a range to the rows picked: together they must fit.
    const half = applyGesture(
      first,
      { mode: 'extend', index: 4 + LIST_IDS_MAX / 2 },
      Array.from({ length: LIST_IDS_MAX / 2 }, (_, i) => `r${5 + i}`),
      total,
    );
    const more = { ...half, anchor: LIST_IDS_MAX };
    const adding: Gesture = { mode: 'extend-keep', index: LIST_IDS_MAX + 30_000 };
    const refused = gestureRows(more, adding, total);
    expect(refused.kind === 'refused' && refused.message).toMatch(
      /Adding 30,001 rows to the 25,000 selected.*not changed/,
    );
    // One row fewer is named one by one.
    expect(gestureRows(first, { mode: 'extend', index: 4 + LIST_IDS_MAX }, total)).toEqual({
      kind: 'rows',
      first: 5,
      last: 4 + LIST_IDS_MAX,
    });
  });
});
