/**
 * Local lists for the UI: a module's records with a filter in the API's language, a sort and a
 * window (offset + limit) plus the total, for a virtual list.
 *
 * Rows without local edits are read from the record indexes (the window and, for indexed filters,
 * the count are index ranges); rows with pending edits are merged with them first and joined in
 * with UNION ALL. What a list reads is kept until anything is written: this class owns that
 * rule (refresh) and the caches it clears; the pieces are
 *
 * - moduleContext.ts: the module's facts; listFilter.ts: the filter as SQL;
 * - recordCounts.ts: the counts; editedRows.ts: the merged edited rows;
 * - listLookups.ts: a multi-select's or a name's lookup (counts, and a sparse filter's rows);
 * - windowKeys.ts (statusWindowKeys.ts, sortedWindows.ts): which rows a window shows;
 * - recordViews.ts: those rows as the lists show them;
 * - listStatements.ts: the statements, prepared once, and their plans.
 *
 * `openView` is the same list read whole (its row keys, then their rows a batch at a time): an
 * export walks a million rows once instead of paging them by offset.
 */
import type Database from 'better-sqlite3';
import { EditedRows } from './editedRows';
import { listFilterSql } from './listFilter';
import { ListLookups } from './listLookups';
import { listQueries as queries, QueryPlans, StatementCache } from './listStatements';
import type { MetadataRepository } from './metadataRepository';
import type { MirrorRecordView } from './mirrorTypes';
import { loadModuleContext, type ModuleContext } from './moduleContext';
import { RecordCounts } from './recordCounts';
import { RecordQueryError } from './recordQueryError';
import { LIST_IDS_MAX } from '../../../shared/ipc/areas/records';
import { recordSortPlan, sortIndexExpression, type RecordSort } from './recordSort';
import { columnRows, columnRowsPlan } from './columnRows';
import { recordViews } from './recordViews';
import { SortedWindows } from './sortedWindows';
import { wholeFirstWindow, windowKeys, type WindowAsk, type WindowReader } from './windowKeys';

/** The most rows one window returns: a virtual list asks for a screenful or a few. */
export const MAX_WINDOW_ROWS = 1000;

/** A window's offset and limit, refused in words outside 0.. and 1..`most`. */
function checkWindow(offset: number, limit: number, most: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RecordQueryError(`The list offset must be a whole number from 0, not ${offset}.`);
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > most) {
    throw new RecordQueryError(
      `A list window holds 1 to ${most} rows, not ${limit}. Nothing was listed; ask for a smaller window.`,
    );
  }
}

/**
 * The statement `listedAmong` reads the listed server copies with: the asked ids first (CROSS
 * JOIN), each record found by (portal, id), then the filter tested on it. `filter` is the
 * filter's `probe` form, which tests a multi-select's option per row: its `sql` form reads the
 * option's rows as a list that SQLite folded into every id's lookup (1.8 s for 5,000 ids over
 * 6,000 rows, minutes at a million). Exported for its plan test.
 */
export function listedAmongSql(listed: string, filter: string): string {
  return (
    `SELECT r.id FROM (SELECT value AS id FROM json_each(?)) w ` +
    `CROSS JOIN records r ON r.portal_id = ? AND r.id = w.id WHERE ${listed} AND ${filter}`
  );
}

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

/** A whole list, in its order, read a batch at a time (the records export). */
export interface RecordViewRows {
  /** How many rows the list held when it was opened. */
  readonly total: number;
  /** The list's row keys, in its order, as it was opened (`rowsOfKeys` reads them elsewhere). */
  readonly keys: readonly number[];
  /** Rows from..from + count of the list as it was opened, with their values as they are now. */
  read(from: number, count: number): MirrorRecordView[];
}

export interface RecordWindow {
  rows: MirrorRecordView[];
  /** How many records match the filter in all. */
  total: number;
}

export class RecordQuery {
  private readonly statements: StatementCache;
  private readonly reader: WindowReader;
  private readonly edited: EditedRows;
  private readonly modules = new Map<string, ModuleContext>();
  private version = '';
  private schemaVersion = -1;
  private readonly dataVersion: Database.Statement;
  private readonly pragmaDataVersion: Database.Statement;
  private readonly pragmaSchemaVersion: Database.Statement;
  private indexes: CustomFieldIndexUse | null = null;

  constructor(
    db: Database.Database,
    private readonly metadata: MetadataRepository,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = new StatementCache(db);
    const lookups = new ListLookups(this.statements);
    this.reader = {
      statements: this.statements,
      plans: new QueryPlans(db),
      counts: new RecordCounts(this.statements, lookups),
      sortedWindows: new SortedWindows(this.statements),
      lookups,
    };
    this.edited = new EditedRows(this.statements);
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

  /** Drops what a write may have made stale. */
  private refresh(): void {
    // An index built or dropped (by the index worker's connection) changes which walks are covering.
    const schemaVersion = this.pragmaSchemaVersion.get() as number;
    if (schemaVersion !== this.schemaVersion) {
      this.schemaVersion = schemaVersion;
      this.reader.plans.clear();
    }
    const version = `${String(this.dataVersion.get())}:${String(this.pragmaDataVersion.get())}`;
    if (version === this.version) return;
    this.version = version;
    this.reader.counts.clear();
    this.modules.clear();
    this.edited.clear();
    this.reader.sortedWindows.clear();
  }

  private context(portalId: string, moduleId: string): ModuleContext {
    const cacheKey = `${portalId}\u0000${moduleId}`;
    const known = this.modules.get(cacheKey);
    if (known) return known;
    const context = loadModuleContext(this.metadata, portalId, moduleId);
    this.modules.set(cacheKey, context);
    return context;
  }

  /**
   * One window of a module's records and the total. Throws RecordQueryError for an unknown module,
   * a filter the local copy cannot apply, an unsortable field or a window out of range.
   */
  queryRecords(input: RecordQueryInput): RecordWindow {
    checkWindow(input.offset, input.limit, MAX_WINDOW_ROWS);
    const { context, keys, total } = this.windowOf(input);
    return { rows: recordViews(this.statements, context, input.moduleId, keys), total };
  }

  /**
   * The ids of the same window as `queryRecords` (up to LIST_IDS_MAX rows) and the total, read at
   * once: a range of rows the table selects is resolved from one reading of the list, so the rows
   * it names are the rows the window showed, not rows moved into their places between two reads.
   */
  listIds(input: RecordQueryInput): { ids: string[]; total: number } {
    checkWindow(input.offset, input.limit, LIST_IDS_MAX);
    const { keys, total } = this.windowOf(input);
    const ids = new Map<number, string>();
    if (keys.length > 0) {
      const pairs = this.statements.get(queries.idsOfKeys).raw(true).all(JSON.stringify(keys)) as [
        number,
        string,
      ][];
      for (const [key, id] of pairs) ids.set(key, id);
    }
    return { ids: keys.flatMap((key) => ids.get(key) ?? []), total };
  }

  /**
   * The records of `ids` that are in the module's lists (not trashed, not deleted, not another
   * module's), as the lists show them, in the order of `ids`: the rows a selection names, read
   * again now (Copy). Throws RecordQueryError for an unknown portal or module.
   */
  rowsOfIds(
    input: Pick<RecordQueryInput, 'portalId' | 'moduleId'>,
    ids: readonly string[],
  ): MirrorRecordView[] {
    if (ids.length > LIST_IDS_MAX) {
      throw new RecordQueryError(
        `${ids.length} records were asked for at once; at most ${LIST_IDS_MAX} are read together. Nothing was read.`,
      );
    }
    this.refresh();
    const context = this.context(input.portalId, input.moduleId);
    if (ids.length === 0) return [];
    const pairs = this.statements
      .get(queries.keysOfIds)
      .raw(true)
      .all(input.portalId, context.moduleKey, JSON.stringify(ids)) as [string, number][];
    const keyOf = new Map(pairs);
    const keys = [...new Set(ids)].flatMap((id) => keyOf.get(id) ?? []);
    return recordViews(this.statements, context, input.moduleId, keys);
  }

  /**
   * Which of `ids` the list of `input` (its filter, local edits laid over) holds now, in the
   * order of `ids`: a selection drops the records a sync trashed, deleted or changed out of the
   * filter. Each id is looked up by (portal, id), never by reading the list. Throws
   * RecordQueryError like `queryRecords`.
   */
  listedAmong(
    input: Omit<RecordQueryInput, 'offset' | 'limit' | 'sort'>,
    ids: readonly string[],
  ): string[] {
    if (ids.length > LIST_IDS_MAX) {
      throw new RecordQueryError(
        `${ids.length} records were asked for at once; at most ${LIST_IDS_MAX} are read together. Nothing was read.`,
      );
    }
    const { context, where, edited } = this.windowAsk(input, 0, 0);
    if (ids.length === 0) return [];
    const asked = JSON.stringify([...new Set(ids)]);
    // CROSS JOIN: SQLite starts from the ids, one lookup each, whatever the filter.
    const listed = this.statements
      .get(listedAmongSql(context.listed, where.probe))
      .pluck()
      .all(asked, input.portalId, context.moduleKey, ...where.params) as string[];
    const held = new Set(listed);
    if (edited !== null) {
      const mergedRows = this.statements
        .get(
          `WITH ${queries.editedRowsCte} SELECT r.id FROM edited_rows r ` +
            `WHERE r.id IN (SELECT value FROM json_each(?)) AND ${where.edited.sql}`,
        )
        .pluck()
        .all(edited, asked, ...where.edited.params) as string[];
      for (const id of mergedRows) held.add(id);
    }
    const seen = new Set<string>();
    return ids.filter((id) => held.has(id) && !seen.has(id) && Boolean(seen.add(id)));
  }

  /** The row keys of a window and the list's total (the window's limit checked by the caller). */
  private windowOf(input: RecordQueryInput): {
    context: ModuleContext;
    keys: number[];
    total: number;
  } {
    const { offset, limit } = input;
    const ask = this.windowAsk(input, offset, limit);
    const { context, where, plan } = ask;
    if (this.indexes) {
      const expressions = plan.custom
        ? [...where.indexable, sortIndexExpression(plan)]
        : where.indexable;
      if (expressions.length > 0) this.indexes.used(context.moduleKey, expressions);
    }
    const whole = wholeFirstWindow(this.reader, ask);
    if (whole) return { context, keys: whole, total: whole.length };
    const total = this.reader.counts.count(context, where, ask.edited);
    const keys = offset >= total ? [] : windowKeys(this.reader, ask, total);
    return { context, keys, total };
  }

  /**
   * The whole list of `input` (every window of `queryRecords` one after the other): its row keys
   * in order are read now, a few MB at a million rows, and their rows when asked. A record
   * deleted meanwhile is left out of its batch; one written meanwhile shows its new values.
   * Throws RecordQueryError like `queryRecords`. With `columns` (fields' keys), only what they show
   * is read (columnRows.ts: an export's file holds nothing else).
   */
  openView(
    input: Omit<RecordQueryInput, 'offset' | 'limit'>,
    columns?: readonly string[],
  ): RecordViewRows {
    const ask = this.windowAsk(input, 0, 0);
    const { context, where } = ask;
    const total = this.reader.counts.count(context, where, ask.edited);
    // Its own read-ahead: the whole order is not kept in the lists' cache after the export.
    const reader: WindowReader = {
      ...this.reader,
      sortedWindows: new SortedWindows(this.statements),
    };
    const keys = total === 0 ? [] : windowKeys(reader, { ...ask, limit: total }, total);
    return this.viewRows(context, input, keys, columns);
  }

  /**
   * The module's records in the recycle bin, read as `openView`'s rows are (in no list's order):
   * what tells a value held only by a trashed record from one no record holds.
   */
  openTrashedView(input: Pick<RecordQueryInput, 'portalId' | 'moduleId'>): RecordViewRows {
    this.refresh();
    const context = this.context(input.portalId, input.moduleId);
    const statement = this.statements.get(queries.trashedKeys);
    const keys = statement.pluck(true).all(context.moduleKey) as number[];
    return this.viewRows(context, input, keys, undefined);
  }

  /**
   * The rows of a list `openView` opened, perhaps on another connection (an export's helper
   * threads each read their share of one view): `keys` in their order, read as `openView`'s rows
   * are (for `columns` too). Throws RecordQueryError for an unknown portal or module.
   */
  rowsOfKeys(
    input: Pick<RecordQueryInput, 'portalId' | 'moduleId'>,
    keys: readonly number[],
    columns?: readonly string[],
  ): RecordViewRows {
    this.refresh();
    return this.viewRows(this.context(input.portalId, input.moduleId), input, keys, columns);
  }

  private viewRows(
    context: ModuleContext,
    view: Pick<RecordQueryInput, 'portalId' | 'moduleId'>,
    keys: readonly number[],
    columns: readonly string[] | undefined,
  ): RecordViewRows {
    const { statements } = this;
    const plan = columns === undefined ? null : columnRowsPlan(columns);
    const portalView = { portalId: view.portalId, moduleId: view.moduleId };
    return {
      total: keys.length,
      keys,
      read: (from, count) =>
        plan
          ? columnRows(statements, context, portalView, keys.slice(from, from + count), plan)
          : recordViews(statements, context, view.moduleId, keys.slice(from, from + count)),
    };
  }

  /**
   * Refuses (RecordQueryError) what `openView` would refuse (an unknown portal or module, a filter
   * or sort the mirror cannot apply) without reading the list: cheap, for checking a view before
   * it is opened elsewhere (an export's own thread).
   */
  checkView(input: Omit<RecordQueryInput, 'offset' | 'limit'>): void {
    this.windowAsk(input, 0, 0);
  }

  /** What a list of `input` asks the window readers, with the caches made fresh first. */
  private windowAsk(
    input: Omit<RecordQueryInput, 'offset' | 'limit'>,
    offset: number,
    limit: number,
  ): WindowAsk {
    this.refresh();
    const context = this.context(input.portalId, input.moduleId);
    const edited = this.edited.of(context);
    return {
      context,
      where: listFilterSql(context, input.filter, this.now),
      plan: recordSortPlan(
        input.sort,
        context.fields,
        context.setup.bindings.is_closed?.expr ?? '0',
        context.relabel,
      ),
      edited: edited.rows.length === 0 ? null : edited.json,
      offset,
      limit,
    };
  }
}
