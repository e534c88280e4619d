/**
 * The `filter` of record lists and counts (spec, "Filter guide") over the `entities` table: which
 * fields a custom module's records can be filtered by, what kind each is, and the SQL each field
 * reads. Parsing, checking and translating are packages/portal-api/src/filter's; this file only binds.
 */
import {
  CUSTOM_FIELD_FILTER_KIND,
  SAFE_API_NAME,
} from '@portaldesk/portal-api/domain/customFieldFilterKinds';
import type Database from 'better-sqlite3';
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  NATURAL_SORT_SQL_FUNCTION,
  naturalSortSqlValue,
} from '@portaldesk/portal-api/domain/naturalOrder';
import {
  DATE_PRESETS,
  FOLD_SQL_FUNCTION,
  FilterCompileError,
  checkFilter,
  compileFilter,
  foldSqlValue,
  formatFilterErrors,
  parseFilter,
  toSql,
  type FilterContext,
  type FilterError,
  type FilterField,
  type SqlBinding,
  type SqlFragment,
} from '@portaldesk/portal-api/filter';
import { apiErrors } from '../http/apiError';
import type { RecordCaches } from './recordCache';
import type { ModuleMeta, PortalMeta } from './recordMeta';

/** SQL for a custom field's stored value; currency compares by its amount. */
export function customExpr(apiName: string, type: CustomFieldType): string {
  if (!SAFE_API_NAME.test(apiName)) throw new Error(`Unsafe api name ${apiName}`);
  return type === 'currency'
    ? `json_extract(e.custom, '$.${apiName}.amount')`
    : `json_extract(e.custom, '$.${apiName}')`;
}

/** 1 when the record's status is of a closed type: the module's closed status ids, inlined. */
export function closedExpr(module: ModuleMeta): string {
  const ids = [...module.statuses.values()]
    .filter((status) => status.closed)
    .map((status) => String(status.id));
  return ids.length === 0 ? '0' : `(e.status_id IN (${ids.join(', ')}))`;
}

export interface FilterSetup {
  fields: FilterField[];
  bindings: Record<string, SqlBinding>;
}

/** The filterable fields of a module's records and their SQL (records are aliased `e`). */
export function filterSetup(module: ModuleMeta): FilterSetup {
  const closed = closedExpr(module);
  const fields: FilterField[] = [
    { name: 'name', kind: 'text', label: 'Name' },
    { name: 'description', kind: 'text', label: 'Description' },
    { name: 'status', kind: 'status', label: 'Status' },
    { name: 'owner', kind: 'user', label: 'Owner' },
    { name: 'created_time', kind: 'datetime', label: 'Created' },
    { name: 'last_updated_time', kind: 'datetime', label: 'Last updated' },
    { name: 'is_closed', kind: 'boolean', label: 'Closed' },
    { name: 'is_external', kind: 'boolean', label: 'External' },
  ];
  const bindings: Record<string, SqlBinding> = {
    name: { expr: 'e.name' },
    description: { expr: 'e.description' },
    status: { expr: 'CAST(e.status_id AS TEXT)', closedExpr: closed },
    owner: { expr: 'e.owner_zpuid' },
    created_time: { expr: 'e.created_time' },
    last_updated_time: { expr: 'e.last_updated_time' },
    is_closed: { expr: closed },
    is_external: { expr: 'e.is_external' },
  };
  for (const field of module.fields.values()) {
    if (!SAFE_API_NAME.test(field.apiName) || Object.hasOwn(bindings, field.apiName)) continue;
    fields.push({ name: field.apiName, kind: CUSTOM_FIELD_FILTER_KIND[field.type] });
    bindings[field.apiName] = { expr: customExpr(field.apiName, field.type) };
  }
  return { fields, bindings };
}

export function filterContext(portal: PortalMeta, now: number): FilterContext {
  return {
    now,
    timeZone: portal.timeZone,
    ...(portal.weekStartDay === undefined ? {} : { weekStartDay: portal.weekStartDay }),
    users: portal.filterUsers,
  };
}

function refuse(errors: readonly FilterError[]) {
  return apiErrors.invalidParameter(`filter: ${formatFilterErrors(errors).join('; ')}`);
}

const PRESETS: ReadonlySet<string> = new Set(DATE_PRESETS);

/**
 * The filter as an SQL condition over `e`, or INVALID_PARAMETER_VALUE with every problem. Filters
 * without date presets mean the same at any time, so their SQL is kept for the data version.
 */
export function filterSql(
  caches: RecordCaches,
  module: ModuleMeta,
  raw: string,
  context: () => FilterContext,
): SqlFragment {
  const key = `${module.id}\u0000${raw}`;
  const known = caches.filters.get(key) as SqlFragment | undefined;
  if (known) return known;
  const parsed = parseFilter(raw);
  if (!parsed.ok) throw refuse(parsed.errors);
  const setup = caches.memo(`filter:${module.id}`, () => filterSetup(module));
  const problems = checkFilter(parsed.filter, setup.fields);
  if (problems.length > 0) throw refuse(problems);
  let fragment: SqlFragment;
  try {
    fragment = toSql(compileFilter(parsed.filter, setup.fields, context()), setup.bindings);
  } catch (error) {
    if (error instanceof FilterCompileError) throw refuse(error.errors);
    throw error;
  }
  if (!parsed.filter.criteria.some((criterion) => PRESETS.has(criterion.criteria_condition))) {
    caches.putFilter(key, fragment);
  }
  return fragment;
}

const registered = new WeakSet<Database.Database>();

/**
 * Registers the SQL functions record lists call on the database, once: the filter's case fold
 * and the lists' natural order of text (entityQuery.ts's orderBy).
 */
export function ensureSqlFunctions(db: Database.Database): void {
  if (registered.has(db)) return;
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
  db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, naturalSortSqlValue);
  registered.add(db);
}
