/**
 * Which rows a list window shows (their row keys, in order), by the cheapest way SQLite has for
 * the order and the filter:
 *
 * - the status order: segment by segment (statusWindowKeys.ts);
 * - an index order: a walk of the index, from the nearer end of the order (nearerEnd); deep in an
 *   order whose walk would look up every row passed, the filter's own index and a sort instead;
 * - an order SQLite must sort: read ahead and kept (SortedWindows);
 * - a sparse filter with a lookup (listLookups.ts): its few rows read and sorted;
 * - with pending local edits: the server copies and the merged edited rows joined (UNION ALL)
 *   and sorted together;
 * - a first window holding every match of a filter not counted yet is also its count
 *   (wholeFirstWindow).
 */
import type { SqlFragment } from '@portaldesk/portal-api/filter';
import { MAX_LOOKUP_ROWS, type ListLookups } from './listLookups';
import { listQueries as queries, type QueryPlans, type StatementCache } from './listStatements';
import type { ModuleContext } from './moduleContext';
import type { RecordCounts } from './recordCounts';
import type { RecordFilterSql } from './recordFilterSql';
import { orderByTerms, planTerms, type SortPlan } from './recordSort';
import type { SortedWindows } from './sortedWindows';
import { statusWindowKeys } from './statusWindowKeys';

/**
 * A window past this share of the matches reads the rows through the filter's best index and
 * sorts the matches, when walking the sort order would cost a row lookup per row passed (a
 * `contains` on names matching 11 of a million rows would otherwise read all of them).
 */
const SORTED_WALK_SHARE = 0.15;

/** The caches a window is read through (RecordQuery owns them and clears them on a write). */
export interface WindowReader {
  statements: StatementCache;
  plans: QueryPlans;
  counts: RecordCounts;
  sortedWindows: SortedWindows;
  lookups: ListLookups;
}

/** One list window: the module, its filter, its order, and the edited rows' JSON (or null). */
export interface WindowAsk {
  context: ModuleContext;
  where: RecordFilterSql;
  plan: SortPlan;
  edited: string | null;
  offset: number;
  limit: number;
}

/**
 * How to read rows offset .. offset + limit of `total` in the plan's order: as they are, or,
 * past the middle, as the window at the other end of the reversed order (rows then come back
 * reversed). Pure.
 */
export function nearerEnd(
  plan: SortPlan,
  offset: number,
  limit: number,
  total: number,
): { order: SortPlan; from: number; rows: number; reversed: boolean } {
  const end = Math.min(total, offset + limit);
  if (offset * 2 <= total || end <= offset) {
    return { order: plan, from: offset, rows: limit, reversed: false };
  }
  return {
    order: { ...plan, descending: !plan.descending, nullsFirst: plan.nullable },
    from: total - end,
    rows: end - offset,
    reversed: true,
  };
}

/**
 * The first window of a filter whose count is not known yet, when it holds every match: then
 * it is also the count. Only for filters read from the sort order's covering index, whose walk
 * stops after `limit` matches: a `contains` matching few of a million names reads the index
 * once instead of twice (count, then window); one matching many stops early and is counted.
 * Not for a filter with a lookup: it is counted without a walk, which then knows how far to go.
 */
export function wholeFirstWindow(reader: WindowReader, ask: WindowAsk): number[] | null {
  const { context, where, plan, edited, offset, limit } = ask;
  if (offset !== 0 || edited !== null || where.sql === '1' || where.lookup !== null) return null;
  if (reader.counts.has(context, where)) return null;
  const walk =
    `SELECT r.row_key FROM records r WHERE ${context.listed} AND ${where.probe} ` +
    `ORDER BY ${orderByTerms(plan, planTerms(plan))} LIMIT ? OFFSET ?`;
  const params = [context.moduleKey, ...where.params, limit, 0];
  if (!reader.plans.of(walk, params).covering) return null;
  const keys = reader.statements
    .get(walk)
    .pluck()
    .all(...params) as number[];
  if (keys.length === limit) return null;
  reader.counts.remember(context, where, keys.length);
  return keys;
}

/**
 * The rows of the filter's lookup, when a statement should start from them: the filter has one,
 * it holds few rows, and walking the order would pass many rows for each match of the window.
 */
function lookupRows(reader: WindowReader, ask: WindowAsk, sparse: boolean): SqlFragment | null {
  const { context, where } = ask;
  if (!sparse || where.lookup === null) return null;
  const candidates = reader.lookups.candidates(context, where.lookup);
  return candidates !== undefined && candidates <= MAX_LOOKUP_ROWS
    ? reader.lookups.rows(context, where.lookup)
    : null;
}

/** The window's row keys, in the plan's order; `total` is the count of the matches. */
export function windowKeys(reader: WindowReader, ask: WindowAsk, total: number): number[] {
  const { context, where, plan, edited, offset, limit } = ask;
  const base = `FROM records r WHERE ${context.listed} AND ${where.sql}`;
  // Few matches for the window's depth: an index walk would pass many rows for each.
  const sparse = where.sql !== '1' && offset + limit > total * SORTED_WALK_SHARE;
  // With pending edits every match is read and sorted anyway: the lookup's rows if they are few.
  const looked = lookupRows(reader, ask, sparse || edited !== null);
  const source = looked
    ? `FROM (${looked.sql}) m CROSS JOIN records r ON r.row_key = m.row_key WHERE ${context.listed} AND ${where.sql}`
    : base;
  const sourceParams = looked ? [...looked.params, context.moduleKey] : [context.moduleKey];
  if (edited === null && looked) {
    // The lookup's few rows, read and sorted (CROSS JOIN: SQLite starts from them).
    return reader.statements
      .get(
        `SELECT r.row_key ${source} ORDER BY ${orderByTerms(plan, planTerms(plan))} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(...sourceParams, ...where.params, limit, offset) as number[];
  }
  if (edited === null && plan.byStatus) {
    // No index holds the workflow position: read the window status by status instead.
    const { order, from, rows, reversed } = nearerEnd(plan, offset, limit, total);
    const keys = statusWindowKeys(
      reader.statements,
      reader.counts,
      context,
      where,
      order,
      from,
      rows,
    );
    return reversed ? keys.reverse() : keys;
  }
  if (edited === null) {
    // A window past the middle is read from the other end: OFFSET steps over every row before
    // it, so the deepest window then passes half the rows instead of all of them.
    const { order, from, rows, reversed } = nearerEnd(plan, offset, limit, total);
    const walk = `SELECT r.row_key FROM records r WHERE ${context.listed} AND ${where.probe} ORDER BY ${orderByTerms(order, planTerms(order))} LIMIT ? OFFSET ?`;
    const params = [context.moduleKey, ...where.params, rows, from];
    // Unary + keeps SQLite from walking an index for the order: it filters, then sorts.
    const sql =
      sparse && !reader.plans.of(walk, params).covering
        ? `SELECT r.row_key ${base} ORDER BY ${orderByTerms(order, planTerms(order, '+'))} LIMIT ? OFFSET ?`
        : walk;
    const keys = reader.plans.of(sql, params).sorts
      ? reader.sortedWindows.read(sql, params.slice(0, -2), from, rows)
      : (reader.statements
          .get(sql)
          .pluck()
          .all(...params) as number[]);
    return reversed ? keys.reverse() : keys;
  }
  const then = plan.then === undefined ? '' : `${plan.then} AS sort_then, `;
  const columnsOf = (key: string) =>
    `r.row_key AS row_key, ${key} AS sort_key, ${then}r.id AS sort_id`;
  const terms = {
    key: 'sort_key',
    then: plan.then === undefined ? undefined : 'sort_then',
    id: 'sort_id',
  };
  const sql =
    `WITH ${queries.editedRowsCte} SELECT ${columnsOf(plan.key)} ${source} ` +
    `UNION ALL SELECT ${columnsOf(plan.editedKey ?? plan.key)} FROM edited_rows r WHERE ${where.edited.sql} ` +
    `ORDER BY ${orderByTerms(plan, terms)} LIMIT ? OFFSET ?`;
  return (
    reader.statements
      .get(sql)
      .all(edited, ...sourceParams, ...where.params, ...where.edited.params, limit, offset) as {
      row_key: number;
    }[]
  ).map((row) => row.row_key);
}
