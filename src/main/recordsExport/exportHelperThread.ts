/**
 * An export's helper thread (started by exportHelpers.ts from the export thread's own script,
 * exportWorker.ts): its own read-only connection to the store's file, the view's row keys, and
 * one job: read the batch it is asked for and encode it for the file (exportEncoding.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { openReadOnlyConnection } from '../store/connectionSettings';
import { EXPORT_MAP_BYTES, HELPER_PAGE_CACHE_KIB } from './exportConnection';
import { Mirror } from '../store/mirror/mirror';
import type { RecordViewRows } from '../store/mirror/recordQuery';
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
  batchRows: number;
}

/**
 * The view's row keys in its order, as its export thread opened it: the helper's first message
 * (it starts while the view is being opened, exportHelpers.ts), before any batch is asked.
 */
export interface ExportHelperKeys {
  keys: Float64Array;
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
  const fail = (error: unknown) =>
    post({ failed: error instanceof Error ? error.message : String(error) });
  const columns = data.layout.columns.map((column) => column.key);
  let mirror: Mirror;
  try {
    const db = openReadOnlyConnection(
      data.file,
      data.nativeBinding,
      HELPER_PAGE_CACHE_KIB,
      EXPORT_MAP_BYTES,
    );
    mirror = new Mirror(db);
    // The module's context (fields, statuses) read now, while the view is being opened.
    mirror.query.rowsOfKeys(data.view, [], columns);
  } catch (error) {
    fail(error);
    return;
  }
  let view: RecordViewRows | null = null;
  port.on('message', (message: { batch?: unknown; keys?: unknown }) => {
    try {
      if (message?.keys instanceof Float64Array) {
        view = mirror.query.rowsOfKeys(data.view, Array.from(message.keys), columns);
        return;
      }
      const batch = message?.batch;
      if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 0) return;
      if (!view) throw new Error('the export asked a batch before giving its rows');
      const encoded = encodeRecords(data.layout, view.read(batch * data.batchRows, data.batchRows));
      const answer: ExportHelperMessage = { batch, encoded };
      port.postMessage(answer, batchTransfer(encoded));
    } catch (error) {
      fail(error);
    }
  });
}
