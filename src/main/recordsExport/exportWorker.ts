/**
 * The records export's thread (a worker_threads Worker, see exportThread.ts): its own read-only
 * connection to the store's file, on which it opens the view (the whole list's order: seconds at
 * a million rows with an unindexed sort), reads the rows, lays out the cells and writes the file.
 * The engine's thread meanwhile answers the UI; it hears the total, the rows written and the end.
 * Started with ExportHelperData instead, the same script is one of an export's helper threads
 * (exportHelperThread.ts), which read and encode the batches this thread writes.
 *
 * Built by electron-vite as a file of its own (imported with `?modulePath`, see
 * exportWorkerScript.ts). Imported any other way (vitest runs the sources) it does nothing: it
 * acts only in a worker started with its workerData.
 */
import type Database from 'better-sqlite3';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Mirror } from '../store/mirror/mirror';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { openReadOnlyConnection } from '../store/connectionSettings';
import { EXPORT_MAP_BYTES, EXPORT_PAGE_CACHE_KIB } from './exportConnection';
import { isExportHelperData, runExportHelper } from './exportHelperThread';
import { startExportHelpers } from './exportHelpers';
import type { ExportJobEnd } from './exportJob';
import { batchLayout, type ExportPlan } from './exportPlan';
import { inlineExportStarter } from './inlineExport';

export interface ExportThreadData {
  portaldeskRecordsExport: true;
  /** The store's database file (WAL mode). */
  file: string;
  /** better-sqlite3's binary for this runtime's ABI (the desktop app's Electron build). */
  nativeBinding?: string;
  plan: ExportPlan;
  /** This thread's own script, for its helper threads (exportHelpers.ts). */
  script: string;
  /** Helper threads to read and encode the batches; 0: this thread does it all. */
  helpers: number;
  batchRows?: number;
}

/** The thread's messages, in this order: opened (or refused/failed), rows..., end (or failed). */
export type ExportThreadMessage =
  | { kind: 'opened'; total: number }
  | { kind: 'rows'; rows: number }
  | ({ kind: 'end' } & ExportJobEnd)
  | { kind: 'refused'; message: string; problems: string[] }
  | { kind: 'failed'; message: string };

/** The engine's thread asks this (only) of a running export. */
export interface ExportThreadCancel {
  cancel: true;
}

function isExportData(data: unknown): data is ExportThreadData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<ExportThreadData>).portaldeskRecordsExport === true
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function runThread(data: ExportThreadData): Promise<void> {
  const port = parentPort!;
  const post = (message: ExportThreadMessage) => port.postMessage(message);
  // The helpers start first: their start overlaps the view's opening (exportHelpers.ts).
  const helpers =
    data.helpers > 0
      ? startExportHelpers(
          {
            script: data.script,
            file: data.file,
            nativeBinding: data.nativeBinding,
            helpers: data.helpers,
            ...(data.batchRows ? { batchRows: data.batchRows } : {}),
          },
          data.plan.view,
          batchLayout(data.plan),
        )
      : null;
  let db: Database.Database | null = null;
  try {
    let started;
    try {
      db = openReadOnlyConnection(
        data.file,
        data.nativeBinding,
        EXPORT_PAGE_CACHE_KIB,
        EXPORT_MAP_BYTES,
      );
      started = await inlineExportStarter(
        new Mirror(db),
        helpers ? (view) => helpers.batchesOf(view) : undefined,
      )(data.plan, (rows) => post({ kind: 'rows', rows }));
    } catch (error) {
      await helpers?.close();
      post(
        error instanceof RecordQueryError
          ? { kind: 'refused', message: error.message, problems: [...error.problems] }
          : { kind: 'failed', message: messageOf(error) },
      );
      return;
    }
    const { cancel } = started;
    port.on('message', (message: Partial<ExportThreadCancel>) => {
      if (message?.cancel === true) cancel();
    });
    post({ kind: 'opened', total: started.total });
    try {
      post({ kind: 'end', ...(await started.done) });
    } catch (error) {
      post({ kind: 'failed', message: messageOf(error) });
    }
  } finally {
    db?.close();
    port.close();
  }
}

if (!isMainThread && isExportData(workerData)) void runThread(workerData);
else if (!isMainThread && isExportHelperData(workerData)) runExportHelper(workerData, parentPort!);
