/**
 * The router's writer thread (a worker_threads Worker, see routerWriterThread.ts): its own
 * connection to the router's database, on which it writes each group commit it is sent, so the
 * SQLite work of the delivery path (about a third of the engine thread's CPU in bench:router) runs
 * beside the engine instead of on it.
 *
 * Built by electron-vite as a file of its own (imported with `?modulePath`, see
 * routerWriterScript.ts). Imported any other way (vitest runs the sources) it does nothing: it acts
 * only in a worker started with its workerData.
 */
import Database from 'better-sqlite3';
import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { applyRouterWrites, prepareRouterWrites } from './applyRouterWrites';
import type { DrainedWrites } from './writeBatch';

export interface RouterWriterData {
  portaldeskRouterWriter: true;
  /** The router's database file (WAL mode, migrated by the engine's connection). */
  file: string;
  /** better-sqlite3's binary for this runtime's ABI (the desktop app's Electron build). */
  nativeBinding?: string;
  /** Commits and their answers; replies go back on it in order. */
  port: MessagePort;
  /** Int32 [0]: the last commit done, so the engine thread can wait for it synchronously. */
  done: SharedArrayBuffer;
}

export interface RouterWriteRequest {
  seq: number;
  writes: DrainedWrites;
}

export interface RouterWriteReply {
  seq: number;
  error: string | null;
}

/**
 * How long a commit waits for the engine's connection to let go of the write lock (a config change
 * it writes itself): far longer than any such write takes.
 */
const WRITER_BUSY_TIMEOUT_MS = 60_000;
/** As the engine's connection (openRouterDatabase.ts): delivery rows touch index pages all over. */
const WRITER_CACHE_KIB = 65_536;

function isWriterData(data: unknown): data is RouterWriterData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<RouterWriterData>).portaldeskRouterWriter === true
  );
}

if (!isMainThread && isWriterData(workerData)) {
  const data = workerData;
  const db = new Database(
    data.file,
    data.nativeBinding
      ? { nativeBinding: data.nativeBinding, fileMustExist: true }
      : { fileMustExist: true },
  );
  db.pragma(`busy_timeout = ${WRITER_BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
  const statements = prepareRouterWrites(db);
  const write = db.transaction((writes: DrainedWrites) => applyRouterWrites(statements, writes));
  const done = new Int32Array(data.done);
  data.port.on('message', (request: RouterWriteRequest) => {
    let error: string | null = null;
    try {
      // IMMEDIATE: take the write lock first, so a commit never fails half-way on a busy snapshot.
      write.immediate(request.writes);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    // The reply first: once the counter moves, a waiting engine thread finds it on the port.
    data.port.postMessage({ seq: request.seq, error } satisfies RouterWriteReply);
    Atomics.store(done, 0, request.seq);
    Atomics.notify(done, 0);
  });
  data.port.once('close', () => db.close());
}
