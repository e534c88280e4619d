/**
 * The export as CSV, streamed to `<file>.part` and renamed when complete: UTF-8 with a byte order
 * mark (spreadsheet programs then read it as UTF-8), RFC 4180 fields and CRLF rows
 * (src/shared/csv/delimitedText.ts, laid out where the batch is encoded: exportEncoding.ts). A
 * batch is one write; the next waits while the disk is behind.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { headerLine } from '../../shared/csv/delimitedText';
import type { EncodedBatch } from './exportEncoding';
import type { ExportFileWriter } from './exportFileWriter';
import { streamDrained } from './streamDrained';

export class CsvFileWriter implements ExportFileWriter {
  private readonly part: string;
  private readonly stream: WriteStream;
  private failure: Error | null = null;

  constructor(private readonly file: string) {
    this.part = `${file}.part`;
    this.stream = createWriteStream(this.part, { flags: 'wx' });
    this.stream.on('error', (error) => (this.failure ??= error));
  }

  private async write(data: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(data)) await streamDrained(this.stream);
    if (this.failure) throw this.failure;
  }

  header(labels: readonly string[]): Promise<void> {
    return this.write(`\uFEFF${headerLine(labels)}`);
  }

  rows(batch: EncodedBatch): Promise<void> {
    if (batch.format !== 'csv') throw new Error(`a CSV file was given ${batch.format} rows`);
    return this.write(batch.bytes);
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
