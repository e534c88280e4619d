/**
 * The export as CSV, streamed to `<file>.part` and renamed when complete: UTF-8 with a byte order
 * mark (spreadsheet programs then read it as UTF-8), RFC 4180 fields and CRLF rows
 * (src/shared/csv/delimitedText.ts). A batch is one write; the next waits while the disk is behind.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { delimitedLine, headerLine } from '../../shared/csv/delimitedText';
import type { CellValue } from '../../shared/recordValues/cellText';
import type { ExportFileWriter } from './exportFileWriter';

export class CsvFileWriter implements ExportFileWriter {
  private readonly part: string;
  private readonly stream: WriteStream;
  private failure: Error | null = null;

  constructor(private readonly file: string) {
    this.part = `${file}.part`;
    this.stream = createWriteStream(this.part, { flags: 'wx' });
    this.stream.on('error', (error) => (this.failure ??= error));
  }

  private async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(text, 'utf8')) {
      // Whichever comes first ends the wait and removes the other's listener: a raced `once` left
      // one 'error' listener behind per wait (11 of them warned of a leak within 100,000 rows).
      const settled = new AbortController();
      const { signal } = settled;
      await Promise.race([
        once(this.stream, 'drain', { signal }),
        once(this.stream, 'error', { signal }),
      ])
        .catch(() => undefined)
        .finally(() => settled.abort());
    }
    if (this.failure) throw this.failure;
  }

  header(labels: readonly string[]): Promise<void> {
    return this.write(`\uFEFF${headerLine(labels)}`);
  }

  rows(rows: readonly (readonly CellValue[])[]): Promise<void> {
    let text = '';
    for (const row of rows) text += delimitedLine(row);
    return this.write(text);
  }

  async finish(): Promise<void> {
    if (this.failure) throw this.failure;
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(resolve);
    });
    if (this.failure) throw this.failure;
    await rename(this.part, this.file);
  }

  async abort(): Promise<void> {
    this.stream.destroy();
    await once(this.stream, 'close').catch(() => undefined);
    await rm(this.part, { force: true }).catch(() => undefined);
  }
}
