/**
 * A sheet's cell (as sheetXmlRows.ts reads it) as the import reads it: text, a number, a yes/no,
 * or a date or a date and time as text (yyyy-MM-dd, yyyy-MM-ddTHH:mm: the wall clock the sheet
 * shows, as its number format shows it; a date has no zone in a spreadsheet), or a SheetCell (a
 * number shown as a percentage; an error, a formula without its result: no value). A formula is its saved result, read as a value
 * typed there would be (a date result by its format too). Pure.
 */
import type { ImportCell } from '../../../shared/recordValues/parseCell';
import type { NumberFormatKind } from './numberFormatKind';
import type { SharedStrings } from './sharedStrings';
import type { SheetXmlCell } from './sheetXmlRows';

export interface SheetContext {
  sharedStrings: SharedStrings;
  /** By a cell's `s`. */
  formats: readonly NumberFormatKind[];
  /** The workbook counts its days from 1904-01-01 (old Mac Excel), not 1899-12-30. */
  date1904: boolean;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

const pad = (n: number) => String(n).padStart(2, '0');

/** A serial day number as the date, the date and time, or the time of day it shows. */
function serialText(serial: number, kind: 'date' | 'date-time' | 'time', date1904: boolean) {
  // To the millisecond: a time typed as 14:30 is stored as a fraction a hair off it.
  const at = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(serial * DAY_MS));
  const date = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
  return kind === 'date' ? date : kind === 'time' ? time : `${date}T${time}`;
}

/** A date written as ISO text (t="d", strict Open XML) as the date, date and time, or time shown. */
function isoText(value: string, kind: NumberFormatKind): string {
  const m = /^(\d{4}-\d{2}-\d{2})?T?(\d{2}:\d{2})?/.exec(value);
  const date = m?.[1];
  const time = m?.[2];
  if (date === undefined) return time ?? value;
  if (kind === 'date') return date;
  if (kind === 'time') return time ?? '00:00';
  if (kind === 'date-time') return `${date}T${time ?? '00:00'}`;
  return time === undefined || time === '00:00' ? date : `${date}T${time}`;
}

export function sheetCellValue(cell: SheetXmlCell, sheet: SheetContext): ImportCell {
  const { type, formula, value } = cell;
  // No result saved (openpyxl writes `<v></v>`, exceljs no <v>): its value is unknown, not
  // empty. A text result (t="str") may be empty.
  if (formula !== null && (value === null || (value === '' && type !== 'str'))) {
    return { kind: 'formula without result', formula };
  }
  if (value === null) return null;
  const kind = sheet.formats[cell.style] ?? 'number';
  switch (type) {
    case 'e':
      return { kind: 'error', error: value };
    case 's': {
      // A number, written in digits: Number('') is 0, the first text, for an empty <v></v>.
      const text = /^\d+$/.test(value) ? sheet.sharedStrings.get(Number(value)) : undefined;
      if (text === undefined) {
        throw new Error(`its sheet points at shared text ${value}, which the file does not hold`);
      }
      return text;
    }
    case 'str':
    case 'inlineStr':
      return value;
    case 'b':
      return value === '1' || value === 'true';
    case 'd':
      return isoText(value, kind);
    default: {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) return value;
      if (kind === 'percent') return { kind: 'percent', value: n };
      // A negative day shows no date (Excel fills the cell with #).
      if (kind === 'number' || n < 0) return n;
      return serialText(n, kind, sheet.date1904);
    }
  }
}
