/**
 * The rows of an XLSX's first sheet, read streamed, each cell as sheetCellValue.ts reads it
 * (README.md). Memory holds a piece of the sheet's XML and a row, plus the workbook's shared
 * strings (a spreadsheet program writes every text there; the export writes none).
 */
import { BlobReader, ZipReader, type FileEntry } from '@zip.js/zip.js';
import { openAsBlob } from 'node:fs';
import type { ImportCell } from '../../../shared/recordValues/parseCell';
import { Utf8Chunks } from '../../utf8Chunks';
import { readCellFormats } from './cellFormats';
import { MergedCells, readMergedRanges } from './mergedCells';
import { NO_SHARED_STRINGS, readSharedStrings } from './sharedStrings';
import { sheetCellValue, type SheetContext } from './sheetCellValue';
import { IMPORT_ROW_MAX_CHARS } from '../../../shared/ipc/areas/recordsImport';
import { rowTooLong, sheetXmlRows } from './sheetXmlRows';
import { readRelationships, readWorkbook, workbookPartPath } from './workbookSheets';

/*
 * Why the parts are read here, each by a reader of our own on saxes, and not by exceljs's
 * streaming WorkbookReader:
 * - its `parse` reads the zip in one streaming pass (unzipper's Parse) and takes the parts in the
 *   order they are stored. exceljs's own writer stores `xl/workbook.xml` last, and under load the
 *   pass intermittently ends without giving the last part (exceljs issue #3064; seen here as an
 *   import failing at its first row with "Cannot read properties of undefined (reading
 *   'sheets')"). A part lost that way could as well be the styles (dates read as numbers) or the
 *   shared strings.
 * - It decodes each chunk of XML as UTF-8 alone, so a character cut by a chunk's end became
 *   U+FFFD: "Müller" imported as "M��ller" when the "ü" fell on a boundary.
 * - Its shared strings and sheet readers start a text again at every `<t>` (a phonetic reading
 *   replaced "東京", an inline rich text kept its last run), and its sheet reader drops what says
 *   what a cell holds (an error result of a formula, a formula's missing result, the number
 *   format of a formula's result).
 * So the parts are found through the zip's central directory (zip.js, as the backups read theirs),
 * read in the order they are needed (relationships, workbook, shared strings, styles, then the
 * first sheet: workbookSheets.ts, sharedStrings.ts, cellFormats.ts, sheetXmlRows.ts), and handed
 * over as text decoded as a stream.
 */

/** Characters handed to the XML parser at once. */
const TEXT_PIECE_CHARS = 16 * 1024;

/**
 * Ours: the most characters a part other than the sheet may unpack to. The upload's limit is on
 * the zipped bytes, and the shared strings are held in memory while the sheet is read: a small
 * zip could unpack to gigabytes of them. A 50,000-row sheet of distinct texts holds about 20
 * million characters. The sheet itself is read a row at a time: its bound is for time (below).
 */
export const XLSX_PART_MAX_CHARS = 64 * 1024 * 1024;

/**
 * Ours: the most characters the sheet may unpack to. Read a row at a time it needs no bound for
 * memory, but it does for time: a 110 KB zip unpacked to 81 MB of rows and padding, read in
 * 2.5 s, so a file within the upload's 100 MiB could hold an hour of reading, each pass (open,
 * check, queue). A sheet of 1,048,576 rows of 20 cells is about 1 GB of XML; 50,000 such rows
 * about 50 MB.
 */
export const XLSX_SHEET_MAX_CHARS = 1024 * 1024 * 1024;

/**
 * An entry's bytes as text, decoded as one stream (a character may span two chunks): Utf8Chunks.
 * Refused past `maxChars` characters.
 */
async function* entryText(entry: FileEntry, maxChars = Infinity): AsyncGenerator<string> {
  const bytes = new TransformStream<Uint8Array, Uint8Array>();
  const copied = entry.getData(bytes.writable);
  // Its failure (a damaged entry) reaches the reader through the stream; awaited below too.
  copied.catch(() => undefined);
  // Invalid bytes are refused (Utf8Error, in words) rather than read as U+FFFD.
  const decoder = new Utf8Chunks();
  let read = 0;
  for await (const chunk of bytes.readable as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk);
    read += text.length;
    if (read > maxChars) {
      throw new Error(
        `its part ${entry.filename} unpacks to more than ${maxChars.toLocaleString('en-US')} characters, more than a workbook of this size holds`,
      );
    }
    // zip.js gives chunks of 256 KiB or more; the rows a piece completes are gathered before they
    // are handed on, so pieces this size keep that array short-lived (with exceljs's sheet reader,
    // a 50,000-row sheet was read in 0.9 s instead of 1.5).
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

/** `sheetMaxChars`: XLSX_SHEET_MAX_CHARS (tests make it small). */
export async function* xlsxRows(
  file: string,
  sheetMaxChars = XLSX_SHEET_MAX_CHARS,
): AsyncGenerator<ImportCell[]> {
  const zip = new ZipReader(new BlobReader(await openAsBlob(file)), { useWebWorkers: false });
  try {
    const entries = new Map<string, FileEntry>();
    for (const entry of await zip.getEntries()) {
      if (!entry.directory) entries.set(entry.filename.replace(/^\//, ''), entry);
    }
    const text = (name: string) => {
      const entry = entries.get(name);
      return entry ? entryText(entry, XLSX_PART_MAX_CHARS) : null;
    };
    const rels = text('xl/_rels/workbook.xml.rels');
    const workbookText = text('xl/workbook.xml');
    if (!rels || !workbookText) throw new Error('it is not a workbook (no xl/workbook.xml)');
    const targets = await readRelationships(rels);
    const workbook = await readWorkbook(workbookText);
    const strings = text('xl/sharedStrings.xml');
    const styles = text('xl/styles.xml');
    const sheet: SheetContext = {
      sharedStrings: strings ? await readSharedStrings(strings) : NO_SHARED_STRINGS,
      // Kept: a date is a number whose format says "date"; without them it reads as 46086.
      formats: styles ? await readCellFormats(styles) : [],
      date1904: workbook.date1904,
    };

    // The first sheet is the data (the export writes one; a spreadsheet's first visible tab); the rest
    // are not read.
    const first = workbook.sheets[0];
    const target = first === undefined ? undefined : targets.get(first);
    const name = target === undefined ? undefined : workbookPartPath(target);
    const entry = name === undefined ? undefined : entries.get(name);
    if (!entry || !name) throw new Error('its first sheet is not in the file');
    // Read first: the sheet lists its merges after its rows.
    const merged = new MergedCells(await readMergedRanges(entryText(entry, sheetMaxChars)));
    let next = 1;
    for await (const row of sheetXmlRows(entryText(entry, sheetMaxChars))) {
      // Rows left out of the sheet's XML are empty rows (but for what a merge shows over them):
      // kept, so row numbers stay the sheet's.
      for (; next < row.number; next++) yield merged.apply(next, []);
      next = row.number + 1;
      const cells: ImportCell[] = [];
      // The row's text as the import reads it: a shared text counts at every cell naming it (one
      // long text named by thousands of cells is parsed thousands of times).
      let chars = 0;
      for (const cell of row.cells) {
        const value = sheetCellValue(cell, sheet);
        // A cell with a format but no value is empty; it does not widen the row.
        if (value === null) continue;
        if (typeof value === 'string') chars += value.length;
        if (chars > IMPORT_ROW_MAX_CHARS) throw new Error(rowTooLong(row.number));
        while (cells.length < cell.column - 1) cells.push(null);
        cells[cell.column - 1] = value;
      }
      yield merged.apply(row.number, cells);
    }
  } finally {
    await zip.close().catch(() => undefined);
  }
}
