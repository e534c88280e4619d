/**
 * A sheet's merged cells (`<mergeCell ref="B2:B4"/>`), and a row's cells as the sheet shows them
 * under those merges. A merged cell keeps its value in its first (top-left) cell only; the cells
 * it covers are empty in the XML, though the sheet shows the value over all of them. Read as
 * stored, a Category merged over three rows emptied the field of the second and third records
 * (an update) or left it out (a create). So:
 * - a covered cell in the merge's first column is read as the merge's value (what its row shows:
 *   one value over the rows of a group);
 * - a covered cell in another column is a `merged` SheetCell, which fails its row if it is
 *   mapped: one value shown across two fields' columns is meant for one of them, and which one is
 *   for the user to say, not for the import to guess (nor to empty the other).
 *
 * The merges are listed after the rows (`<mergeCells>` follows `<sheetData>`), so the sheet's
 * text is scanned for them before its rows are read. A scan, not a parse: `<` stands for itself
 * only in markup (text and attribute values escape it), and the scan costs a fraction of a parse.
 */
import { IMPORT_COLUMNS_MAX } from '../../../shared/ipc/areas/recordsImport';
import type { ImportCell } from '../../../shared/recordValues/parseCell';

export interface MergedRange {
  /** As the sheet writes it ("B2:C4"). */
  ref: string;
  /** 1-based, inclusive. */
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * Ours: the most merges a sheet may list. Each is held while the sheet is read; a grouped sheet
 * of a million rows merges far fewer cells, a few KB of zip could list millions.
 */
export const MERGED_RANGES_MAX = 200_000;

/** No tag of a merge is this long: an unfinished tag longer is something else, not kept. */
const TAG_CARRY_MAX = 4096;

const MERGE_TAG =
  /<(?:[A-Za-z_][\w.-]*:)?mergeCell\s[^>]*?\bref\s*=\s*["']([A-Za-z]{1,3})(\d{1,7})(?::([A-Za-z]{1,3})(\d{1,7}))?["'][^>]*>/g;

const columnNumber = (letters: string) => {
  let column = 0;
  for (const c of letters.toUpperCase()) column = column * 26 + (c.charCodeAt(0) - 64);
  return column;
};

/** The merges a sheet's XML lists (single cells, which merge nothing, left out). */
export async function readMergedRanges(sheetText: AsyncIterable<string>): Promise<MergedRange[]> {
  const ranges: MergedRange[] = [];
  let carry = '';
  const scan = (text: string) => {
    for (const m of text.matchAll(MERGE_TAG)) {
      if (m[3] === undefined) continue;
      const [a, b] = [columnNumber(m[1]!), columnNumber(m[3])];
      const [r1, r2] = [Number(m[2]), Number(m[4])];
      const range = {
        ref: `${m[1]}${m[2]}:${m[3]}${m[4]}`.toUpperCase(),
        top: Math.min(r1, r2),
        left: Math.min(a, b),
        bottom: Math.max(r1, r2),
        right: Math.max(a, b),
      };
      if (range.top === range.bottom && range.left === range.right) continue;
      if (ranges.length >= MERGED_RANGES_MAX) {
        throw new Error(
          `its sheet merges cells in more than ${MERGED_RANGES_MAX.toLocaleString('en-US')} places, more than a sheet of records does`,
        );
      }
      ranges.push(range);
    }
  };
  for await (const piece of sheetText) {
    const text = carry + piece;
    // What follows the last `<` may be a tag the next piece finishes: kept for it.
    const open = text.lastIndexOf('<');
    const end = open !== -1 && text.indexOf('>', open) === -1 ? open : text.length;
    scan(text.slice(0, end));
    carry = text.length - end > TAG_CARRY_MAX ? '' : text.slice(end);
  }
  scan(carry);
  return ranges.sort((x, y) => x.top - y.top);
}

/** A row's cells with the sheet's merges applied (module comment), row after row in order. */
export class MergedCells {
  private next = 0;
  /** The merges the rows being read lie in, each with the value of its first cell. */
  private active: { range: MergedRange; value: ImportCell }[] = [];

  constructor(private readonly ranges: readonly MergedRange[]) {}

  /** `cells` of row `row` (1-based, rows given in order), changed in place; returned. */
  apply(row: number, cells: ImportCell[]): ImportCell[] {
    if (this.ranges.length === 0) return cells;
    this.active = this.active.filter((a) => a.range.bottom >= row);
    for (; this.next < this.ranges.length && this.ranges[this.next]!.top <= row; this.next++) {
      const range = this.ranges[this.next]!;
      // A merge whose first row the sheet left out begins with no value.
      if (range.bottom >= row) {
        this.active.push({
          range,
          value: range.top === row ? (cells[range.left - 1] ?? null) : null,
        });
      }
    }
    for (const { range, value } of this.active) {
      if (value === null || value === '') {
        // Empty merged cells show nothing: their cells are read as the empty cells they are.
        continue;
      }
      // Columns past those an import maps are never read: a merge over a whole row adds none.
      const right = Math.min(range.right, IMPORT_COLUMNS_MAX);
      for (let column = range.left; column <= right; column++) {
        if (row === range.top && column === range.left) continue;
        while (cells.length < column - 1) cells.push(null);
        cells[column - 1] =
          column === range.left ? value : { kind: 'merged', range: range.ref, value };
      }
    }
    return cells;
  }
}
