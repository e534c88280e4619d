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
import { routerWriteCommitter } from './applyRouterWrites';
import { tuneRouterConnection } from './tuneRouterConnection';
import type { DrainedWrites } from './writeBatch';

export interface RouterWriterData {
  portaldeskRouterWriter: true;
  /** The router's database file (WAL mode, migrated by the engine's connection). */
  file: string;
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

function isWriterData(data: unknown): data is RouterWriterData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<RouterWriterData>).portaldeskRouterWriter === true
  );
}

if (!isMainThread && isWriterData(workerData)) {
  const data = workerData;
  // Only the headless command (plain Node) starts this thread: Node's own better-sqlite3 binary.
  const db = new Database(data.file, { fileMustExist: true });
  tuneRouterConnection(db, WRITER_BUSY_TIMEOUT_MS);
  const write = routerWriteCommitter(db);
  const done = new Int32Array(data.done);
  data.port.on('message', (request: RouterWriteRequest) => {
    let error: string | null = null;
    try {
      write(request.writes);
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
