import type Database from 'better-sqlite3';

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
/** Distinct SQL texts kept prepared (filters and sorts make new ones). */
const MAX_STATEMENTS = 256;

/**
 * A prepared statement for this SQL text, prepared once per database: preparing on every request
 * was the largest server-side cost in profiles of the list routes.
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
