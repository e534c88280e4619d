/**
 * An export's helper thread (started by exportHelpers.ts from the export thread's own script,
 * exportWorker.ts): its own read-only connection to the store's file, the view's row keys, and
 * one job: read the batch it is asked for and encode it for the file (exportEncoding.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { openReadOnlyConnection } from '../store/connectionSettings';
import { EXPORT_MAP_BYTES, HELPER_PAGE_CACHE_KIB } from './exportConnection';
import { Mirror } from '../store/mirror/mirror';
import {
  batchTransfer,
  encodeRecords,
  type BatchLayout,
  type EncodedBatch,
} from './exportEncoding';

export interface ExportHelperData {
  portaldeskExportHelper: true;
  file: string;
  nativeBinding?: string;
  view: { portalId: string; moduleId: string };
  layout: BatchLayout;
  /** The view's row keys in its order, as its export thread opened it. */
  keys: Float64Array;
  batchRows: number;
}

/** What a helper answers: a batch it was asked for, or why it cannot make any. */
export type ExportHelperMessage = { batch: number; encoded: EncodedBatch } | { failed: string };

export function isExportHelperData(data: unknown): data is ExportHelperData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<ExportHelperData>).portaldeskExportHelper === true
  );
}

export function runExportHelper(data: ExportHelperData, port: MessagePort): void {
  const post = (message: ExportHelperMessage) => port.postMessage(message);
  let rows;
  try {
    const db = openReadOnlyConnection(
      data.file,
      data.nativeBinding,
      HELPER_PAGE_CACHE_KIB,
      EXPORT_MAP_BYTES,
    );
    rows = new Mirror(db).query.rowsOfKeys(
      data.view,
      Array.from(data.keys),
      data.layout.columns.map((column) => column.key),
    );
  } catch (error) {
    post({ failed: error instanceof Error ? error.message : String(error) });
    return;
  }
  const view = rows;
  port.on('message', (message: { batch?: unknown }) => {
    const batch = message?.batch;
    if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 0) return;
    try {
      const encoded = encodeRecords(data.layout, view.read(batch * data.batchRows, data.batchRows));
      const message: ExportHelperMessage = { batch, encoded };
      port.postMessage(message, batchTransfer(encoded));
    } catch (error) {
      post({ failed: error instanceof Error ? error.message : String(error) });
    }
  });
}
