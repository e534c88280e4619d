import Database from 'better-sqlite3';

/**
 * Page cache (KiB; SQLite's default is 2 MB). A million mirrored records hold ~300 MB of list
 * indexes, whose random inserts missed the default cache on every row and spilled dirty pages
 * mid-transaction (bench/store.mjs). Pages are allocated as used, so a small mirror stays small.
 */
export const PAGE_CACHE_KIB = 262_144;
/**
 * WAL pages written before SQLite checkpoints on commit (default 1,000, ~4 MB). Every checkpoint
 * fsyncs the WAL and the database file; a page of 200 records writes ~500 index pages, so the
 * default checkpointed every two pages and its fsyncs took more time than the inserts
 * (bench/store.mjs: wall time was twice the CPU time; now about 1.3 times).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 16_384;
/** Bytes the WAL is cut back to after a checkpoint: a bulk pull leaves no large file behind. */
export const WAL_SIZE_LIMIT_BYTES = 67_108_864;

/**
 * How long the engine's connection waits for another connection's write lock (the mirror's
 * writer thread holds it for one page's transaction, tens of milliseconds).
 */
export const ENGINE_BUSY_TIMEOUT_MS = 5_000;

/**
 * The settings every connection to the store's file takes (the engine's, and the mirror's
 * writer thread's: mirror/mirrorWriterWorker.ts). All of them are per connection; WAL mode is the
 * file's, set once by Store.open.
 */
export function tuneConnection(db: Database.Database, options: { busyTimeoutMs: number }): void {
  db.pragma('foreign_keys = ON');
  // NORMAL is durable in WAL mode except for the last transactions on power loss.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // Sorts of list windows (temporary B-trees) stay in memory instead of temporary files.
  db.pragma('temp_store = MEMORY');
}

/**
 * Makes every `db.transaction(fn)` on this connection begin IMMEDIATE (take the write lock at
 * BEGIN) instead of DEFERRED. Another connection writes the same file at the same time (the
 * mirror's writer thread), and a deferred transaction that reads and then writes fails with
 * SQLITE_BUSY (a stale snapshot, which no busy timeout retries) when that connection committed
 * between its first read and its first write. An immediate one waits for the lock at BEGIN
 * instead. Nested calls stay savepoints (better-sqlite3 decides that by `inTransaction`). A
 * transaction that only reads asks for `.deferred` (mirrorOverview.ts): an immediate one would
 * hold the write lock the sync's writer thread needs for as long as it reads.
 */
export function immediateTransactions(db: Database.Database): void {
  const make = db.transaction.bind(db);
  const transaction = ((fn: (...args: never[]) => unknown) => {
    const made = make(fn);
    return Object.assign(
      function (this: unknown, ...args: never[]) {
        return made.immediate.apply(this, args);
      },
      {
        default: made.immediate,
        deferred: made.deferred,
        immediate: made.immediate,
        exclusive: made.exclusive,
        database: db,
      },
    );
  }) as unknown as Database.Database['transaction'];
  db.transaction = transaction;
}

/**
 * A second connection to the store's file, for a worker thread (the mirror's writer, the
 * custom-field indexer): the file must already be there (the engine's connection made and
 * migrated it); `nativeBinding` is better-sqlite3's binary for this runtime (the desktop app's
 * Electron build).
 */
export function openWorkerConnection(file: string, nativeBinding?: string): Database.Database {
  return new Database(
    file,
    nativeBinding ? { nativeBinding, fileMustExist: true } : { fileMustExist: true },
  );
}

/** Reads wait this long for a writer's checkpoint at most; a read never needs the write lock. */
const READ_BUSY_TIMEOUT_MS = 5_000;

/**
 * A connection of a thread that only reads the store (an export and its helpers, the overview):
 * the store's settings, `query_only`, a page cache of its own size and, when `mapBytes` is given,
 * that much of the file read through memory-mapped I/O (SQLite's `mmap_size`, capped by its
 * build at 2 GiB): see src/main/recordsExport/exportConnection.ts for when that is safe.
 */
export function openReadOnlyConnection(
  file: string,
  nativeBinding: string | undefined,
  pageCacheKiB: number,
  mapBytes = 0,
): Database.Database {
  const db = openWorkerConnection(file, nativeBinding);
  try {
    tuneConnection(db, { busyTimeoutMs: READ_BUSY_TIMEOUT_MS });
    // The connection cannot change the store, whatever runs on it.
    db.pragma('query_only = ON');
    db.pragma(`cache_size = -${pageCacheKiB}`);
    if (mapBytes > 0) db.pragma(`mmap_size = ${Math.floor(mapBytes)}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
