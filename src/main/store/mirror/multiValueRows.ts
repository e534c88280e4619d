/**
 * Adds the multi-select items of rows a batch inserted into `records` to record_multi_values
 * (migrations/0017_list_lookups.sql): every writer that inserts records calls it in the same
 * transaction, once per batch. Updates and deletions are kept by the migration's triggers.
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import lookupsSql from '../queries/mirrorListLookups.sql?raw';

const queries = requireQueries(
  parseNamedQueries(lookupsSql, 'mirrorListLookups.sql'),
  ['addMultiValues'] as const,
  'mirrorListLookups.sql',
);

export class MultiValueRows {
  private readonly add: Database.Statement;

  constructor(db: Database.Database) {
    this.add = db.prepare(queries.addMultiValues);
  }

  /** The rows just inserted, by row_key (what `run` returned as lastInsertRowid). */
  inserted(rowKeys: readonly (number | bigint)[]): void {
    if (rowKeys.length === 0) return;
    this.add.run(JSON.stringify(rowKeys.map(Number)));
  }
}
