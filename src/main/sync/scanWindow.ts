/**
 * The decisions of a listing read in windows that overlap by one record (scanRunsAhead.ts): which
 * records of a window are new, whether the window still joins the records read before it, and
 * where the scan stands afterwards. Pure: a window is its position and the ids it holds.
 *
 * Why overlap: a list read by page number shifts when records before the reading point leave it
 * (trashed on the server): the first records of the next page slide onto a page already read and
 * are never seen (issue 14, item 4). Read in id order, each window starting at the last record of
 * the one before, a window whose first id is past the last id read shows that something was
 * skipped, and the scan steps back until a window joins again.
 */

/**
 * Where a scan stands: `after`, the greatest id handed over (null before the first), and `index`,
 * the 1-based position in the list where the record holding it (or the last one before it) stood
 * when read. The next window starts at `index`: its first record is `after`'s if nothing moved.
 */
export interface ScanPosition {
  index: number;
  after: string | null;
}

export const SCAN_START: ScanPosition = { index: 1, after: null };

/** Ids (strings of digits, spec: "long") in numeric order. */
export function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export type WindowReading =
  /**
   * The window joins what was read: its records from `firstNew` on (positions in the window) are
   * new, and the scan stands at `position`. `end`: the list has nothing after this window.
   */
  | { kind: 'joined'; firstNew: number; position: ScanPosition; end: boolean }
  /** The window starts past the last id read: records in between may have been skipped. */
  | { kind: 'gap' }
  /** The ids do not ascend: the server did not list in id order, so no gap can be seen. */
  | { kind: 'disorder'; at: number };

/**
 * Reads one window: `index` its 1-based position in the list, `ids` its records in order (null
 * for one whose id could not be read), `hasNext` the reply's `has_next_page`, `at` where the scan
 * stood before it.
 */
export function readScanWindow(
  index: number,
  ids: readonly (string | null)[],
  hasNext: boolean,
  at: ScanPosition,
): WindowReading {
  let previous: string | null = null;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? null;
    if (id === null) continue;
    if (previous !== null && compareIds(previous, id) >= 0) return { kind: 'disorder', at: i };
    previous = id;
  }
  // The last record of the window at or before `after`: everything past it is new.
  let anchor = -1;
  if (at.after !== null) {
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i] ?? null;
      if (id !== null && compareIds(id, at.after) <= 0) {
        anchor = i;
        break;
      }
    }
  }
  // From the list's first record nothing can lie before the window.
  if (anchor < 0 && index > 1 && at.after !== null) return { kind: 'gap' };
  let last = anchor;
  for (let i = ids.length - 1; i > anchor; i--) {
    if ((ids[i] ?? null) !== null) {
      last = i;
      break;
    }
  }
  const position: ScanPosition =
    last > anchor
      ? { index: index + last, after: ids[last]! }
      : { index: anchor >= 0 ? index + anchor : at.index, after: at.after };
  return { kind: 'joined', firstNew: anchor + 1, position, end: !hasNext };
}

/**
 * Where to look after a gap: `misses` windows in a row did not join, so step back twice as far as
 * the last time (a window's worth of new records, `range - 1`, the first time), never before 1.
 */
export function stepBack(index: number, range: number, misses: number): number {
  return Math.max(1, index - (range - 1) * 2 ** (misses - 1));
}

/** The 1-based position of the window after one at `index`: it starts on that one's last record. */
export function nextWindowIndex(index: number, range: number): number {
  return index + range - 1;
}
