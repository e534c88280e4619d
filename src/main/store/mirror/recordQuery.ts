import type Database from 'better-sqlite3';
import {
  checkFilter,
  compileFilter,
  FilterCompileError,
  formatFilterErrors,
  parseFilter,
  type FilterContext,
  type FilterError,
  type FilterUsers,
  type SqlFragment,
} from '../../../shared/filter';
import { parseNamedQueries, requireQueries } from '../../../shared/sqlFile';
import querySql from '../queries/mirrorQuery.sql?raw';
import { customFieldIndexScope } from './customFieldIndexDefinition';
import { mergeRecordEdits, type RecordEdit, type StoredRecordRow } from './mergeRecordEdits';
import { recordRowOf } from './recordRowOf';
import type {
  MetadataRepository,
  StoredField,
  StoredStatus,
  StoredUser,
} from './metadataRepository';
import type { MirrorRecordView } from './mirrorTypes';
import { recordFilterSetup, type RecordFilterSetup } from './recordFilterSetup';
import { recordFilterSql, type RecordFilterSql } from './recordFilterSql';
import { RecordQueryError } from './recordQueryError';
import { statusSegments, windowParts, type StatusSegment } from './statusWindow';
import { orderByTerms, recordSortPlan, type RecordSort, type SortPlan } from './recordSort';

const queries = requireQueries(
  parseNamedQueries(querySql, 'mirrorQuery.sql'),
  [
    'dataVersion',
    'countAll',
    'countOutsideListed',
    'editedRows',
    'editsOfModule',
    'editsOf',
    'editedRowsCte',
    'rowsByKeys',
  ] as const,
  'mirrorQuery.sql',
);

/** The most rows one window returns: a virtual list asks for a screenful or a few. */
export const MAX_WINDOW_ROWS = 1000;
/** Prepared statements kept for filters and sorts seen recently. */
const STATEMENT_CACHE_SIZE = 64;
/**
 * A window past this share of the matches reads the rows through the filter's best index and
 * sorts the matches, when walking the sort order would cost a row lookup per row passed (a
 * `contains` on names matching 11 of a million rows would otherwise read all of them).
 */
const SORTED_WALK_SHARE = 0.15;
/**
 * Rows read at once from a window SQLite must sort, and kept for the next windows: a top-N sort of
 * a million rows costs about the same for 1,000 rows as for 100 (the scan dominates).
 */
const SORTED_PREFETCH_ROWS = 1000;

export interface RecordQueryInput {
  portalId: string;
  moduleId: string;
  /** A filter in the API's own language (its JSON text), as the `filter` query parameter. */
  filter?: string;
  sort?: RecordSort;
  offset: number;
  limit: number;
}

/** Told which custom-field expressions each list compared (customFieldIndexer.ts). */
export interface CustomFieldIndexUse {
  used(moduleKey: number, expressions: readonly string[]): void;
}

export interface RecordWindow {
  rows: MirrorRecordView[];
  /** How many records match the filter in all. */
  total: number;
}

interface ModuleContext {
  moduleKey: number;
  /**
   * The module's listed server copies, over `r`, binding the module key once: every statement of
   * a list starts its WHERE with it. It names the module key a second time as a literal
   * (customFieldIndexScope), the only way a statement may use the module's custom-field indexes.
   */
  listed: string;
  timeZone: string;
  weekStartDay: number | null;
  setup: RecordFilterSetup;
  fields: StoredField[];
  statuses: Map<string, StoredStatus>;
  closedStatusIds: Set<string>;
  users: FilterUsers;
}

/** What SQLite's plan for a window's statement does. */
interface QueryPlan {
  /**
   * It reads the window from one covering index in order (no row lookups, no sort): then any
   * offset is cheap and the plan is kept.
   */
  covering: boolean;
  /** It sorts the rows (a temporary B-tree for ORDER BY): see sortedWindow. */
  sorts: boolean;
}

interface EditRow {
  recordId: string;
  field: string;
  value: string;
}

interface RowWithJoins extends StoredRecordRow {
  owner_name: string | null;
  owner_email: string | null;
  comments_mirrored: number;
}

/** What the filter language needs to know about people, from the facts the mirror has. */
export function filterUsers(users: readonly StoredUser[]): FilterUsers {
  const out: FilterUsers = {};
  // A list is given only when some user's fact is known: an unknown list makes its condition an
  // error (a user must hear "not known offline"), never a silent "nobody".
  const known = (pick: (u: StoredUser) => unknown) => users.some((u) => pick(u) !== null);
  const ids = (test: (u: StoredUser) => boolean) => users.filter(test).map((u) => u.zpuid);
  if (known((u) => u.status)) {
    out.deactivated = ids((u) => u.status === 'deactivated');
    out.deleted = ids((u) => u.status === 'deleted');
  }
  if (known((u) => u.isTeamLead)) out.teamLeads = ids((u) => u.isTeamLead === 1);
  if (known((u) => u.inviteStatus)) {
    out.pending = ids((u) => u.inviteStatus === 'pending');
    out.accepted = ids((u) => u.inviteStatus === 'accepted');
  }
  if (known((u) => u.reportsTo)) {
    const reports: Record<string, string[]> = {};
    for (const user of users) {
      if (user.reportsTo === null) continue;
      (reports[user.reportsTo] ??= []).push(user.zpuid);
    }
    out.directReports = reports;
  }
  return out;
}

/** Stored edits (JSON values) grouped by record id, in the order they were made. */
function editsByRecord(
  rows: readonly { recordId: string; field: string; value: string }[],
): Map<string, RecordEdit[]> {
  const byRecord = new Map<string, RecordEdit[]>();
  for (const row of rows) {
    const list = byRecord.get(row.recordId) ?? [];
    list.push({ field: row.field, value: JSON.parse(row.value) as unknown });
    byRecord.set(row.recordId, list);
  }
  return byRecord;
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

function refuse(errors: readonly FilterError[]): RecordQueryError {
  const problems = formatFilterErrors(errors);
  return new RecordQueryError(
    `The filter cannot be used on the local copy: ${problems.join('; ')}. The list was left as it was; correct the filter and try again.`,
    problems,
  );
}

/**
 * Local lists for the UI: a module's records with a filter in the API's language, a sort and a
 * window (offset + limit) plus the total, for a virtual list.
 *
 * Rows without local edits are read from the record indexes (the window and, for indexed filters,
 * the count are index ranges); rows with pending edits are merged with them first and joined in
 * with UNION ALL. Counts are cached per module and filter until anything is written.
 */
export class RecordQuery {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly counts = new Map<string, number>();
  private readonly modules = new Map<string, ModuleContext>();
  private readonly edited = new Map<number, { rows: StoredRecordRow[]; json: string }>();
  /** SQLite's plan of each statement text asked about (queryPlan), until the schema changes. */
  private readonly plans = new Map<string, QueryPlan>();
  /** Rows of sorted windows read ahead (sortedWindow), until anything is written. */
  private readonly sortedWindows = new Map<
    string,
    { from: number; keys: number[]; complete: boolean }
  >();
  /**
   * The last listed count of each module: only a hint of which way counting it is cheaper (never
   * an answer), so it outlives the writes that clear `counts`.
   */
  private readonly listedSizes = new Map<number, number>();
  private version = '';
  private schemaVersion = -1;
  private readonly dataVersion: Database.Statement;
  private readonly pragmaDataVersion: Database.Statement;
  private readonly pragmaSchemaVersion: Database.Statement;
  private indexes: CustomFieldIndexUse | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly metadata: MetadataRepository,
    private readonly now: () => number = Date.now,
  ) {
    this.dataVersion = db.prepare(queries.dataVersion).pluck();
    // Read on every list: prepared once (db.pragma prepares its statement on each call).
    this.pragmaDataVersion = db.prepare('PRAGMA data_version').pluck();
    this.pragmaSchemaVersion = db.prepare('PRAGMA schema_version').pluck();
  }

  /**
   * Reports the custom-field expressions each list compares to `indexes`, which builds indexes
   * for them; null stops reporting. Without it lists read custom fields from every record's JSON.
   */
  useIndexes(indexes: CustomFieldIndexUse | null): void {
    this.indexes = indexes;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Most recently used last, so the first is the one to drop.
      this.statements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) {
        this.statements.delete(this.statements.keys().next().value as string);
      }
    }
    this.statements.set(sql, statement);
    return statement;
  }

  /** Drops what a write may have made stale. */
  private refresh(): void {
    // An index built or dropped (by the index worker's connection) changes which walks are covering.
    const schemaVersion = this.pragmaSchemaVersion.get() as number;
    if (schemaVersion !== this.schemaVersion) {
      this.schemaVersion = schemaVersion;
      this.plans.clear();
    }
    const version = `${String(this.dataVersion.get())}:${String(this.pragmaDataVersion.get())}`;
    if (version === this.version) return;
    this.version = version;
    this.counts.clear();
    this.modules.clear();
    this.edited.clear();
    this.sortedWindows.clear();
  }

  private context(portalId: string, moduleId: string): ModuleContext {
    const cacheKey = `${portalId}\u0000${moduleId}`;
    const known = this.modules.get(cacheKey);
    if (known) return known;
    const portal = this.metadata.portal(portalId);
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (!portal || moduleKey === undefined) {
      throw new RecordQueryError(
        `Module ${moduleId} of portal ${portalId} is not in the local mirror. Nothing was listed; sync the portal, then open the module again.`,
      );
    }
    const fields = this.metadata.fields(portalId, moduleId);
    const statuses = this.metadata.statuses(portalId, moduleId);
    const apiNames = new Map(fields.map((f) => [f.id, f.apiName]));
    const options = this.metadata
      .moduleOptions(portalId, moduleId)
      .filter((o) => o.kind === 'custom_option')
      .map((o) => ({
        fieldApiName: apiNames.get(o.fieldId) ?? '',
        valueId: o.valueId,
        value: o.value,
      }));
    const context: ModuleContext = {
      moduleKey,
      listed: `r.module_key = ? AND r.list_state = 0 AND ${customFieldIndexScope(moduleKey, 'r')}`,
      timeZone: portal.timeZone,
      weekStartDay: portal.weekStartDay,
      setup: recordFilterSetup(fields, statuses, options),
      fields,
      statuses: new Map(statuses.map((s) => [s.id, s])),
      closedStatusIds: new Set(statuses.filter((s) => s.isClosedType === 1).map((s) => s.id)),
      users: filterUsers(this.metadata.users(portalId)),
    };
    this.modules.set(cacheKey, context);
    return context;
  }

  private filterContext(context: ModuleContext): FilterContext {
    return {
      now: this.now(),
      timeZone: context.timeZone,
      ...(context.weekStartDay === null ? {} : { weekStartDay: context.weekStartDay }),
      users: context.users,
    };
  }

  private filterSql(context: ModuleContext, filter: string | undefined): RecordFilterSql {
    if (filter === undefined || filter.trim() === '')
      return { sql: '1', params: [], indexable: [] };
    const parsed = parseFilter(filter);
    if (!parsed.ok) throw refuse(parsed.errors);
    const problems = checkFilter(parsed.filter, context.setup.fields);
    if (problems.length > 0) throw refuse(problems);
    try {
      const compiled = compileFilter(
        parsed.filter,
        context.setup.fields,
        this.filterContext(context),
      );
      return recordFilterSql(compiled, context.setup);
    } catch (error) {
      if (error instanceof FilterCompileError) throw refuse(error.errors);
      throw error;
    }
  }

  /** The module's rows with pending edits, merged, and as the JSON the edited_rows CTE reads. */
  private editedRows(context: ModuleContext): { rows: StoredRecordRow[]; json: string } {
    const known = this.edited.get(context.moduleKey);
    if (known) return known;
    const rows = this.statement(queries.editedRows).all(context.moduleKey) as StoredRecordRow[];
    const byRecord = editsByRecord(
      this.statement(queries.editsOfModule).all(context.moduleKey) as EditRow[],
    );
    const merged = rows.map((row) =>
      mergeRecordEdits(row, byRecord.get(row.id) ?? [], context.closedStatusIds),
    );
    const result = { rows: merged, json: JSON.stringify(merged) };
    this.edited.set(context.moduleKey, result);
    return result;
  }

  /** What SQLite's plan for `sql` does; asked once per statement text. */
  private queryPlan(sql: string, params: unknown[]): QueryPlan {
    let plan = this.plans.get(sql);
    if (plan === undefined) {
      const steps = (
        this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]
      ).map((step) => step.detail);
      plan = {
        covering:
          steps.every(
            (step) => !/^(SEARCH|SCAN) r\b/.test(step) || step.includes('COVERING INDEX'),
          ) && !steps.some((step) => step.includes('TEMP B-TREE')),
        sorts: steps.some((step) => step.includes('TEMP B-TREE FOR ORDER BY')),
      };
      if (this.plans.size >= STATEMENT_CACHE_SIZE) this.plans.clear();
      this.plans.set(sql, plan);
    }
    return plan;
  }

  /**
   * Rows from..from+rows of a window SQLite has to sort (an order no index holds, such as a custom
   * field before its index is built: seconds at a million records). The sort costs the same for
   * SORTED_PREFETCH_ROWS rows as for a screenful, so that many are read and kept until a write:
   * the next windows of the scroll come from them instead of sorting again.
   */
  private sortedWindow(sql: string, base: unknown[], from: number, rows: number): number[] {
    const key = `${sql}\u0000${JSON.stringify(base)}`;
    const known = this.sortedWindows.get(key);
    if (
      known &&
      from >= known.from &&
      (from + rows <= known.from + known.keys.length || known.complete)
    ) {
      return known.keys.slice(from - known.from, from - known.from + rows);
    }
    const take = Math.max(rows, SORTED_PREFETCH_ROWS);
    const keys = this.statement(sql)
      .pluck()
      .all(...base, take, from) as number[];
    if (this.sortedWindows.size >= STATEMENT_CACHE_SIZE) this.sortedWindows.clear();
    this.sortedWindows.set(key, { from, keys, complete: keys.length < take });
    return keys.slice(0, rows);
  }

  /**
   * The module's listed server copies (list_state 0), unfiltered. Walking the module's index range
   * costs tens of milliseconds at a million rows; when the module holds most of the table, all
   * rows (counted by pages) minus the others is the same number at a fraction of the cost.
   */
  private listedCount(context: ModuleContext): number {
    const moduleKey = context.moduleKey;
    const all = this.statement(queries.countAll).pluck().get() as number;
    const hint = this.listedSizes.get(moduleKey);
    const listed =
      hint !== undefined && hint * 2 > all
        ? all - (this.statement(queries.countOutsideListed).pluck().get({ moduleKey }) as number)
        : (this.statement(`SELECT count(*) FROM records r WHERE ${context.listed}`)
            .pluck()
            .get(moduleKey) as number);
    this.listedSizes.set(moduleKey, listed);
    return listed;
  }

  private countKey(context: ModuleContext, where: SqlFragment): string {
    return `${context.moduleKey}\u0000${where.sql}\u0000${JSON.stringify(where.params)}`;
  }

  private count(context: ModuleContext, where: SqlFragment, edited: string | null): number {
    const key = this.countKey(context, where);
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    let total =
      where.sql === '1'
        ? this.listedCount(context)
        : (this.statement(`SELECT count(*) FROM records r WHERE ${context.listed} AND ${where.sql}`)
            .pluck()
            .get(context.moduleKey, ...where.params) as number);
    if (edited !== null) {
      total += this.statement(
        `WITH ${queries.editedRowsCte} SELECT count(*) FROM edited_rows r WHERE ${where.sql}`,
      )
        .pluck()
        .get(edited, ...where.params) as number;
    }
    this.counts.set(key, total);
    return total;
  }

  /**
   * The first window of a filter whose count is not known yet, when it holds every match: then
   * it is also the count. Only for filters read from the sort order's covering index, whose walk
   * stops after `limit` matches: a `contains` matching few of a million names reads the index
   * once instead of twice (count, then window); one matching many stops early and is counted.
   */
  private wholeFirstWindow(
    context: ModuleContext,
    where: SqlFragment,
    plan: SortPlan,
    edited: string | null,
    offset: number,
    limit: number,
  ): number[] | null {
    if (offset !== 0 || edited !== null || where.sql === '1') return null;
    const key = this.countKey(context, where);
    if (this.counts.has(key)) return null;
    const walk =
      `SELECT r.row_key FROM records r WHERE ${context.listed} AND ${where.sql} ` +
      `ORDER BY ${orderByTerms(plan, plan.key, 'r.id')} LIMIT ? OFFSET ?`;
    const params = [context.moduleKey, ...where.params, limit, 0];
    if (!this.queryPlan(walk, params).covering) return null;
    const keys = this.statement(walk)
      .pluck()
      .all(...params) as number[];
    if (keys.length === limit) return null;
    this.counts.set(key, keys.length);
    return keys;
  }

  private windowKeys(
    context: ModuleContext,
    where: SqlFragment,
    plan: SortPlan,
    edited: string | null,
    offset: number,
    limit: number,
    total: number,
  ): number[] {
    const base = `FROM records r WHERE ${context.listed} AND ${where.sql}`;
    if (edited === null && plan.byStatus) {
      // No index holds the workflow position: read the window status by status instead.
      const { order, from, rows, reversed } = nearerEnd(plan, offset, limit, total);
      const keys = this.statusWindowKeys(context, where, order, from, rows);
      return reversed ? keys.reverse() : keys;
    }
    if (edited === null) {
      // A window past the middle is read from the other end: OFFSET steps over every row before
      // it, so the deepest window then passes half the rows instead of all of them.
      const { order, from, rows, reversed } = nearerEnd(plan, offset, limit, total);
      const walk = `SELECT r.row_key ${base} ORDER BY ${orderByTerms(order, order.key, 'r.id')} LIMIT ? OFFSET ?`;
      const params = [context.moduleKey, ...where.params, rows, from];
      // Unary + keeps SQLite from walking an index for the order: it filters, then sorts.
      const sql =
        where.sql !== '1' &&
        offset + limit > total * SORTED_WALK_SHARE &&
        !this.queryPlan(walk, params).covering
          ? `SELECT r.row_key ${base} ORDER BY ${orderByTerms(order, `+${order.key}`, '+r.id')} LIMIT ? OFFSET ?`
          : walk;
      const keys = this.queryPlan(sql, params).sorts
        ? this.sortedWindow(sql, params.slice(0, -2), from, rows)
        : (this.statement(sql)
            .pluck()
            .all(...params) as number[]);
      return reversed ? keys.reverse() : keys;
    }
    const columns = `r.row_key AS row_key, ${plan.key} AS sort_key, r.id AS sort_id`;
    const sql =
      `WITH ${queries.editedRowsCte} SELECT ${columns} ${base} ` +
      `UNION ALL SELECT ${columns} FROM edited_rows r WHERE ${where.sql} ` +
      `ORDER BY ${orderByTerms(plan, 'sort_key', 'sort_id')} LIMIT ? OFFSET ?`;
    return (
      this.statement(sql).all(
        edited,
        context.moduleKey,
        ...where.params,
        ...where.params,
        limit,
        offset,
      ) as { row_key: number }[]
    ).map((row) => row.row_key);
  }

  /** Rows of the status order, segment by segment (statusWindow.ts); segment counts are cached. */
  private statusWindowKeys(
    context: ModuleContext,
    where: SqlFragment,
    order: SortPlan,
    offset: number,
    limit: number,
  ): number[] {
    const segments = statusSegments([...context.statuses.values()], order);
    const from = (segment: StatusSegment) =>
      `FROM records r WHERE ${context.listed} AND ${segment.condition} ` + `AND (${where.sql})`;
    const params = (segment: StatusSegment) => [
      context.moduleKey,
      ...segment.params,
      ...where.params,
    ];
    const size = (index: number): number => {
      const segment = segments[index]!;
      const key = `${this.countKey(context, where)}\u0000status\u0000${segment.condition}\u0000${segment.params.join(',')}`;
      const known = this.counts.get(key);
      if (known !== undefined) return known;
      const rows = this.statement(`SELECT count(*) ${from(segment)}`)
        .pluck()
        .get(...params(segment)) as number;
      this.counts.set(key, rows);
      return rows;
    };
    const direction = order.descending ? 'DESC' : 'ASC';
    return windowParts(size, segments.length, offset, limit).flatMap(({ segment, skip, take }) => {
      const chosen = segments[segment]!;
      return this.statement(
        `SELECT r.row_key ${from(chosen)} ORDER BY r.id ${direction} LIMIT ? OFFSET ?`,
      )
        .pluck()
        .all(...params(chosen), take, skip) as number[];
    });
  }

  private views(context: ModuleContext, moduleId: string, keys: number[]): MirrorRecordView[] {
    if (keys.length === 0) return [];
    const rows = this.statement(queries.rowsByKeys).all(JSON.stringify(keys)) as RowWithJoins[];
    const byKey = new Map(rows.map((row) => [row.row_key, row]));
    const portalId = rows[0]?.portal_id ?? '';
    const byRecord = editsByRecord(
      this.statement(queries.editsOf).all(
        portalId,
        JSON.stringify(rows.map((r) => r.id)),
      ) as EditRow[],
    );
    return keys.flatMap((key) => {
      const stored = byKey.get(key);
      if (!stored) return [];
      const recordEdits = byRecord.get(stored.id) ?? [];
      const row = mergeRecordEdits(stored, recordEdits, context.closedStatusIds);
      const status = row.status_id === null ? undefined : context.statuses.get(row.status_id);
      const view: MirrorRecordView = recordRowOf(
        stored,
        moduleId,
        row,
        recordEdits,
        status && {
          name: status.name,
          color: status.color,
          isClosedType: status.isClosedType === 1,
        },
        { name: stored.owner_name, email: stored.owner_email },
      );
      return [view];
    });
  }

  /**
   * One window of a module's records and the total. Throws RecordQueryError for an unknown module,
   * a filter the local copy cannot apply, an unsortable field or a window out of range.
   */
  queryRecords(input: RecordQueryInput): RecordWindow {
    const { offset, limit } = input;
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new RecordQueryError(`The list offset must be a whole number from 0, not ${offset}.`);
    }
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_WINDOW_ROWS) {
      throw new RecordQueryError(
        `A list window holds 1 to ${MAX_WINDOW_ROWS} rows, not ${limit}. Nothing was listed; ask for a smaller window.`,
      );
    }
    this.refresh();
    const context = this.context(input.portalId, input.moduleId);
    const where = this.filterSql(context, input.filter);
    const plan = recordSortPlan(
      input.sort,
      context.fields,
      context.setup.bindings.is_closed?.expr ?? '0',
    );
    if (this.indexes) {
      const expressions = plan.custom ? [...where.indexable, plan.key] : where.indexable;
      if (expressions.length > 0) this.indexes.used(context.moduleKey, expressions);
    }
    const edited = this.editedRows(context);
    const editedJson = edited.rows.length === 0 ? null : edited.json;
    const whole = this.wholeFirstWindow(context, where, plan, editedJson, offset, limit);
    if (whole) return { rows: this.views(context, input.moduleId, whole), total: whole.length };
    const total = this.count(context, where, editedJson);
    const keys =
      offset >= total
        ? []
        : this.windowKeys(context, where, plan, editedJson, offset, limit, total);
    return { rows: this.views(context, input.moduleId, keys), total };
  }
}
