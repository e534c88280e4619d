/**
 * The rows of a file to import, read streamed: a CSV through CsvReader (pieces of 64 KiB decoded
 * strictly as UTF-8, or UTF-16 by its byte order mark: csvFileText), an XLSX's first sheet
 * through xlsx/xlsxRows (each cell typed as its sheet shows it). Memory holds a piece and a row,
 * never the rows read before: a 50,000-row file is read in about the space of a ten-row one
 * (bench/README.md, "Import"). An XLSX saved with shared strings keeps its table of distinct
 * texts in memory while it is read (the export writes none; a spreadsheet program does).
 */
import { CsvReader } from '../../shared/csv/csvReader';
import { IMPORT_ROW_MAX_CHARS } from '../../shared/ipc/areas/recordsImport';
import { shownPercent, type ImportCell } from '../../shared/recordValues/parseCell';
import { csvFileText } from './csvFileText';
import { xlsxRows } from './xlsx/xlsxRows';

export type ImportFormat = 'csv' | 'xlsx';

/** The format of a file by its name; null when it is neither. */
export function importFormatOf(fileName: string): ImportFormat | null {
  const m = /\.(csv|txt|xlsx)$/i.exec(fileName);
  if (!m) return null;
  return m[1]!.toLowerCase() === 'xlsx' ? 'xlsx' : 'csv';
}

async function* csvRows(file: string): AsyncGenerator<ImportCell[]> {
  const reader = new CsvReader(undefined, IMPORT_ROW_MAX_CHARS);
  for await (const piece of csvFileText(file)) yield* reader.push(piece);
  yield* reader.end();
}

/** Every row of the file, the header first, as it is read. */
export function readImportRows(file: string, format: ImportFormat): AsyncGenerator<ImportCell[]> {
  return format === 'csv' ? csvRows(file) : xlsxRows(file);
}

/** A cell as the samples and reasons show it: a percentage, an error or a formula as the sheet does. */
export function cellAsText(cell: ImportCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'object') return String(cell);
  if (cell.kind === 'percent') return `${shownPercent(cell.value)}%`;
  // What the sheet shows there: the merged cell's value.
  if (cell.kind === 'merged') return cellAsText(cell.value);
  return cell.kind === 'error' ? cell.error : `=${cell.formula}`;
}
