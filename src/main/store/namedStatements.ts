import type Database from 'better-sqlite3';

/**
 * A repository's named queries (from its `.sql` file), each prepared on first use and then kept:
 * opening a repository prepares nothing it does not run, and nothing twice.
 */
export function namedStatements<Name extends string>(
  db: Database.Database,
  queries: Readonly<Record<Name, string>>,
): (name: Name) => Database.Statement {
  const prepared = new Map<Name, Database.Statement>();
  return (name) => {
    let statement = prepared.get(name);
    if (!statement) {
      statement = db.prepare(queries[name]);
      prepared.set(name, statement);
    }
    return statement;
  };
}
