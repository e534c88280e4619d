/**
 * What the export loop writes through, whatever the format: the header, batches of rows, then the
 * end (the file complete under its name) or an abort (the partial file deleted).
 */
import type { EncodedBatch } from './exportEncoding';

export interface ExportFileWriter {
  header(labels: readonly string[]): Promise<void>;
  /** A batch encoded for this format (exportEncoding.ts); resolves when the file can take more. */
  rows(batch: EncodedBatch): Promise<void>;
  /** Finishes the file and moves it to its name. */
  finish(): Promise<void>;
  /** Stops writing and deletes what was written; never throws. */
  abort(): Promise<void>;
}
