import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hashMigration,
  migrationsFromFiles,
  MigrationError,
  type Migration,
} from '../../../src/main/store/migrate';
import { appMigrations, DATABASE_FILE, Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';

function open(dataDir: string, migrations?: Migration[]): Store {
  return Store.open({ dataDir, mode: 'test', ...(migrations ? { migrations } : {}) });
}

function tables(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
  } finally {
    db.close();
  }
}

const v1 = migrationsFromFiles({ './m/0001_first.sql': 'CREATE TABLE a (x INTEGER) STRICT;' });
const v2 = migrationsFromFiles({
  './m/0001_first.sql': 'CREATE TABLE a (x INTEGER) STRICT;',
  './m/0002_second.sql': 'CREATE TABLE b (y TEXT) STRICT;',
});

describe('store migrations', () => {
  it("apply the app's migrations on a fresh directory, in WAL mode with foreign keys on", () => {
    const dir = tempDir();
    const store = open(dir);
    expect(store.schemaVersion).toBe(appMigrations.length);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    store.close();
    expect(tables(dir)).toEqual(expect.arrayContaining(['schema_migrations', 'settings']));
  });

  it('are idempotent on restart: nothing re-applied, data kept', () => {
    const dir = tempDir();
    const first = open(dir, v1);
    first.db.prepare('INSERT INTO a (x) VALUES (7)').run();
    first.close();

    const second = open(dir, v1);
    expect(second.schemaVersion).toBe(1);
    expect(second.db.prepare('SELECT x FROM a').all()).toEqual([{ x: 7 }]);
    expect(second.db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({
      n: 1,
    });
    second.close();
  });

  it('apply only the new migration when one is added', () => {
    const dir = tempDir();
    open(dir, v1).close();
    const store = open(dir, v2);
    expect(store.schemaVersion).toBe(2);
    store.close();
    expect(tables(dir)).toEqual(expect.arrayContaining(['a', 'b']));
  });

  it('refuse an edited migration with a clear error and change nothing', () => {
    const dir = tempDir();
    open(dir, v1).close();
    const edited = migrationsFromFiles({
      './m/0001_first.sql': 'CREATE TABLE a (x INTEGER, extra TEXT) STRICT;',
      './m/0002_second.sql': 'CREATE TABLE b (y TEXT) STRICT;',
    });
    expect(() => open(dir, edited)).toThrow(MigrationError);
    expect(() => open(dir, edited)).toThrow(/0001_first\.sql was edited after it was applied/);
    expect(tables(dir)).not.toContain('b');
    // The refusal released the data directory: the original migrations still open it.
    open(dir, v1).close();
  });

  it('refuse a database written by a newer version', () => {
    const dir = tempDir();
    open(dir, v2).close();
    expect(() => open(dir, v1)).toThrow(/written by a newer PortalDesk/);
  });

  it('roll back a migration that fails halfway, keeping earlier data', () => {
    const dir = tempDir();
    open(dir, v1).close();
    const broken = migrationsFromFiles({
      './m/0001_first.sql': 'CREATE TABLE a (x INTEGER) STRICT;',
      './m/0002_broken.sql': 'CREATE TABLE c (z TEXT); INSERT INTO nowhere VALUES (1);',
    });
    expect(() => open(dir, broken)).toThrow(/rolled back/);
    expect(tables(dir)).not.toContain('c');
    expect(open(dir, v1).schemaVersion).toBe(1);
  });

  it('treat CRLF line endings as the same migration', () => {
    expect(hashMigration('CREATE TABLE a (x);\r\n')).toBe(hashMigration('CREATE TABLE a (x);\n'));
  });

  it('require numbered file names without gaps', () => {
    expect(() => migrationsFromFiles({ 'x/first.sql': 'SELECT 1;' })).toThrow(/NNNN_/);
    expect(() =>
      migrationsFromFiles({ 'x/0001_a.sql': 'SELECT 1;', 'x/0003_c.sql': 'SELECT 1;' }),
    ).toThrow(/without gaps/);
  });

  it('leave a corrupt database file unopened with an error', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, DATABASE_FILE), 'this is not a database');
    expect(() => open(dir)).toThrow();
    // The lock was released despite the failure.
    writeFileSync(path.join(dir, DATABASE_FILE), '');
    open(dir).close();
  });
});

describe('application-defined SQL functions', () => {
  it('are there before migrations run, so a migration may write rows an index of pd_fold covers', () => {
    const dir = tempDir();
    const words = { './m/0001_words.sql': 'CREATE TABLE w (t TEXT) STRICT;' };
    const first = migrationsFromFiles(words);
    // What a custom-field index does to records: an expression calling pd_fold.
    const setup = open(dir, first);
    setup.db.exec("CREATE INDEX w_fold ON w (pd_fold(t)); INSERT INTO w VALUES ('Ä');");
    setup.close();
    const later = migrationsFromFiles({
      ...words,
      './m/0002_more_words.sql': "INSERT INTO w VALUES ('Straße');",
    });
    const store = open(dir, later);
    try {
      expect(store.schemaVersion).toBe(2);
      expect(store.db.prepare('SELECT pd_fold(t) FROM w ORDER BY rowid').pluck().all()).toEqual([
        'ä',
        'strasse',
      ]);
    } finally {
      store.close();
    }
  });
});
