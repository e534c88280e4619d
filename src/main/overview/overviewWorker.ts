/**
 * The overview's thread (a worker_threads Worker, see overviewThread.ts): its own read-only
 * connection to the store, on which it reads one portal's overview per message, so the counts
 * (about 200 ms at a million records right after a sync's commit, bench/README.md) never hold the
 * engine's thread, which answers the UI and, in the desktop app, is Electron's main process.
 *
 * Built by electron-vite as a file of its own (imported with `?modulePath`, see
 * overviewWorkerScript.ts). Imported any other way (vitest runs the sources) it does nothing: it
 * acts only in a worker started with its workerData.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyConnection } from '../store/connectionSettings';
import { MirrorOverviewReader, type MirrorOverview } from './mirrorOverview';

export interface OverviewWorkerData {
  portaldeskOverview: true;
  /** The store's database file (WAL mode). */
  file: string;
  /** better-sqlite3's binary for this runtime's ABI (the desktop app's Electron build). */
  nativeBinding?: string;
}

export interface OverviewRequest {
  id: number;
  portalId: string;
  /** Epoch ms the weeks end at (the engine's clock). */
  now: number;
}

export type OverviewReply =
  | { id: number; ok: true; value: MirrorOverview | null }
  | { id: number; ok: false; message: string };

/**
 * The thread's page cache (KiB). The charts walk index ranges (at a million records about 130 MB
 * of them: the created and updated orders, the status order): a cache that holds them answers in
 * 70 ms instead of 110 while no other connection commits. Pages are allocated as read, so a small
 * mirror's thread stays small.
 */
export const OVERVIEW_PAGE_CACHE_KIB = 131_072;

function isWorkerData(data: unknown): data is OverviewWorkerData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<OverviewWorkerData>).portaldeskOverview === true
  );
}

if (!isMainThread && parentPort && isWorkerData(workerData)) {
  const port = parentPort;
  // Opened at once: a store this thread cannot open (its binary, the file) ends the thread with
  // the error, and the engine reads on its own connection (overviewThread.ts).
  const db = openReadOnlyConnection(
    workerData.file,
    workerData.nativeBinding,
    OVERVIEW_PAGE_CACHE_KIB,
  );
  const reader = new MirrorOverviewReader(db);
  port.on('message', (request: OverviewRequest) => {
    let reply: OverviewReply;
    try {
      reply = { id: request.id, ok: true, value: reader.read(request.portalId, request.now) };
    } catch (error) {
      reply = {
        id: request.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(reply);
  });
  port.once('close', () => db.close());
}
