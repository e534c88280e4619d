import type Database from 'better-sqlite3';

/** The SQL texts `db` prepares while `run` runs (statements a plan test then explains). */
export function preparedDuring(db: Database.Database, run: () => void): string[] {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    run();
  } finally {
    db.prepare = prepare as typeof db.prepare;
  }
  return seen;
}
