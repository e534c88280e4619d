/**
 * The export as XLSX through exceljs's streaming WorkbookWriter (rows committed as they come, no
 * styles, no shared strings: memory stays flat), to `<file>.part`, renamed when complete. Cells
 * are typed: text stays text (never a formula, whatever it starts with), raw numbers and yes/no
 * stay numbers and booleans.
 */
import ExcelJS from 'exceljs';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { CellValue } from '../../shared/recordValues/cellText';
import type { ExportFileWriter } from './exportFileWriter';

/**
 * Characters an XML 1.0 file cannot hold (controls but tab and line breaks, U+FFFE/U+FFFF,
 * unpaired surrogates): written as they are they make the whole workbook unreadable, so each
 * becomes U+FFFD. (A carriage return is kept, but XML reads it back as a line break.)
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A cell as the XML of a sheet can hold it. A sheet holds no negative zero either: -0 (which a
 * JSON number can be) is written as 0, as the table shows it, rather than left to exceljs's
 * number formatting (its reader gives 0 back; the writer's property test met a -0 and expected it).
 */
export function xmlCell(value: CellValue): CellValue {
  if (typeof value === 'string') return value.replace(NOT_XML, '\uFFFD');
  return Object.is(value, -0) ? 0 : value;
}

/** Excel's limit for a sheet name, and the characters it refuses in one. */
const SHEET_NAME_MAX = 31;

/** A name Excel accepts for the sheet: `[]:*?/\` replaced, at most 31 characters, never empty. */
export function sheetName(name: string): string {
  const cleaned = name
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/^'+|'+$/g, '')
    .trim();
  return [...cleaned].slice(0, SHEET_NAME_MAX).join('').trim() || 'Records';
}

/**
 * Ours: deflate level 1. The zip is most of an XLSX's cost; level 1 writes 2-3 times faster than
 * the default 6 for a file about a fifth larger.
 */
const ZIP_LEVEL = 1;
/** Ours: bytes the zip may hold ahead of the disk before the next batch waits. */
const AHEAD_BYTES = 8 * 1024 * 1024;

export class XlsxFileWriter implements ExportFileWriter {
  private readonly part: string;
  private readonly stream: WriteStream;
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private failure: Error | null = null;

  constructor(
    private readonly file: string,
    name: string,
  ) {
    this.part = `${file}.part`;
    this.stream = createWriteStream(this.part, { flags: 'wx' });
    this.stream.on('error', (error) => (this.failure ??= error));
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: this.stream,
      useStyles: false,
      useSharedStrings: false,
      zip: { zlib: { level: ZIP_LEVEL } },
    });
    // The zip pipes into the file: its failure is the export's, never an unhandled error.
    this.zip.on('error', (error: Error) => (this.failure ??= error));
    this.sheet = this.workbook.addWorksheet(sheetName(name));
  }

  /** exceljs's archiver (not in its typings): unpiped on abort, its errors caught. */
  private get zip(): NodeJS.ReadableStream {
    return (this.workbook as unknown as { zip: NodeJS.ReadableStream }).zip;
  }

  private async caughtUp(): Promise<void> {
    if (this.failure) throw this.failure;
    // Let the zip and the disk work: rows wait in exceljs's buffers until the loop turns.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.stream.writableLength > AHEAD_BYTES && !this.failure) {
      await Promise.race([once(this.stream, 'drain'), once(this.stream, 'error')]);
    }
    if (this.failure) throw this.failure;
  }

  header(labels: readonly string[]): Promise<void> {
    this.sheet.addRow(labels.map(xmlCell)).commit();
    return this.caughtUp();
  }

  rows(rows: readonly (readonly CellValue[])[]): Promise<void> {
    for (const row of rows) this.sheet.addRow(row.map(xmlCell)).commit();
    return this.caughtUp();
  }

  async finish(): Promise<void> {
    if (this.failure) throw this.failure;
    this.sheet.commit();
    await this.workbook.commit();
    if (this.failure) throw this.failure;
    if (!this.stream.closed) await once(this.stream, 'close');
    await rename(this.part, this.file);
  }

  async abort(): Promise<void> {
    this.zip.unpipe(this.stream);
    this.stream.destroy();
    await once(this.stream, 'close').catch(() => undefined);
    await rm(this.part, { force: true }).catch(() => undefined);
  }
}
