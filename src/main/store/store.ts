import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock } from './dataDirLock';
import { DATA_DIR_MODE, makeDataDirPrivate } from './privateDataDir';
import {
  ENGINE_BUSY_TIMEOUT_MS,
  immediateTransactions,
  tuneConnection,
} from './connectionSettings';
import { registerSqlFunctions } from './sqlFunctions';
import { applyMigrations, migrationsFromFiles, MigrationError, type Migration } from './migrate';

export const DATABASE_FILE = 'portaldesk.sqlite';

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
  /** Told when the data directory could not be made private; the store opens all the same. */
  warn?: (message: string) => void;
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
    // Made private (as Electron makes its own user-data folder), and made so again when an older
    // PortalDesk or the user left it open to others (privateDataDir.ts).
    mkdirSync(options.dataDir, { recursive: true, mode: DATA_DIR_MODE });
    makeDataDirPrivate(options.dataDir, options.warn ?? ((message) => console.warn(message)));
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
