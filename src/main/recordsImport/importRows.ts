/**
 * The rows of a file to import, read streamed: a CSV through CsvReader (UTF-8, pieces of 64 KiB),
 * an XLSX through exceljs's streaming WorkbookReader (its first worksheet; shared strings and
 * styles kept, as they say what a cell holds). Memory holds a piece and a row, never the rows
 * read before: a 50,000-row file is read in about the space of a ten-row one (bench/README.md,
 * "Import"). An XLSX saved with shared strings keeps its table of distinct texts in memory while
 * it is read (the export writes none; a spreadsheet program does).
 */
import ExcelJS from 'exceljs';
import { createReadStream } from 'node:fs';
import { CsvReader } from '../../shared/csv/csvReader';
import type { ImportCell } from '../../shared/recordValues/parseCell';

export type ImportFormat = 'csv' | 'xlsx';

/** The format of a file by its name; null when it is neither. */
export function importFormatOf(fileName: string): ImportFormat | null {
  const m = /\.(csv|txt|xlsx)$/i.exec(fileName);
  if (!m) return null;
  return m[1]!.toLowerCase() === 'xlsx' ? 'xlsx' : 'csv';
}

async function* csvRows(file: string): AsyncGenerator<ImportCell[]> {
  const reader = new CsvReader();
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  try {
    for await (const piece of stream) yield* reader.push(piece as string);
    yield* reader.end();
  } finally {
    stream.destroy();
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cell of a sheet as text, a number or a yes/no. A date typed into a spreadsheet is its wall
 * clock (exceljs reads it as that time in UTC): a date at midnight, else a date and time.
 */
export function sheetCell(value: ExcelJS.CellValue): ImportCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (value instanceof Date) {
    const date = `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
    const h = value.getUTCHours();
    const m = value.getUTCMinutes();
    return h === 0 && m === 0 ? date : `${date}T${pad(h)}:${pad(m)}`;
  }
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    return result === undefined ? null : sheetCell(result as ExcelJS.CellValue);
  }
  if ('text' in value) return String((value as { text: unknown }).text);
  if ('error' in value) return String((value as { error: unknown }).error);
  return null;
}

async function* xlsxRows(file: string): AsyncGenerator<ImportCell[]> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Kept: a date is a number whose style says "date"; without styles it reads as 46086.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  for await (const worksheet of workbook) {
    let next = 1;
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      // Rows left out of the sheet's XML are empty rows: kept, so row numbers stay the sheet's.
      for (; next < row.number; next++) yield [];
      next = row.number + 1;
      const values = row.values as ExcelJS.CellValue[];
      const cells: ImportCell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(sheetCell(values[i]));
      yield cells;
    }
    // The first sheet is the data (the export writes one); the rest are not read.
    return;
  }
}

/** Every row of the file, the header first, as it is read. */
export function readImportRows(file: string, format: ImportFormat): AsyncGenerator<ImportCell[]> {
  return format === 'csv' ? csvRows(file) : xlsxRows(file);
}

/** A cell as the samples and reasons show it. */
export function cellAsText(cell: ImportCell | undefined): string {
  return cell === null || cell === undefined ? '' : String(cell);
}
