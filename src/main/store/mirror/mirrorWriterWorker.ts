/**
 * The mirror's writer thread (a worker_threads Worker, see mirrorWriterThread.ts): its own
 * connection to the store's file, on which it runs a sync's writes (MIRROR_WRITES: the pages it
 * pulls, each with its cursor in one transaction, the portals' settings, comments) with the same
 * repositories as the engine's connection, and indexes the records' text in bounded steps between
 * them. The engine's thread, which answers the UI, then only hands what it read over.
 *
 * Built by electron-vite as a file of its own (imported with `?modulePath`, see
 * mirrorWriterScript.ts). Imported any other way (vitest runs the sources) it does nothing: it
 * acts only in a worker started with its workerData.
 */
import type Database from 'better-sqlite3';
import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { immediateTransactions, openWorkerConnection, tuneConnection } from '../connectionSettings';
import { FULL_TEXT_BATCH_ROWS } from './fullTextIndex';
import { Mirror } from './mirror';
import { runMirrorWrite, takeNextWrite, writeTargetsOf, type WriteTarget } from './mirrorWriter';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface MirrorWriterData {
  portaldeskMirrorWriter: true;
  /** The store's database file (WAL mode, migrated by the engine's connection). */
  file: string;
  /** better-sqlite3's binary for this runtime's ABI (the desktop app's Electron build). */
  nativeBinding?: string;
  /** Requests in, replies out. */
  port: MessagePort;
  /** Int32 [0]: replies sent so far, so the engine's thread can wait for them synchronously. */
  done: SharedArrayBuffer;
}

export interface MirrorWriteRequest {
  id: number;
  target: WriteTarget;
  method: string;
  args: unknown[];
  /**
   * The engine's clock when it asked (ms since the epoch): the times the write stores (a cursor's
   * `updated_at`, a comment pull's time) are the engine's, a test's injected clock included.
   */
  at: number;
}

export type MirrorWriteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; name: string; message: string; code: string | null };

/**
 * How long a page waits for the engine's connection to let go of the write lock (an edit, a
 * comment, a budget): far longer than any of those takes.
 */
const WRITER_BUSY_TIMEOUT_MS = 60_000;
/**
 * New records indexed per full-text step, each step its own transaction (FullTextIndex.flushStep).
 * A whole batch (FULL_TEXT_BATCH_ROWS) held the write lock 0.2 to 0.5 s; a step of this many
 * holds it a tenth of that, and pages are stored between steps.
 */
export const FULL_TEXT_STEP_ROWS = 1_000;

function isWriterData(data: unknown): data is MirrorWriterData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<MirrorWriterData>).portaldeskMirrorWriter === true
  );
}

function open(data: MirrorWriterData): Database.Database {
  const db = openWorkerConnection(data.file, data.nativeBinding);
  tuneConnection(db, { busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS });
  // As on the engine's connection: a settings write reads the stored rows, then writes.
  immediateTransactions(db);
  return db;
}

if (!isMainThread && isWriterData(workerData)) {
  const data = workerData;
  const db = open(data);
  // The time of the request being run (MirrorWriteRequest.at).
  let requestedAt = Date.now();
  // Writers leave full-text indexing to the steps below (FullTextIndexOptions.writersFlush).
  const mirror = new Mirror(db, { fullTextWritersFlush: false, now: () => requestedAt });
  // Record pages are read here too (sync/recordPages.ts): their records never reach the engine.
  const targets = writeTargetsOf(mirror);
  const done = new Int32Array(data.done);
  let replies = 0;
  let stepping = false;
  // Requests wait here and run one a turn, record pages' readings first (takeNextWrite), so the
  // messages that arrived meanwhile are seen before the next one is picked.
  const queue: MirrorWriteRequest[] = [];

  const reply = (message: MirrorWriteReply) => {
    // The reply first: once the counter moves, a waiting engine thread finds it on the port.
    data.port.postMessage(message);
    Atomics.store(done, 0, ++replies);
    Atomics.notify(done, 0);
  };
  const failed = (id: number, error: unknown): MirrorWriteReply => ({
    id,
    ok: false,
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    code:
      typeof (error as { code?: unknown } | null)?.code === 'string'
        ? (error as { code: string }).code
        : null,
  });

  /** Full-text steps, one a turn, while a batch's worth waits (pages are stored in between). */
  const stepWhileDue = async () => {
    if (stepping) return;
    stepping = true;
    try {
      while (mirror.fullText.pendingRows() >= FULL_TEXT_BATCH_ROWS) {
        mirror.fullText.flushStep(FULL_TEXT_STEP_ROWS);
        await nextTurn();
      }
    } finally {
      stepping = false;
    }
  };

  /** Everything waiting, in steps (a pull's end). */
  const flushAll = async () => {
    while (mirror.fullText.flushStep(FULL_TEXT_STEP_ROWS)) await nextTurn();
  };

  const run = (request: MirrorWriteRequest) => {
    if (request.target === 'fullText' && request.method === 'flush') {
      flushAll().then(
        () => reply({ id: request.id, ok: true, value: undefined }),
        (error: unknown) => reply(failed(request.id, error)),
      );
      return;
    }
    let message: MirrorWriteReply;
    requestedAt = request.at;
    try {
      const value = runMirrorWrite(targets, request.target, request.method, request.args);
      message = { id: request.id, ok: true, value };
    } catch (error) {
      message = failed(request.id, error);
    }
    reply(message);
    // After writes that store records (a reading stores nothing: no look at the backlog then).
    if (request.target === 'records' || (request.target === 'pages' && request.method !== 'read')) {
      void stepWhileDue().catch(() => {
        // A failed step leaves its rows waiting: the next step or the pull's flush takes them.
      });
    }
  };

  let draining = false;
  const drain = () => {
    const request = takeNextWrite(queue);
    if (request) run(request);
    draining = queue.length > 0;
    if (draining) setImmediate(drain);
  };
  data.port.on('message', (request: MirrorWriteRequest) => {
    queue.push(request);
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  });
  data.port.once('close', () => db.close());
}
