import type Database from 'better-sqlite3';
import { FOLD_SQL_FUNCTION, foldSqlValue } from '@portaldesk/portal-api/filter/fold';

/**
 * The application-defined SQL functions the schema may depend on. Custom-field indexes call
 * `pd_fold` (the filter language's case fold), so every connection that writes `records` needs it
 * before its first write, migrations included: SQLite evaluates index expressions on every insert,
 * update and delete. Registering again replaces the same function.
 */
export function registerSqlFunctions(db: Database.Database): void {
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
}
