import type Database from 'better-sqlite3';
import { FOLD_SQL_FUNCTION, foldSqlValue } from '@portaldesk/portal-api/filter/fold';
import {
  NATURAL_SORT_SQL_FUNCTION,
  naturalSortSqlValue,
} from '@portaldesk/portal-api/domain/naturalOrder';
import { canonicalInstant } from '@portaldesk/portal-api/domain/instant';

/** Migration 0021 rewrites times stored before they were read as canonical instants. */
export const INSTANT_SQL_FUNCTION = 'pd_instant';

function instantSqlValue(value: unknown): unknown {
  return typeof value === 'string' ? canonicalInstant(value) : value;
}

/**
 * The application-defined SQL functions the schema may depend on. Custom-field indexes call
 * `pd_fold` (the filter language's case fold) and `pd_natural_key` (the lists' natural order of
 * text), so every connection that writes `records` needs them before its first write, migrations
 * included: SQLite evaluates index expressions on every insert, update and delete (and migration
 * 0017 fills `records.name_sort` with pd_natural_key; 0021 rewrites stored times with pd_instant).
 * Registering again replaces the same function.
 */
export function registerSqlFunctions(db: Database.Database): void {
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
  db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, naturalSortSqlValue);
  db.function(INSTANT_SQL_FUNCTION, { deterministic: true }, instantSqlValue);
}
