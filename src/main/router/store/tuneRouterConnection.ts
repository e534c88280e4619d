import type Database from 'better-sqlite3';

/**
 * Each delivery touches index pages all over (events by publisher, executions by rule); with
 * SQLite's 2 MB default they were read back from the OS on many commits. Checkpoints stay at
 * SQLite's default (every 4 MB of WAL): the app store's 64 MB ones (store.ts, for bulk pulls) made
 * each checkpoint a stall of the commit that ran it, and tripled the p99 at 500 events/s.
 */
const ROUTER_PAGE_CACHE_KIB = 65_536;

/**
 * The settings every connection to a router-only file shares: the engine's (openRouterDatabase.ts)
 * and the headless writer thread's (routerWriterWorker.ts), which commit the same rows.
 */
export function tuneRouterConnection(db: Database.Database, busyTimeoutMs: number): void {
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma(`cache_size = -${ROUTER_PAGE_CACHE_KIB}`);
}
