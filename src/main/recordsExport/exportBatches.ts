/**
 * Where the export loop (exportJob.ts) gets its batches, in the view's order: read and encoded
 * right here (`viewBatches`: the engine's thread under vitest, or an export thread without
 * helpers), or by helper threads each reading its share of the view on a connection of its own
 * (exportHelpers.ts).
 */
import type { RecordViewRows } from '../store/mirror/recordQuery';
import { encodeRecords, type BatchLayout, type EncodedBatch } from './exportEncoding';

/** Rows read and encoded at once: one list window's worth (MAX_WINDOW_ROWS). */
export const EXPORT_BATCH_ROWS = 1000;

export interface ExportBatches {
  /** Rows in the view when it was opened. */
  readonly total: number;
  /** Rows a batch holds (the last fewer; any fewer where records were deleted meanwhile). */
  readonly batchRows: number;
  /** Batch `index` (rows index × batchRows onwards). Asked in order, each once. */
  batch(index: number): Promise<EncodedBatch>;
  /** Ends what runs for it (helper threads); safe to call more than once. */
  close(): Promise<void>;
}

/** Batches read from `view` and encoded on this thread. */
export function viewBatches(
  view: RecordViewRows,
  layout: BatchLayout,
  batchRows = EXPORT_BATCH_ROWS,
): ExportBatches {
  return {
    total: view.total,
    batchRows,
    batch: (index) =>
      Promise.resolve(encodeRecords(layout, view.read(index * batchRows, batchRows))),
    close: () => Promise.resolve(),
  };
}
