import Database from 'better-sqlite3';
import { applyMigrations, hashMigration, type Migration } from '../../store/migrate';
import routerMigrationSql from '../../store/migrations/0005_router.sql?raw';
import { tuneRouterConnection } from './tuneRouterConnection';

const ROUTER_MIGRATION_NAME = '0005_router.sql';
/** How long the engine's connection waits for another connection's write lock. */
const ENGINE_BUSY_TIMEOUT_MS = 5_000;

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
    tuneRouterConnection(db, ENGINE_BUSY_TIMEOUT_MS);
    applyMigrations(db, [routerMigration], file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
