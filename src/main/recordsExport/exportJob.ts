/**
 * The export loop: the header, then the view a batch at a time (its rows read by key, laid out
 * as cells, written), yielding to the event loop between batches so requests (a cancel among
 * them) and pushed events go on. Memory holds one batch, whatever the view's size. A cancel or a
 * failure deletes the partial file (the writer's abort) before it returns or throws.
 */
import type { RecordsField } from '../../shared/ipc/areas/records';
import { rowCells, type CellOptions } from '../../shared/recordValues/cellText';
import type { RecordViewRows } from '../store/mirror/recordQuery';
import type { ExportFileWriter } from './exportFileWriter';

/** Rows read and written at once: one list window's worth (MAX_WINDOW_ROWS). */
export const EXPORT_BATCH_ROWS = 1000;

export interface ExportJobInput {
  view: RecordViewRows;
  columns: readonly Pick<RecordsField, 'key' | 'label' | 'type'>[];
  cells: CellOptions;
  writer: ExportFileWriter;
  signal: AbortSignal;
  /** Data rows written so far, after each batch. */
  onRows(rows: number): void;
  batchRows?: number;
}

export type ExportJobEnd = { state: 'done' | 'cancelled'; rows: number };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runExportJob(input: ExportJobInput): Promise<ExportJobEnd> {
  const { view, columns, cells, writer, signal } = input;
  const batch = input.batchRows ?? EXPORT_BATCH_ROWS;
  let rows = 0;
  try {
    await writer.header(columns.map((column) => column.label));
    for (let from = 0; from < view.total && !signal.aborted; from += batch) {
      const records = view.read(from, batch);
      await writer.rows(records.map((record) => rowCells(columns, record, cells)));
      rows += records.length;
      input.onRows(rows);
      await nextTurn();
    }
    if (signal.aborted) {
      await writer.abort();
      return { state: 'cancelled', rows };
    }
    await writer.finish();
    return { state: 'done', rows };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
