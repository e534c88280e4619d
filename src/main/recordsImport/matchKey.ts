/**
 * What an update matched by a unique field compares: the field's value in the file's cell and in
 * each record, not their text. The table shows a number as "1,234", a file may hold 1234 (typed
 * in a sheet, or written plainly), and a name cell may keep a space the name does not have: as
 * text they never met, and the row said no record held a value one does. Pure.
 */
import { restoreDefused } from '../../shared/csv/csvField';
import {
  shownPercent,
  type CellReading,
  type ImportCell,
} from '../../shared/recordValues/parseCell';
import { readShownNumber } from '../../shared/recordValues/readShownText';

/** A number's key: JavaScript's own writing of it (so 1234, "1,234" and "1234.0" meet). */
const numberKey = (n: number): string | null => (Number.isFinite(n) ? String(n + 0) : null);

/**
 * The key of a file's cell for a match field of `type`; null when it names no value. A text the
 * export's formula guard marked (`'=…`) is read as the guard found it, as parseCell reads it.
 */
export function cellMatchKey(
  type: string,
  cell: ImportCell | undefined,
  reading: CellReading,
): string | null {
  if (cell === null || cell === undefined) return null;
  if (typeof cell === 'object') {
    // A sheet's cell that is no plain value: a percentage names the number it shows (15% is 15,
    // as parseCell reads it); an error or a formula without a result names nothing.
    return type === 'number' && cell.kind === 'percent'
      ? numberKey(shownPercent(cell.value))
      : null;
  }
  if (type === 'number') {
    if (typeof cell === 'number') return numberKey(cell);
    const n = readShownNumber(String(cell).trim(), reading.context);
    return n === null ? null : numberKey(n);
  }
  const given = typeof cell === 'string' && reading.defused ? restoreDefused(cell) : String(cell);
  const text = given.trim();
  return text === '' ? null : text;
}

/** The key of a record's value of a match field of `type`; null when it holds none. */
export function valueMatchKey(type: string, value: unknown): string | null {
  if (type === 'number') {
    if (typeof value === 'number') return numberKey(value);
    if (typeof value === 'string' && value.trim() !== '') return numberKey(Number(value));
    return null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}
