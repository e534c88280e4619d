import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from './sqlFile';
import migrationsSql from './queries/migrations.sql?raw';

export interface Migration {
  version: number;
  /** File name, e.g. `0001_settings.sql`. */
  name: string;
  sql: string;
  sha256: string;
}

/** A migration problem the user must act on; the database was left as it was. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Line endings are normalised before hashing: a checkout with CRLF line endings (Windows with
 * autocrlf) holds the same migration and must not be taken for an edited one.
 */
export function hashMigration(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** Builds the ordered migration list from `{ path: contents }`, e.g. from `import.meta.glob`. */
export function migrationsFromFiles(files: Record<string, string>): Migration[] {
  const migrations = Object.entries(files).map(([file, sql]) => {
    const name = file.split('/').pop() ?? file;
    const match = /^(\d{4})_[a-z0-9_]+\.sql$/.exec(name);
    if (!match) {
      throw new Error(`Migration file ${name} must be named NNNN_lowercase_words.sql.`);
    }
    return { version: Number(match[1]), name, sql, sha256: hashMigration(sql) };
  });
  migrations.sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migrations must be numbered 0001, 0002, ... without gaps; found ${migration.name} at position ${index + 1}.`,
      );
    }
  });
  return migrations;
}

interface AppliedRow {
  version: number;
  name: string;
  sha256: string;
}

const queries = requireQueries(
  parseNamedQueries(migrationsSql, 'migrations.sql'),
  ['createTable', 'listApplied', 'recordApplied'] as const,
  'migrations.sql',
);

/**
 * Brings the database to the newest schema. Applied migrations are checked against their recorded
 * hash first, so an edited migration is refused instead of silently skipped; each new migration
 * runs in its own transaction together with its record.
 */
export function applyMigrations(
  db: Database.Database,
  migrations: readonly Migration[],
  databaseLabel: string,
): { schemaVersion: number; applied: string[] } {
  db.exec(queries.createTable);
  const appliedRows = db.prepare(queries.listApplied).all() as AppliedRow[];
  const known = new Map(migrations.map((migration) => [migration.version, migration]));

  for (const row of appliedRows) {
    const migration = known.get(row.version);
    if (!migration) {
      throw new MigrationError(
        `${databaseLabel} was written by a newer PortalDesk (it has migration ${row.name}, which this version does not know). ` +
          'Nothing was changed. Update PortalDesk, or start with --data-dir to use another data directory.',
      );
    }
    if (migration.sha256 !== row.sha256) {
      throw new MigrationError(
        `Migration ${migration.name} was edited after it was applied to ${databaseLabel} ` +
          `(recorded sha256 ${row.sha256.slice(0, 12)}, file now ${migration.sha256.slice(0, 12)}). ` +
          'Nothing was changed. Restore the original file and put the change in a new numbered migration.',
      );
    }
  }

  const appliedVersions = new Set(appliedRows.map((row) => row.version));
  const record = db.prepare(queries.recordApplied);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (appliedVersions.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run({
        version: migration.version,
        name: migration.name,
        sha256: migration.sha256,
        appliedAt: new Date().toISOString(),
      });
    })();
    applied.push(migration.name);
  }
  const last = migrations[migrations.length - 1];
  return { schemaVersion: last ? last.version : 0, applied };
}
