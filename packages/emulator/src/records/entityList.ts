/**
 * Record lists and counts, built for speed because every test and benchmark lists records: the
 * ordered ids of a (module, scope, project, view, filter, sort) are computed once per data version
 * (a module's own record writes drop only its lists) and then sliced; a page's body is its
 * records' JSON texts (entityText.ts) written one after the other into one buffer, kept once the
 * same page is asked for again. See recordCache.ts for what is kept and when it is dropped.
 *
 * A page is never one JavaScript string: joining 200 records' texts (about 250 KB) and encoding
 * the result cost more CPU than serializing the records (V8 keeps strings that large apart, and
 * encodes them slowly), and a buffer per record cost a memory pool every few records.
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
import type { EntityRow } from './entityJson';
import { entityText } from './entityText';
import { prepared } from '../model/prepared';
import type { RecordScope } from './recordScope';

/** Our default order: creation order (ids grow), which keeps pages stable as records are added. */
export const DEFAULT_SORT: SortSpec = { field: 'id', descending: false };
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

/** The JSON text of one record. */
export function entityFragment(scope: RecordScope, row: EntityRow): string {
  return entityText(row, scope.module, scope.portalMeta);
}

/** The JSON texts of these records in order, read in one query. */
function fragmentsOf(state: EmulatorState, scope: RecordScope, ids: readonly number[]): string[] {
  if (ids.length === 0) return [];
  const rows = prepared(
    state.db,
    'SELECT * FROM entities WHERE id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(ids)) as EntityRow[];
  const texts = new Map<number, string>();
  for (const row of rows) texts.set(row.id, entityFragment(scope, row));
  return ids.flatMap((id) => texts.get(id) ?? []);
}

interface IdQuery {
  /** The question as text: the SQL and its values. */
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
    moduleId: module.id,
    // Its own statement: pluck() would change a shared prepared one for every other caller. This
    // runs once per data version, so preparing it here costs nothing that matters.
    ids: state.db
      .prepare(sql)
      .pluck()
      .all(...params) as number[],
  }));
  return { key, ids: list.ids };
}

/**
 * `{"entities":[…],"page_info":…}` written into one buffer, each text straight from its string:
 * the same bytes as `Buffer.from` of the joined string.
 */
export function pageBody(fragments: readonly string[], pageInfo: unknown): Buffer {
  const tail = `],"page_info":${JSON.stringify(pageInfo)}}`;
  let size = '{"entities":['.length + Buffer.byteLength(tail) + Math.max(fragments.length - 1, 0);
  for (const fragment of fragments) size += Buffer.byteLength(fragment);
  const body = Buffer.allocUnsafe(size);
  let at = body.write('{"entities":[', 0, 'latin1');
  fragments.forEach((fragment, index) => {
    if (index > 0) at = body.writeUInt8(0x2c, at);
    at += body.write(fragment, at);
  });
  at += body.write(tail, at);
  if (at !== size) throw new Error(`page body: wrote ${at} of ${size} bytes`);
  return body;
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
  const kept = scope.caches.page(pageKey);
  if (kept) return kept;
  const parts = fragmentsOf(state, scope, ids.slice(window.offset, window.offset + window.limit));
  const body = pageBody(parts, windowInfo(window, ids.length));
  scope.caches.offerPage(pageKey, scope.module.id, body);
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
