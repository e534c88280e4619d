import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import schemaSql from './migrations/0001_schema.sql?raw';

/** The emulator keeps one schema; a data file made by another schema is refused, not patched. */
const SCHEMA_HASH = createHash('sha256').update(schemaSql.replace(/\r\n/g, '\n')).digest('hex');

export interface OpenedDatabase {
  db: Database.Database;
  /** True when the schema was just created (the caller seeds it). */
  fresh: boolean;
}

/** In memory by default; `file` keeps the emulated service's data across runs (`--data FILE`). */
export function openEmulatorDatabase(file: string | undefined): OpenedDatabase {
  const db = new Database(file ?? ':memory:');
  try {
    if (file) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = OFF');
    const meta = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'emulator_meta'")
      .get();
    if (meta) {
      const row = db.prepare("SELECT value FROM emulator_meta WHERE key = 'schema'").get() as
        { value: string } | undefined;
      if (row?.value !== SCHEMA_HASH) {
        throw new Error(
          `${file} was written by another version of the emulator. Delete it, or pass another --data file.`,
        );
      }
      return { db, fresh: false };
    }
    db.transaction(() => {
      db.exec(schemaSql);
      db.exec('CREATE TABLE emulator_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
      db.prepare("INSERT INTO emulator_meta (key, value) VALUES ('schema', ?)").run(SCHEMA_HASH);
    })();
    return { db, fresh: true };
  } catch (error) {
    db.close();
    throw error;
  }
}
