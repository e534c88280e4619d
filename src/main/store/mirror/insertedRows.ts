/**
 * Adds what rows a batch inserted into `records` bring to the tables kept beside them: their
 * multi-select items to record_multi_values (migrations/0017_list_lookups.sql) and their created
 * hour to record_created_hours (0023_created_hours.sql). Every writer that inserts records calls
 * it in the same transaction, once per batch; updates and deletions are kept by the migrations'
 * triggers.
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import insertedRowsSql from '../queries/mirrorInsertedRows.sql?raw';

const queries = requireQueries(
  parseNamedQueries(insertedRowsSql, 'mirrorInsertedRows.sql'),
  ['addMultiValues', 'addCreatedHours'] as const,
  'mirrorInsertedRows.sql',
);

export class InsertedRows {
  private readonly addMultiValues: Database.Statement;
  private readonly addCreatedHours: Database.Statement;

  constructor(db: Database.Database) {
    this.addMultiValues = db.prepare(queries.addMultiValues);
    this.addCreatedHours = db.prepare(queries.addCreatedHours);
  }

  /** The rows just inserted, by row_key (what `run` returned as lastInsertRowid). */
  inserted(rowKeys: readonly (number | bigint)[]): void {
    if (rowKeys.length === 0) return;
    const keys = JSON.stringify(rowKeys.map(Number));
    this.addMultiValues.run(keys);
    this.addCreatedHours.run(keys);
  }
}
