import type Database from 'better-sqlite3';
import type { ChangeLog, MirrorTable } from './mirrorChanges';

/** The three statements of a list replaced whole, by their names in the repository's SQL file. */
export interface ListedQueries<Q extends string> {
  /** The keys stored in the scope now (one column). */
  existing: Q;
  /** One item's row, by name; changes 0 when nothing differed. */
  upsert: Q;
  /** Deletes the scope's rows whose keys are not in the JSON array bound last; returns their keys. */
  deleteNotIn: Q;
}

/**
 * A list the API returns whole, in the caller's transaction: the scope's rows whose keys were not
 * listed deleted, then every item upserted (by the key `key` gives), all logged. Deletions first:
 * an item deleted on the service and made again there under a new key keeps its unique names (a
 * field's API name), which the old row would otherwise still hold when the new one is written.
 */
export function replaceListed<Q extends string, T>(
  log: ChangeLog,
  statement: (name: Q) => Database.Statement,
  list: ListedQueries<Q> & {
    table: MirrorTable;
    /** The leading parameters of `existing` and `deleteNotIn` (the portal, the record, ...). */
    scope: readonly unknown[];
    items: readonly T[];
    key: (item: T) => string;
    row: (item: T) => Record<string, unknown>;
  },
): void {
  const existing = new Set(
    statement(list.existing)
      .pluck()
      .all(...list.scope) as string[],
  );
  const keys = list.items.map(list.key);
  const deleted = statement(list.deleteNotIn)
    .pluck()
    .all(...list.scope, JSON.stringify(keys)) as string[];
  log.add(list.table, 'deleted', deleted);
  list.items.forEach((item, i) => {
    const { changes } = statement(list.upsert).run(list.row(item));
    log.upserted(list.table, keys[i]!, existing.has(keys[i]!), changes > 0);
  });
}
