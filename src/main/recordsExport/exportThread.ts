/**
 * Exports on a thread of their own (exportWorker.ts): the engine's thread hands the plan over and
 * hears the total, the rows written and the end, so opening a million-row view (its whole order,
 * seconds with an unindexed sort) and writing it never hold up `records.query` or any other
 * answer. One worker per export, with its helper threads (exportHelpers.ts); they end with it.
 */
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import type { ExportJobEnd } from './exportJob';
import { exportHelperCount } from './exportHelpers';
import type { ExportStarter } from './exportPlan';
import type { ExportThreadCancel, ExportThreadData, ExportThreadMessage } from './exportWorker';

export interface ExportThreadOptions {
  script: string | URL;
  /** The store's database file. */
  file: string;
  nativeBinding?: string | undefined;
  /** Helper threads per export (default: exportHelperCount of this machine's processors). */
  helpers?: number;
  /** Rows a batch holds (default EXPORT_BATCH_ROWS; tests make many small ones). */
  batchRows?: number;
}

export function threadExportStarter(options: ExportThreadOptions): ExportStarter {
  return (plan, onRows) =>
    new Promise((resolve, reject) => {
      const workerData: ExportThreadData = {
        portaldeskRecordsExport: true,
        file: options.file,
        ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
        plan,
        script: String(
          options.script instanceof URL ? fileURLToPath(options.script) : options.script,
        ),
        helpers: options.helpers ?? exportHelperCount(availableParallelism()),
        ...(options.batchRows ? { batchRows: options.batchRows } : {}),
      };
      const worker = new Worker(options.script, { workerData });
      let opened = false;
      let ended = false;
      let endDone!: (end: ExportJobEnd) => void;
      let failDone!: (error: Error) => void;
      const done = new Promise<ExportJobEnd>((res, rej) => {
        endDone = res;
        failDone = rej;
      });
      const fail = (error: Error) => {
        if (ended) return;
        ended = true;
        if (opened) failDone(error);
        else reject(error);
      };
      worker.on('message', (message: ExportThreadMessage) => {
        if (message.kind === 'opened') {
          opened = true;
          const cancel: ExportThreadCancel = { cancel: true };
          resolve({ total: message.total, done, cancel: () => worker.postMessage(cancel) });
        } else if (message.kind === 'rows') {
          onRows(message.rows);
        } else if (message.kind === 'end') {
          ended = true;
          endDone({ state: message.state, rows: message.rows, cut: message.cut });
        } else if (message.kind === 'refused') {
          fail(new RecordQueryError(message.message, message.problems));
        } else {
          fail(new Error(message.message));
        }
      });
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (ended) return;
        // Ended without a word (killed, out of memory): what it wrote is not an export.
        void rm(`${plan.file}.part`, { force: true }).catch(() => undefined);
        fail(new Error(`the export's thread stopped (exit code ${code})`));
      });
    });
}
