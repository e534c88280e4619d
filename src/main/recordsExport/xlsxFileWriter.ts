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
import type { Writable } from 'node:stream';
import type { EncodedBatch } from './exportEncoding';
import type { ExportFileWriter } from './exportFileWriter';
import { streamDrained } from './streamDrained';
import { xmlCell } from './xmlCell';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { xmlText } from '../../shared/recordValues/xmlText';

/** Excel's limit for a sheet name (UTF-16 units, as exceljs's reader cuts it), what it refuses. */
const SHEET_NAME_MAX = 31;
// eslint-disable-next-line no-control-regex
const NOT_IN_SHEET_NAME = /[[\]:*?/\\\u0000-\u001F\u007F]/g;
/** Excel keeps this name for a sheet of its own (change history); exceljs's reader refuses it. */
const RESERVED_SHEET_NAME = /^history$/i;

/**
 * A name Excel accepts for the sheet: `[]:*?/\` and control characters replaced, no apostrophe
 * first or last, at most 31 UTF-16 units (a character of two never cut in half: a lone surrogate
 * makes the workbook unreadable), never empty, never the reserved "History".
 */
export function sheetName(name: string): string {
  const cleaned = xmlText(name)
    .replace(NOT_IN_SHEET_NAME, ' ')
    .replace(/^[\s']+|[\s']+$/g, '');
  let cut = '';
  for (const character of cleaned) {
    if (cut.length + character.length > SHEET_NAME_MAX) break;
    cut += character;
  }
  const sheet = cut.replace(/[\s']+$/, '') || 'Records';
  return RESERVED_SHEET_NAME.test(sheet) ? `${sheet} records` : sheet;
}

/**
 * Ours: deflate level 1. The zip is most of an XLSX's cost; level 1 writes 2-3 times faster than
 * the default 6 for a file about a fifth larger.
 */
const ZIP_LEVEL = 1;
/** Ours: bytes the zip's input, or the file, may hold before the next batch waits. */
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

  /**
   * The zip's input for the sheet (exceljs's sheet buffer pipes into it; not in its typings).
   * exceljs writes the sheet's XML into it without waiting, so when deflating is slower than the
   * rows come (XLSX on helper threads) the XML piles up there: 400 MB of it at a million rows,
   * before this writer waited on it.
   */
  private get zipInput(): Writable | undefined {
    const sheet = this.sheet as unknown as { _stream?: { pipes?: Writable[] } };
    return sheet._stream?.pipes?.[0];
  }

  /** Bytes `stream` holds unwritten; archiver's streams (readable-stream 2) lack writableLength. */
  private static held(stream: Writable): number {
    const state = (stream as unknown as { _writableState?: { length?: number } })._writableState;
    return stream.writableLength ?? state?.length ?? 0;
  }

  private async caughtUp(): Promise<void> {
    if (this.failure) throw this.failure;
    // Let the zip and the disk work: rows wait in exceljs's buffers until the loop turns.
    await nextTurn();
    for (;;) {
      const input = this.zipInput;
      if (this.failure) break;
      if (input && XlsxFileWriter.held(input) > AHEAD_BYTES) await streamDrained(input);
      else if (this.stream.writableLength > AHEAD_BYTES) await streamDrained(this.stream);
      else break;
    }
    if (this.failure) throw this.failure;
  }

  header(labels: readonly string[]): Promise<void> {
    this.sheet.addRow(labels.map(xmlCell)).commit();
    return this.caughtUp();
  }

  rows(batch: EncodedBatch): Promise<void> {
    if (batch.format !== 'xlsx') throw new Error(`an XLSX file was given ${batch.format} rows`);
    // The cells are XML-safe already (exportEncoding.ts, xmlCell).
    for (const row of batch.cells) this.sheet.addRow(row).commit();
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
