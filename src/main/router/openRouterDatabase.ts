import Database from 'better-sqlite3';
import { applyMigrations, hashMigration, type Migration } from '../store/migrate';
import routerMigrationSql from '../store/migrations/0005_router.sql?raw';

const ROUTER_MIGRATION_NAME = '0005_router.sql';
/**
 * Each delivery touches index pages all over (events by publisher, executions by rule); with
 * SQLite's 2 MB default they were read back from the OS on many commits. Checkpoints stay at
 * SQLite's default (every 4 MB of WAL): the app store's 64 MB ones (store.ts, for bulk pulls) made
 * each checkpoint a stall of the commit that ran it, and tripled the p99 at 500 events/s.
 */
const ROUTER_PAGE_CACHE_KIB = 65_536;

/** The router's own migration, for a database that holds only the router (headless, tests). */
export const routerMigration: Migration = {
  version: 6,
  name: ROUTER_MIGRATION_NAME,
  sql: routerMigrationSql,
  sha256: hashMigration(routerMigrationSql),
};

/**
 * A SQLite file holding only the router's tables, for the headless command (and tests): the app's
 * data directory, its lock and its other migrations are not involved, so a headless run never
 * touches a user's PortalDesk data. `:memory:` keeps nothing.
 */
export function openRouterDatabase(file: string): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${ROUTER_PAGE_CACHE_KIB}`);
    applyMigrations(db, [routerMigration], file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
