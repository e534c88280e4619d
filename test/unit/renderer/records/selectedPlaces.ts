/**
 * A selection as ranges of the places its rows had when picked (rowSelection.ts keeps them for
 * Copy's order): tests of the table's gestures compare these with the rows they pressed keys on.
 */
import type { RowSelection } from '../../../../src/renderer/src/features/records/rowSelection';

export function selectedPlaces(state: {
  selection: RowSelection;
  total: number | null;
}): [number, number][] {
  const { selection } = state;
  const total = state.total ?? 0;
  const places = new Set(selection.ids.values());
  const ranges: [number, number][] = [];
  const selected = (place: number) =>
    selection.kind === 'rows' ? places.has(place) : !places.has(place);
  const candidates =
    selection.kind === 'rows'
      ? [...places].sort((a, b) => a - b)
      : Array.from({ length: total }, (_, i) => i);
  for (const place of candidates) {
    if (!selected(place)) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === place - 1) last[1] = place;
    else ranges.push([place, place]);
  }
  return ranges;
}
