/**
 * A sheet's cell (as sheetXmlRows.ts reads it) as the import reads it: text, a number, a yes/no,
 * or a date or a date and time as text (yyyy-MM-dd, yyyy-MM-ddTHH:mm: the wall clock the sheet
 * shows, as its number format shows it; a date has no zone in a spreadsheet), or a SheetCell (a
 * number shown as a percentage; an error, a formula without its result: no value). A formula is its saved result, read as a value
 * typed there would be (a date result by its format too). Pure.
 */
import type { ImportCell } from '../../../shared/recordValues/parseCell';
import type { NumberFormat } from './numberFormatKind';
import type { SharedStrings } from './sharedStrings';
import type { SheetXmlCell } from './sheetXmlRows';

export interface SheetContext {
  sharedStrings: SharedStrings;
  /** By a cell's `s`. */
  formats: readonly NumberFormat[];
  /** The workbook counts its days from 1904-01-01 (old Mac Excel), not 1899-12-31. */
  date1904: boolean;
}

const DAY_S = 86_400;
const EPOCH_1900 = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
/** 9999-12-31's serial in the 1900 system, the last day a spreadsheet shows (past it: ####). */
const LAST_SERIAL_1900 = 2_958_465;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const NUMBER: NumberFormat = { kind: 'number', seconds: false, fraction: 0, elapsed: null };

/**
 * A serial day number as the format shows it, or null where a spreadsheet shows no date (a
 * negative one, one past 9999; it fills the cell with #). The 1900 system numbers 1900-01-01 as
 * 1 and keeps Lotus's 29 February 1900 as 60 (ECMA-376 18.17.4.1): days before it are a day
 * later than a count from 1899-12-30 gives, and day 60 and day 0 ("1900-01-00", a time typed
 * alone) are written as the sheet shows them, dates no field takes (validateFieldValue refuses
 * them in words). The time is rounded to the unit the format shows (the second, or the fraction
 * of it shown), as a spreadsheet does before it shows minutes; a date alone is the day the
 * number counts. Seconds are written when the format shows them and they are not zero, so a
 * time field (HH:MM) takes 14:30 shown as 14:30:00, and refuses 14:30:45 rather than drop its
 * seconds.
 */
function serialText(serial: number, format: NumberFormat, date1904: boolean): string | null {
  const scale = DAY_S * 10 ** format.fraction;
  // A date alone: to the millisecond (a day typed is stored a hair off it), then the day.
  const units =
    format.kind === 'date'
      ? Math.floor(Math.round(serial * 86_400_000) / 86_400_000) * scale
      : Math.round(serial * scale);
  if (units < 0) return null;
  const day = Math.floor(units / scale);
  const rest = units - day * scale;
  const fractionUnits = rest % 10 ** format.fraction;
  const second = Math.floor(rest / 10 ** format.fraction);
  const [h, m, s] = [Math.floor(second / 3600), Math.floor(second / 60) % 60, second % 60];
  const fraction =
    format.fraction > 0 && fractionUnits > 0
      ? `.${pad(fractionUnits, format.fraction).replace(/0+$/, '')}`
      : '';
  const shownSeconds = format.seconds && (s > 0 || fraction !== '') ? `:${pad(s)}${fraction}` : '';
  if (format.kind === 'elapsed') {
    const hours = day * 24 + h;
    if (format.elapsed === 's') return `${hours * 3600 + m * 60 + s}${fraction}`;
    const seconds = format.seconds ? `:${pad(s)}${fraction}` : '';
    return format.elapsed === 'm' ? `${hours * 60 + m}${seconds}` : `${hours}:${pad(m)}${seconds}`;
  }
  const time = `${pad(h)}:${pad(m)}${shownSeconds}`;
  if (format.kind === 'time') return time;
  let date: string;
  if (date1904) {
    if (day > LAST_SERIAL_1900 - 1462) return null;
    const at = new Date(EPOCH_1904 + day * 86_400_000);
    date = `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  } else if (day > LAST_SERIAL_1900) return null;
  else if (day === 0) date = '1900-01-00';
  else if (day === 60) date = '1900-02-29';
  else {
    const at = new Date(EPOCH_1900 + (day > 60 ? day - 1 : day) * 86_400_000);
    date = `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  }
  return format.kind === 'date' ? date : `${date}T${time}`;
}

/** A date written as ISO text (t="d", strict Open XML) as the date, date and time, or time shown. */
function isoText(value: string, format: NumberFormat): string {
  const m = /^(\d{4}-\d{2}-\d{2})?T?(\d{2}:\d{2})?(:\d{2})?/.exec(value);
  const date = m?.[1];
  const clock = m?.[2];
  // Seconds as a serial's: when the format shows them and they are not zero.
  const seconds = format.seconds && m?.[3] !== undefined && m[3] !== ':00' ? m[3] : '';
  const time = clock === undefined ? undefined : `${clock}${seconds}`;
  const kind = format.kind;
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
  const format = sheet.formats[cell.style] ?? NUMBER;
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
      return isoText(value, format);
    default: {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) return value;
      if (format.kind === 'percent') return { kind: 'percent', value: n };
      if (format.kind === 'number') return n;
      // A day a spreadsheet shows no date for (it fills the cell with #) stays its number.
      return serialText(n, format, sheet.date1904) ?? n;
    }
  }
}
