import type Database from 'better-sqlite3';
import { FOLD_SQL_FUNCTION, foldSqlValue } from '@portaldesk/portal-api/filter/fold';
import {
  NATURAL_SORT_SQL_FUNCTION,
  naturalSortSqlValue,
} from '@portaldesk/portal-api/domain/naturalOrder';

/**
 * The application-defined SQL functions the schema may depend on. Custom-field indexes call
 * `pd_fold` (the filter language's case fold) and `pd_natural_key` (the lists' natural order of
 * text), so every connection that writes `records` needs them before its first write, migrations
 * included: SQLite evaluates index expressions on every insert, update and delete (and migration
 * 0017 fills `records.name_sort` with pd_natural_key). Registering again replaces the same function.
 */
export function registerSqlFunctions(db: Database.Database): void {
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
  db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, naturalSortSqlValue);
}
