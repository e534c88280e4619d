/**
 * Which rows of the table are selected, as ranges of row positions: Shift+End over a million
 * records is one range, not a million ids. Click selects one row, Ctrl/Cmd+click toggles one,
 * Shift+click or Shift+arrow selects from the anchor to the row. Pure.
 */

export interface RowSelection {
  /** Inclusive, sorted, not touching one another. */
  ranges: readonly (readonly [number, number])[];
  /** Where a Shift selection starts from. */
  anchor: number | null;
}

export const NO_SELECTION: RowSelection = { ranges: [], anchor: null };

function normalize(ranges: (readonly [number, number])[]): [number, number][] {
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

export function selectOnly(index: number): RowSelection {
  return { ranges: [[index, index]], anchor: index };
}

export function isSelected(selection: RowSelection, index: number): boolean {
  return selection.ranges.some(([a, b]) => index >= a && index <= b);
}

export function toggleRow(selection: RowSelection, index: number): RowSelection {
  if (!isSelected(selection, index)) {
    return { ranges: normalize([...selection.ranges, [index, index]]), anchor: index };
  }
  const ranges = selection.ranges.flatMap(([a, b]): [number, number][] => {
    if (index < a || index > b) return [[a, b]];
    const parts: [number, number][] = [];
    if (a <= index - 1) parts.push([a, index - 1]);
    if (index + 1 <= b) parts.push([index + 1, b]);
    return parts;
  });
  return { ranges, anchor: index };
}

/** From the anchor to `index`; `keep` (Ctrl+Shift) adds it to what was selected. */
export function extendTo(selection: RowSelection, index: number, keep = false): RowSelection {
  const anchor = selection.anchor ?? index;
  const range: [number, number] = [anchor, index];
  return {
    ranges: normalize(keep ? [...selection.ranges, range] : [range]),
    anchor,
  };
}

export function selectAll(total: number): RowSelection {
  return total === 0 ? NO_SELECTION : { ranges: [[0, total - 1]], anchor: 0 };
}

export function selectedCount(selection: RowSelection): number {
  return selection.ranges.reduce((sum, [a, b]) => sum + b - a + 1, 0);
}

/**
 * The selection within a list of `total` rows: rows at or past the end are no longer selected,
 * and an anchor past it moves to the last row. A refresh that shortens the list (records
 * deleted, a sync's reconciliation) must not leave rows that no longer exist counted as
 * selected, nor Copy and Bulk edit acting on them.
 */
export function clipSelection(selection: RowSelection, total: number): RowSelection {
  const last = total - 1;
  if (selection.ranges.every(([, b]) => b <= last) && (selection.anchor ?? -1) <= last) {
    return selection;
  }
  const ranges = selection.ranges
    .filter(([a]) => a <= last)
    .map(([a, b]): [number, number] => [a, Math.min(b, last)]);
  const anchor = selection.anchor === null || last < 0 ? null : Math.min(selection.anchor, last);
  return { ranges, anchor };
}
