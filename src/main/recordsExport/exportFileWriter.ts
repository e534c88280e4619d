/**
 * What the export loop writes through, whatever the format: the header, batches of rows, then the
 * end (the file complete under its name) or an abort (the partial file deleted).
 */
import type { CellValue } from '../../shared/recordValues/cellText';

export interface ExportFileWriter {
  header(labels: readonly string[]): Promise<void>;
  /** Resolves when the file can take more (the disk keeps up). */
  rows(rows: readonly (readonly CellValue[])[]): Promise<void>;
  /** Finishes the file and moves it to its name. */
  finish(): Promise<void>;
  /** Stops writing and deletes what was written; never throws. */
  abort(): Promise<void>;
}
