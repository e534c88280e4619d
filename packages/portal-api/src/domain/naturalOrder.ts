/**
 * The order of text in record lists (issue 19: "Sorting by name puts '#1014' before '#148'"):
 * text ignoring case as the filter language folds it (foldText), then compared character by
 * character in code point order (SQLite's BINARY order of UTF-8), except that every run of ASCII
 * digits is one unit compared by its value. The service's lists (the emulator's `sort_by`) and
 * the mirror's lists both sort so, so a list reads the same offline and online. Pure.
 *
 * - A digit run sorts where a digit would against other characters: after space, '#', '-' and
 *   '/', before ':', letters and everything beyond ASCII.
 * - Leading zeros: "007" has the value of "7"; of two runs with the same value the one written
 *   with fewer digits comes first ("7" < "07" < "007"), right at that run. So two texts are equal
 *   only when their folded forms are, and lists break those ties by id.
 * - Only ASCII digits: other digits ('١', '７') are text, and so are signs and decimal points
 *   ("-5" is '-' then 5; "1.10" is 1, '.', 10).
 *
 * SQLite cannot take a collation from better-sqlite3, so SQL sorts by `naturalSortKey`, a text
 * whose byte order is this order: stored beside the name (`records.name_sort`, indexed), or
 * computed by the SQL function NATURAL_SORT_SQL_FUNCTION for other text.
 */
import { foldText } from '../filter/fold';

/** The name of the SQL function that computes naturalSortKey; executors register it. */
export const NATURAL_SORT_SQL_FUNCTION = 'pd_natural_key';

const ZERO = 0x30;
const NINE = 0x39;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const isDigit = (codePoint: number) => codePoint >= ZERO && codePoint <= NINE;

/**
 * The folded text with lone surrogates as U+FFFD: a key is then well-formed UTF-8 in SQLite, and
 * code point order here is byte order there. (Text with a lone surrogate that SQLite stored
 * reaches the SQL function as three U+FFFD, as better-sqlite3 writes it as invalid UTF-8: such
 * text sorts a little differently there; the names' keys are computed before they are stored.)
 */
function foldedForOrder(text: string): string {
  return foldText(text).replace(LONE_SURROGATE, '\uFFFD');
}

function digitRunEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
  return end;
}

/** Two digit runs by value, then fewer digits first. */
function compareDigitRuns(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  if (x !== y) return x < y ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Natural order: negative when `a` comes first, 0 when both fold to the same text, else positive. */
export function naturalCompare(a: string, b: string): number {
  const x = foldedForOrder(a);
  const y = foldedForOrder(b);
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const cx = x.codePointAt(i) as number;
    const cy = y.codePointAt(j) as number;
    if (isDigit(cx) && isDigit(cy)) {
      const endX = digitRunEnd(x, i);
      const endY = digitRunEnd(y, j);
      const runs = compareDigitRuns(x.slice(i, endX), y.slice(j, endY));
      if (runs !== 0) return runs;
      i = endX;
      j = endY;
      continue;
    }
    // A run against a character: any digit stands for the run, as no character equals one.
    if (cx !== cy) return cx < cy ? -1 : 1;
    const width = cx > 0xffff ? 2 : 1;
    i += width;
    j += width;
  }
  return i < x.length ? 1 : j < y.length ? -1 : 0;
}

/**
 * A count as text whose order is the count's and whose end is known from its first character:
 * '0' for none, else the number of its digits, then its digits ("7" -> "17", "12" -> "212").
 * Starts with an ASCII digit. A JavaScript string holds fewer than 10^9 characters, so the first
 * character is a single digit.
 */
function countKey(count: number): string {
  if (count === 0) return '0';
  const digits = String(count);
  return `${digits.length}${digits}`;
}

/**
 * The sort key of a text: its folded form with each digit run written as its length (countKey),
 * its digits without leading zeros, and the count of leading zeros. Byte order of two keys
 * (UTF-8, SQLite's BINARY) is naturalCompare's order, for runs of any length; equal keys mean
 * equal folded texts. "#148" -> "#131480", "#1014" -> "#1410140", "007" -> "11712".
 */
export function naturalSortKey(text: string): string {
  return naturalSortKeyOfFolded(foldText(text));
}

/**
 * naturalSortKey of a text already folded by foldText: `naturalSortKey(t)` is
 * `naturalSortKeyOfFolded(foldText(t))` for every t. A filter's needles are folded already, so a
 * needle's key is the sort key of exactly the names it equals, without relying on foldText
 * being idempotent (the mirror finds a name `is` filter's rows by their sort key).
 */
export function naturalSortKeyOfFolded(folded: string): string {
  return folded.replace(LONE_SURROGATE, '\uFFFD').replace(/[0-9]+/g, (run) => {
    const significant = run.replace(/^0+/, '');
    return `${countKey(significant.length)}${significant}${countKey(run.length - significant.length)}`;
  });
}

/** The SQL function: the sort key of text, NULL for anything else (NULL sorts as empty). */
export function naturalSortSqlValue(value: unknown): string | null {
  return typeof value === 'string' ? naturalSortKey(value) : null;
}
