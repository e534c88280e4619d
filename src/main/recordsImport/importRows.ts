/**
 * The rows of a file to import, read streamed: a CSV through CsvReader (pieces of 64 KiB decoded
 * strictly as UTF-8, or UTF-16 by its byte order mark: csvFileText),
 * an XLSX through the parts of exceljs's streaming WorkbookReader (its first worksheet; shared
 * strings and styles kept, as they say what a cell holds; see WorkbookReaderSteps). Memory holds
 * a piece and a row, never the rows read before: a 50,000-row file is read in about the space of
 * a ten-row one (bench/README.md, "Import"). An XLSX saved with shared strings keeps its table of distinct texts in memory while
 * it is read (the export writes none; a spreadsheet program does).
 */
import { BlobReader, ZipReader, type FileEntry } from '@zip.js/zip.js';
import ExcelJS from 'exceljs';
import { openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import { CsvReader } from '../../shared/csv/csvReader';
import { Utf8Chunks } from '../utf8Chunks';
import { csvFileText } from './csvFileText';
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
  for await (const piece of csvFileText(file)) yield* reader.push(piece);
  yield* reader.end();
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

/**
 * The steps of exceljs's streaming WorkbookReader (lib/stream/xlsx/workbook-reader.js, 4.4.0) that
 * read one part of the file each; its own `parse` is not used. Why:
 * - `parse` reads the zip in one streaming pass (unzipper's Parse) and takes the parts in the
 *   order they are stored. exceljs's own writer stores `xl/workbook.xml` last, and under load the
 *   pass intermittently ends without giving the last part (exceljs issue #3064; seen here as an
 *   import failing at its first row with "Cannot read properties of undefined (reading
 *   'sheets')"). A part lost that way could as well be the styles (dates read as numbers) or the
 *   shared strings.
 * - It decodes each chunk of XML as UTF-8 alone, so a character cut by a chunk's end became
 *   U+FFFD: "Müller" imported as "M��ller" when the "ü" fell on a boundary.
 * So the parts are found through the zip's central directory (zip.js, as the backups read theirs),
 * read in the order they are needed (relationships, workbook, shared strings, styles, then the
 * first sheet), and handed over as text decoded as a stream.
 */
interface WorkbookReaderSteps {
  model?: { sheets?: { name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(stream: Readable): Promise<void>;
  _parseWorkbook(stream: Readable): Promise<void>;
  _parseSharedStrings(stream: Readable): AsyncGenerator<unknown>;
  _parseStyles(stream: Readable): Promise<void>;
  _parseWorksheet(
    text: AsyncIterable<string>,
    sheetNo: string,
  ): Generator<{ eventType: string; value: unknown }>;
}

/** Characters handed to the XML parser at once. */
const TEXT_PIECE_CHARS = 16 * 1024;

/** An entry's bytes as text, decoded as one stream (a character may span two chunks): Utf8Chunks. */
async function* entryText(entry: FileEntry): AsyncGenerator<string> {
  const bytes = new TransformStream<Uint8Array, Uint8Array>();
  const copied = entry.getData(bytes.writable);
  // Its failure (a damaged entry) reaches the reader through the stream; awaited below too.
  copied.catch(() => undefined);
  // Invalid bytes are refused (Utf8Error, in words) rather than read as U+FFFD.
  const decoder = new Utf8Chunks();
  for await (const chunk of bytes.readable as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk);
    // zip.js gives chunks of 256 KiB or more; the XML parser's events for one are gathered in one
    // array, so pieces this size keep those arrays short-lived (a 50,000-row sheet read in 0.9 s
    // instead of 1.5).
    for (let at = 0; at < text.length;) {
      let end = Math.min(at + TEXT_PIECE_CHARS, text.length);
      // Never between the two halves of a character outside the BMP (an emoji).
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      yield text.slice(at, end);
      at = end;
    }
  }
  decoder.end();
  await copied;
}

/** A sheet's path in the zip from its workbook relationship's target. */
function sheetPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

async function* xlsxRows(file: string): AsyncGenerator<ImportCell[]> {
  const zip = new ZipReader(new BlobReader(await openAsBlob(file)), { useWebWorkers: false });
  try {
    const entries = new Map<string, FileEntry>();
    for (const entry of await zip.getEntries()) {
      if (!entry.directory) entries.set(entry.filename.replace(/^\//, ''), entry);
    }
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      // Kept: a date is a number whose style says "date"; without styles it reads as 46086.
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookReaderSteps;
    const part = (name: string) => {
      const entry = entries.get(name);
      return entry ? Readable.from(entryText(entry)) : null;
    };
    const rels = part('xl/_rels/workbook.xml.rels');
    const workbook = part('xl/workbook.xml');
    if (!rels || !workbook) throw new Error('it is not a workbook (no xl/workbook.xml)');
    await reader._parseRels(rels);
    await reader._parseWorkbook(workbook);
    const strings = part('xl/sharedStrings.xml');
    if (strings) for await (const _ of reader._parseSharedStrings(strings)) void _;
    const styles = part('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);

    // The first sheet is the data (the export writes one; a spreadsheet's first tab); the rest
    // are not read.
    const first = reader.model?.sheets?.[0];
    const target = reader.workbookRels?.find((rel) => rel.Id === first?.rId)?.Target;
    const name = target === undefined ? undefined : sheetPath(target);
    const entry = name === undefined ? undefined : entries.get(name);
    if (!entry || !name) throw new Error('its first sheet is not in the file');
    const sheetNo = /sheet(\d+)\.xml$/.exec(name)?.[1] ?? '1';
    for (const { eventType, value } of reader._parseWorksheet(entryText(entry), sheetNo)) {
      if (eventType !== 'worksheet') continue;
      let next = 1;
      for await (const row of value as AsyncIterable<ExcelJS.Row>) {
        // Rows left out of the sheet's XML are empty rows: kept, so row numbers stay the sheet's.
        for (; next < row.number; next++) yield [];
        next = row.number + 1;
        const values = row.values as ExcelJS.CellValue[];
        const cells: ImportCell[] = [];
        for (let i = 1; i < values.length; i++) cells.push(sheetCell(values[i]));
        yield cells;
      }
    }
  } finally {
    await zip.close().catch(() => undefined);
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
