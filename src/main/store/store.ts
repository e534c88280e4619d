import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock } from './dataDirLock';
import { registerSqlFunctions } from './sqlFunctions';
import { applyMigrations, migrationsFromFiles, MigrationError, type Migration } from './migrate';

export const DATABASE_FILE = 'portaldesk.sqlite';

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

/** The app's own migrations, bundled as text at build time. */
export const appMigrations: Migration[] = migrationsFromFiles(
  import.meta.glob<string>('./migrations/*.sql', { query: '?raw', import: 'default', eager: true }),
);

export interface StoreOptions {
  dataDir: string;
  /** Who owns the data directory while open; shown to a second process that tries. */
  mode: string;
  /**
   * Path to a better-sqlite3 binary built for the running runtime's ABI. Electron passes its own
   * copy so the Node build in node_modules stays usable for tests and web mode.
   */
  nativeBinding?: string;
  migrations?: readonly Migration[];
}

/** The local database: one connection, owned by this process, which is the only writer. */
export class Store {
  private constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly schemaVersion: number,
    private readonly releaseLock: () => void,
  ) {}

  static open(options: StoreOptions): Store {
    mkdirSync(options.dataDir, { recursive: true });
    const releaseLock = acquireDataDirLock(options.dataDir, options.mode);
    const file = path.join(options.dataDir, DATABASE_FILE);
    let db: Database.Database | undefined;
    try {
      db = new Database(
        file,
        options.nativeBinding ? { nativeBinding: options.nativeBinding } : undefined,
      );
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      // NORMAL is durable in WAL mode except for the last transactions on power loss.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
      // Sorts of list windows (temporary B-trees) stay in memory instead of temporary files.
      db.pragma('temp_store = MEMORY');
      // Before migrating: a migration that writes records meets the custom-field indexes.
      registerSqlFunctions(db);
      const { schemaVersion } = runMigrations(db, options.migrations ?? appMigrations, file);
      return new Store(db, file, schemaVersion, releaseLock);
    } catch (error) {
      db?.close();
      releaseLock();
      throw error;
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.releaseLock();
  }
}

function runMigrations(db: Database.Database, migrations: readonly Migration[], file: string) {
  try {
    return applyMigrations(db, migrations, file);
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      `Could not bring ${file} up to date: ${detail}. The failed migration was rolled back; earlier data is unchanged.`,
    );
  }
}
