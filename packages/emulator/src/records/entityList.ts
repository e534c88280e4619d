/**
 * Record lists and counts, built for speed because every test and benchmark lists records: the
 * ordered ids of a (module, scope, project, view, filter, sort) are computed once per data version
 * and then sliced; each record's JSON text is kept until it or its metadata changes; whole page
 * bodies are kept too. See recordCache.ts for when these are dropped.
 */
import { apiErrors } from '../http/apiError';
import type { EmulatorState } from '../state';
import { parseId } from '../api/common';
import { ensureSqlFunctions, filterContext, filterSql } from './entityFilter';
import {
  orderBy,
  parseSortBy,
  readWindow,
  viewCondition,
  windowInfo,
  type SortSpec,
} from './entityQuery';
import { entityJson, type EntityRow } from './entityJson';
import { prepared } from '../model/prepared';
import type { RecordScope } from './recordScope';

/** Our default order: creation order (ids grow), which keeps pages stable as records are added. */
export const DEFAULT_SORT: SortSpec = { field: 'id', descending: false };
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

/** The JSON text of one record, from the cache or freshly serialized. */
export function entityFragment(scope: RecordScope, row: EntityRow): string {
  const cached = scope.caches.fragments.get(row.id);
  if (cached !== undefined) return cached;
  const json = JSON.stringify(entityJson(row, scope.module, scope.portalMeta));
  scope.caches.putFragment(row.id, json);
  return json;
}

/** The JSON texts of these records in order, loading the ones not cached in one query. */
function fragmentsOf(state: EmulatorState, scope: RecordScope, ids: readonly number[]): string[] {
  const { fragments } = scope.caches;
  const missing = ids.filter((id) => !fragments.has(id));
  if (missing.length > 0) {
    const rows = prepared(
      state.db,
      'SELECT * FROM entities WHERE id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(missing)) as EntityRow[];
    for (const row of rows) entityFragment(scope, row);
  }
  return ids.flatMap((id) => fragments.get(id) ?? []);
}

interface IdQuery {
  key: string;
  ids: readonly number[];
}

/** The ordered ids of the active records a list or count query selects. */
function selectIds(
  state: EmulatorState,
  scope: RecordScope,
  query: URLSearchParams,
  sort: SortSpec,
): IdQuery {
  ensureSqlFunctions(state.db);
  const { module, portalMeta, caches } = scope;
  const where = ['e.module_id = ?', 'e.trashed_time IS NULL'];
  const params: (string | number)[] = [module.id];
  if (scope.scopeProjectId !== null) {
    where.push('e.project_id = ?');
    params.push(scope.scopeProjectId);
  }
  const projectText = query.get('project_id');
  if (projectText !== null && projectText !== '') {
    const projectId = parseId(projectText, 'project_id');
    if (!portalMeta.projects.has(projectId)) {
      throw apiErrors.invalidParameter(`project_id ${projectId} is not a project of this portal.`);
    }
    where.push('e.project_id = ?');
    params.push(projectId);
  }
  const view = viewCondition(query.get('view_id'), module);
  if (view !== undefined) where.push(view);
  const filterText = query.get('filter');
  if (filterText !== null && filterText !== '') {
    const filter = filterSql(caches, module, filterText, () =>
      filterContext(portalMeta, state.clock.now()),
    );
    where.push(filter.sql);
    params.push(...filter.params);
  }
  const order = caches.memo(`order:${module.id}:${sort.field}:${sort.descending}`, () =>
    orderBy(sort, module),
  );
  const sql = `SELECT e.id FROM entities e WHERE ${where.join(' AND ')} ORDER BY ${order}`;
  // The SQL text and its values are the whole question: date presets are already concrete days.
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const list = caches.list(key, () => ({
    // Its own statement: pluck() would change a shared prepared one for every other caller. This
    // runs once per data version, so preparing it here costs nothing that matters.
    ids: state.db
      .prepare(sql)
      .pluck()
      .all(...params) as number[],
  }));
  return { key, ids: list.ids };
}

/** GET .../entities: one page as a ready JSON body. */
export function entityPage(
  state: EmulatorState,
  scope: RecordScope,
  query: URLSearchParams,
): Buffer {
  const window = readWindow(query);
  const sort = parseSortBy(query.get('sort_by'), DEFAULT_SORT);
  const { key, ids } = selectIds(state, scope, query, sort);
  const pageKey = `${key}\u0000${window.offset}/${window.limit}/${window.page}`;
  const cached = scope.caches.page(pageKey);
  if (cached) return cached;
  const parts = fragmentsOf(state, scope, ids.slice(window.offset, window.offset + window.limit));
  const body = Buffer.from(
    `{"entities":[${parts.join(',')}],"page_info":${JSON.stringify(windowInfo(window, ids.length))}}`,
  );
  scope.caches.putPage(pageKey, body);
  return body;
}

/** GET .../entities/20: how many active records the query selects. */
export function entityCount(
  state: EmulatorState,
  scope: RecordScope,
  query: URLSearchParams,
): number {
  return selectIds(state, scope, query, DEFAULT_SORT).ids.length;
}
