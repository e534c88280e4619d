/**
 * The connection an export's thread and each of its helper threads read the store through: the
 * store's settings, read-only, and a small page cache.
 */
import type Database from 'better-sqlite3';
import { openWorkerConnection, tuneConnection } from '../store/connectionSettings';

/** Reads wait this long for a writer's checkpoint at most; a read never needs the write lock. */
const READ_BUSY_TIMEOUT_MS = 5_000;

/** The export thread's page cache (KiB). */
export const EXPORT_PAGE_CACHE_KIB = 16_384;
/** Each helper thread's page cache (KiB). */
export const HELPER_PAGE_CACHE_KIB = 8_192;

export function openExportConnection(
  file: string,
  nativeBinding: string | undefined,
  pageCacheKiB: number,
): Database.Database {
  const db = openWorkerConnection(file, nativeBinding);
  try {
    tuneConnection(db, { busyTimeoutMs: READ_BUSY_TIMEOUT_MS });
    // An export only reads: the connection cannot change the store, whatever runs on it.
    db.pragma('query_only = ON');
    // It reads each row once: the writers' large page cache would only fill with them (the
    // bench's resident memory grew 765 MB with it at 200,000 rows). The OS caches the file anyway.
    db.pragma(`cache_size = -${pageCacheKiB}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
