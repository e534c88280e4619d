/**
 * The custom-field index worker (a worker_threads Worker, see customFieldIndexer.ts): its own
 * connection to the store's database, on which it runs one CustomFieldIndexJob per message, so
 * the seconds an index takes to build are never spent on the engine's thread.
 *
 * Built by electron-vite as a file of its own (imported with `?modulePath`, see
 * customFieldIndexWorkerScript.ts). Imported any other way (vitest runs the sources) it does
 * nothing: it acts only in a worker started with its workerData.
 */
import type Database from 'better-sqlite3';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openWorkerConnection } from '../connectionSettings';
import { registerSqlFunctions } from '../sqlFunctions';
import { runCustomFieldIndexJob, type CustomFieldIndexJob } from './customFieldIndexJob';

export interface CustomFieldIndexWorkerData {
  portaldeskCustomFieldIndexWorker: true;
  /** The store's database file (WAL mode). */
  file: string;
  /** better-sqlite3's binary for this runtime's ABI (the desktop app's Electron build). */
  nativeBinding?: string;
}

export interface CustomFieldIndexRequest {
  id: number;
  job: CustomFieldIndexJob;
}

export type CustomFieldIndexReply =
  | { id: number; ok: true; created: string | null; dropped: string[]; lockedMs: number }
  | { id: number; ok: false; message: string };

/**
 * How long the worker waits for the engine's writes to let go of the write lock. The engine's
 * transactions are short (a page of records); this only has to outlast a burst of them.
 */
const WORKER_BUSY_TIMEOUT_MS = 60_000;
/** Page cache of the worker's connection (KiB): the index build's sort runs in it. */
const WORKER_CACHE_KIB = 65_536;
/**
 * Helper threads SQLite's sorter may use while building: at a million records the build held the
 * write lock 4.8 s instead of 6.3 s on the loaded 2-core build machine (same CPU time).
 */
const SORTER_THREADS = 2;

function isWorkerData(data: unknown): data is CustomFieldIndexWorkerData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<CustomFieldIndexWorkerData>).portaldeskCustomFieldIndexWorker === true
  );
}

function open(data: CustomFieldIndexWorkerData): Database.Database {
  const db = openWorkerConnection(data.file, data.nativeBinding);
  db.pragma(`busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${WORKER_CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
  db.pragma(`threads = ${SORTER_THREADS}`);
  // The indexes call the filter language's fold, as the engine's connection does.
  registerSqlFunctions(db);
  return db;
}

if (!isMainThread && parentPort && isWorkerData(workerData)) {
  const port = parentPort;
  const data = workerData;
  let db: Database.Database | undefined;
  port.on('message', (request: CustomFieldIndexRequest) => {
    let reply: CustomFieldIndexReply;
    try {
      db ??= open(data);
      reply = { id: request.id, ok: true, ...runCustomFieldIndexJob(db, request.job) };
    } catch (error) {
      reply = {
        id: request.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(reply);
  });
  port.once('close', () => db?.close());
}
