/**
 * The export loop: the header, then the view a batch at a time (read and encoded by its
 * ExportBatches, written), yielding to the event loop between batches so requests (a cancel among
 * them) and pushed events go on. Memory holds a few batches, whatever the view's size. A cancel or
 * a failure deletes the partial file (the writer's abort) before it returns or throws.
 */
import type { ExportBatches } from './exportBatches';
import type { ExportFileWriter } from './exportFileWriter';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface ExportJobInput {
  batches: ExportBatches;
  labels: readonly string[];
  writer: ExportFileWriter;
  signal: AbortSignal;
  /** Data rows written so far, after each batch. */
  onRows(rows: number): void;
}

/** `cut`: XLSX text cells longer than a sheet's cell holds, written cut to fit. */
export type ExportJobEnd = { state: 'done' | 'cancelled'; rows: number; cut: number };

export async function runExportJob(input: ExportJobInput): Promise<ExportJobEnd> {
  const { batches, writer, signal } = input;
  let rows = 0;
  let cut = 0;
  try {
    await writer.header(input.labels);
    for (let index = 0; index * batches.batchRows < batches.total && !signal.aborted; index++) {
      const batch = await batches.batch(index);
      await writer.rows(batch);
      rows += batch.rows;
      if (batch.format === 'xlsx') cut += batch.cut;
      input.onRows(rows);
      await nextTurn();
    }
    if (signal.aborted) {
      await writer.abort();
      return { state: 'cancelled', rows, cut };
    }
    await writer.finish();
    return { state: 'done', rows, cut };
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await batches.close();
  }
}
