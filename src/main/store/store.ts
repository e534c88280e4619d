import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock } from './dataDirLock';
import {
  ENGINE_BUSY_TIMEOUT_MS,
  immediateTransactions,
  tuneConnection,
} from './connectionSettings';
import { registerSqlFunctions } from './sqlFunctions';
import { applyMigrations, migrationsFromFiles, MigrationError, type Migration } from './migrate';

export const DATABASE_FILE = 'portaldesk.sqlite';
/** Ours: a data directory PortalDesk creates is its owner's alone (rwx------). */
export const DATA_DIR_MODE = 0o700;

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
    // Made private (as Electron makes its own user-data folder): the mirror, backups and exports
    // are the user's business data, not for other accounts of this computer. A folder the user
    // made beforehand keeps the permissions they gave it.
    mkdirSync(options.dataDir, { recursive: true, mode: DATA_DIR_MODE });
    const releaseLock = acquireDataDirLock(options.dataDir, options.mode);
    const file = path.join(options.dataDir, DATABASE_FILE);
    let db: Database.Database | undefined;
    try {
      db = new Database(
        file,
        options.nativeBinding ? { nativeBinding: options.nativeBinding } : undefined,
      );
      db.pragma('journal_mode = WAL');
      tuneConnection(db, { busyTimeoutMs: ENGINE_BUSY_TIMEOUT_MS });
      immediateTransactions(db);
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
