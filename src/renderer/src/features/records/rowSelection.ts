/**
 * Which rows of the table are selected, by record: the ids of the rows picked, or every row of
 * the list but some. Click selects one row, Ctrl/Cmd+click toggles one, Shift+click or
 * Shift+arrow selects from the anchor to the row, Ctrl+A the whole list.
 *
 * Not positions: a sync that stores records while rows are selected moves rows to other places in
 * the list, and a selection of places then named other records, so Preview, Move to the recycle
 * bin and Copy acted on rows nobody picked. A gesture's rows are read into ids when it is made:
 * the rows the table holds at once, a range's others from the engine in one reading of the list
 * (recordsStore.ts). A range over the whole list is "every row" (the list's filter, whatever it
 * holds when acted on), so Shift+End over a million records is not a million ids. Pure.
 */
import { LIST_IDS_MAX } from '../../../../shared/ipc/areas/records';

export interface RowSelection {
  /** `rows`: the records in `ids`; `every`: every record of the list but those in `ids`. */
  kind: 'rows' | 'every';
  /**
   * Record id -> its place in the list when it was picked: the table's order, for Copy (a
   * sync's moves since do not reorder what was picked).
   */
  ids: ReadonlyMap<string, number>;
  /** Where a Shift selection starts from (a place in the list). */
  anchor: number | null;
  /**
   * The record at the anchor when it was set (null when unknown: Ctrl+A): a sync that moves it
   * moves the anchor with it (recordsStore finds it among the rows held).
   */
  anchorId: string | null;
  /**
   * `every` only: ids left out that the list did not hold at its last check (recordsStore's
   * prune). They stay left out (a sync that brings such a record back does not select it), but
   * are not counted as rows the list lacks.
   */
  absent?: ReadonlySet<string>;
}

/** A selection as the actions take it (bulk edit, trash, Copy). */
export type Picked = { kind: 'rows'; ids: string[] } | { kind: 'every'; except: string[] };

export const NO_SELECTION: RowSelection = {
  kind: 'rows',
  ids: new Map(),
  anchor: null,
  anchorId: null,
};

export type GestureMode = 'only' | 'toggle' | 'add' | 'extend' | 'extend-keep';

/** A click or key on the row at `index`: what `mode` does is in the header. */
export interface Gesture {
  mode: GestureMode;
  index: number;
}

/** The rows whose ids a gesture needs, first..last, in the list of `total` rows. */
export type GestureRows =
  | { kind: 'rows'; first: number; last: number }
  /** A range over the whole list: no ids needed. */
  | { kind: 'all' }
  /** A range too long to name one by one: the selection stays as it was. */
  | { kind: 'refused'; message: string };

export function isSelected(selection: RowSelection, id: string | undefined): boolean {
  if (selection.kind === 'every') return id === undefined || !selection.ids.has(id);
  return id !== undefined && selection.ids.has(id);
}

export function isEmpty(selection: RowSelection): boolean {
  return selection.kind === 'rows' && selection.ids.size === 0;
}

/** Rows selected in a list of `total` (for `every`, the ids left out are rows of the list). */
export function selectedCount(selection: RowSelection, total: number): number {
  if (selection.kind === 'rows') return selection.ids.size;
  let absent = 0;
  for (const id of selection.absent ?? []) if (selection.ids.has(id)) absent += 1;
  return Math.max(0, total - (selection.ids.size - absent));
}

export function selectAll(total: number): RowSelection {
  return total === 0 ? NO_SELECTION : { kind: 'every', ids: new Map(), anchor: 0, anchorId: null };
}

/** The anchor within a list of `total` rows (a refresh can shorten the list). */
export function clipAnchor(selection: RowSelection, total: number): RowSelection {
  const { anchor } = selection;
  if (anchor === null || anchor < total) return selection;
  // The anchor's record is kept: recordsStore finds where it moved (anchoredIn).
  return { ...selection, anchor: total === 0 ? null : total - 1 };
}

function rangeOf(selection: RowSelection, index: number): [number, number] {
  const anchor = selection.anchor ?? index;
  return anchor <= index ? [anchor, index] : [index, anchor];
}

export function gestureRows(selection: RowSelection, gesture: Gesture, total: number): GestureRows {
  const { mode, index } = gesture;
  if (mode !== 'extend' && mode !== 'extend-keep') {
    return { kind: 'rows', first: index, last: index };
  }
  const [first, last] = rangeOf(selection, index);
  if (first <= 0 && last >= total - 1) return { kind: 'all' };
  const rows = last - first + 1;
  // Ctrl+Shift adds the range to the rows picked before: together they must fit too.
  const kept = mode === 'extend-keep' && selection.kind === 'rows' ? selection.ids.size : 0;
  if (kept > 0 && kept + rows > LIST_IDS_MAX) {
    return {
      kind: 'refused',
      message: `Adding ${rows.toLocaleString()} rows to the ${kept.toLocaleString()} selected would pick more than the ${LIST_IDS_MAX.toLocaleString()} that can be picked one by one; the selection was not changed. Select every row (Ctrl+A) of a list narrowed by a filter instead.`,
    };
  }
  if (rows > LIST_IDS_MAX) {
    return {
      kind: 'refused',
      message: `A range of ${rows.toLocaleString()} rows is more than the ${LIST_IDS_MAX.toLocaleString()} that can be picked one by one; the selection was not changed. Select every row (Ctrl+A) of a list narrowed by a filter instead.`,
    };
  }
  return { kind: 'rows', first, last };
}

/**
 * The selection after `gesture`, given the ids of its rows (`gestureRows`' first..last, in the
 * list's order; none for `all`).
 */
export function applyGesture(
  selection: RowSelection,
  gesture: Gesture,
  rowIds: readonly string[],
  total: number,
): RowSelection {
  const { mode, index } = gesture;
  const rows = gestureRows(selection, gesture, total);
  if (rows.kind === 'refused') return selection;
  if (rows.kind === 'all') {
    return {
      kind: 'every',
      ids: new Map(),
      anchor: selection.anchor ?? index,
      anchorId: selection.anchor === null ? null : selection.anchorId,
    };
  }
  const range = new Map(rowIds.map((id, i) => [id, rows.first + i]));
  const id = rowIds[0];
  // Where a Shift range starts: the anchor kept, or this row when there is none yet.
  const from =
    selection.anchor === null
      ? { anchor: index, anchorId: rowIds[index - rows.first] ?? null }
      : { anchor: selection.anchor, anchorId: selection.anchorId };
  switch (mode) {
    case 'only':
      return { kind: 'rows', ids: range, anchor: index, anchorId: id ?? null };
    case 'add':
      if (isSelected(selection, id)) return { ...selection, anchor: index, anchorId: id ?? null };
      return toggled(selection, range, index);
    case 'toggle':
      return toggled(selection, range, index);
    case 'extend':
      return { kind: 'rows', ids: range, ...from };
    case 'extend-keep': {
      const ids = new Map(selection.ids);
      for (const [rowId, place] of range) {
        if (selection.kind === 'rows') ids.set(rowId, place);
        else ids.delete(rowId);
      }
      return {
        kind: selection.kind,
        ids,
        ...from,
        ...(selection.absent ? { absent: selection.absent } : {}),
      };
    }
  }
}

/**
 * Why `next` cannot be kept, in words: more rows picked one by one than LIST_IDS_MAX (Ctrl+click
 * or Space past it: the Shift ranges are refused before, by gestureRows); null when it can.
 */
export function overLimit(next: RowSelection): string | null {
  if (next.kind !== 'rows' || next.ids.size <= LIST_IDS_MAX) return null;
  return `At most ${LIST_IDS_MAX.toLocaleString()} rows can be picked one by one; the selection was not changed. Select every row (Ctrl+A) of a list narrowed by a filter instead.`;
}

/** The one row of `row` toggled: into or out of the picked ids, or of the ones left out. */
function toggled(
  selection: RowSelection,
  row: ReadonlyMap<string, number>,
  index: number,
): RowSelection {
  const ids = new Map(selection.ids);
  let anchorId: string | null = null;
  for (const [id, place] of row) {
    anchorId = id;
    if (ids.has(id)) ids.delete(id);
    else ids.set(id, place);
  }
  // A row toggled is on screen, so in the list: not absent.
  const absent =
    selection.absent && anchorId !== null && selection.absent.has(anchorId)
      ? new Set([...selection.absent].filter((id) => id !== anchorId))
      : selection.absent;
  return {
    kind: selection.kind,
    ids,
    anchor: index,
    anchorId,
    ...(absent ? { absent } : {}),
  };
}

/** The picked ids in the table's order when they were picked (Copy's order). */
export function pickedInOrder(selection: RowSelection): string[] {
  return [...selection.ids].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}

/** The selection as the actions take it (recordsStore's `picked`, once no gesture is being read). */
export function pickedOf(selection: RowSelection): Picked {
  return selection.kind === 'every'
    ? { kind: 'every', except: [...selection.ids.keys()] }
    : { kind: 'rows', ids: pickedInOrder(selection) };
}
