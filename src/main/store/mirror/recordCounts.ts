/**
 * How many records a list's filter matches, cached per module and filter until anything is
 * written (RecordQuery clears it). Rows without local edits are counted from the record indexes
 * (for indexed filters, an index range), or from the filter's lookup (listLookups.ts: a
 * multi-select's option or a name's needle, counted without reading a record; or the few rows a
 * sparse filter can start from); rows with pending edits are counted from the merged edited rows
 * and added.
 */
import type { SqlFragment } from '@portaldesk/portal-api/filter';
import { MAX_LOOKUP_ROWS, type ListLookups } from './listLookups';
import { listQueries as queries, type StatementCache } from './listStatements';
import type { ModuleContext } from './moduleContext';
import type { RecordFilterSql } from './recordFilterSql';

export class RecordCounts {
  private readonly counts = new Map<string, number>();
  /**
   * The last listed count of each module: only a hint of which way counting it is cheaper (never
   * an answer), so it outlives the writes that clear `counts`.
   */
  private readonly listedSizes = new Map<number, number>();
  /** The table's rows when last counted: a hint too, beside `listedSizes`. */
  private tableRows: number | undefined;

  constructor(
    private readonly statements: StatementCache,
    private readonly lookups: ListLookups,
  ) {}

  /** Anything was written: every count may be stale (the size hints stay). */
  clear(): void {
    this.counts.clear();
  }

  private key(context: ModuleContext, where: SqlFragment): string {
    return `${context.moduleKey}\u0000${where.sql}\u0000${JSON.stringify(where.params)}`;
  }

  /** Whether the filter's count is cached. */
  has(context: ModuleContext, where: SqlFragment): boolean {
    return this.counts.has(this.key(context, where));
  }

  /** A count found another way (a first window that held every match). */
  remember(context: ModuleContext, where: SqlFragment, total: number): void {
    this.counts.set(this.key(context, where), total);
  }

  /** The matches of `where`, with the edited rows (`edited`: their JSON, or null for none). */
  count(context: ModuleContext, where: RecordFilterSql, edited: string | null): number {
    const key = this.key(context, where);
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    let total = where.sql === '1' ? this.listedCount(context) : this.listedMatches(context, where);
    if (edited !== null) {
      total += this.statements
        .get(
          `WITH ${queries.editedRowsCte} SELECT count(*) FROM edited_rows r WHERE ${where.edited.sql}`,
        )
        .pluck()
        .get(edited, ...where.edited.params) as number;
    }
    this.counts.set(key, total);
    return total;
  }

  /** The listed server copies `where` matches: from its lookup if it has one that fits, else read. */
  private listedMatches(context: ModuleContext, where: RecordFilterSql): number {
    const lookup = where.lookup;
    if (lookup) {
      const counted = this.lookups.count(
        context,
        lookup,
        () => this.listedCount(context),
        () => this.statements.get(queries.countAll).pluck().get() as number,
      );
      if (counted !== undefined) return counted;
      const candidates = this.lookups.candidates(context, lookup);
      if (candidates !== undefined && candidates <= MAX_LOOKUP_ROWS) {
        const rows = this.lookups.rows(context, lookup);
        return this.statements
          .get(
            `SELECT count(*) FROM (${rows.sql}) m CROSS JOIN records r ON r.row_key = m.row_key ` +
              `WHERE ${context.listed} AND ${where.sql}`,
          )
          .pluck()
          .get(...rows.params, context.moduleKey, ...where.params) as number;
      }
    }
    return this.statements
      .get(`SELECT count(*) FROM records r WHERE ${context.listed} AND ${where.sql}`)
      .pluck()
      .get(context.moduleKey, ...where.params) as number;
  }

  /** A count of one part of the filter's matches (`part` names it, e.g. a status segment). */
  part(context: ModuleContext, where: SqlFragment, part: string, read: () => number): number {
    const key = `${this.key(context, where)}\u0000${part}`;
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const rows = read();
    this.counts.set(key, rows);
    return rows;
  }

  /**
   * The module's listed server copies (list_state 0), unfiltered. Walking the module's index range
   * costs tens of milliseconds at a million rows; when the module holds most of the table, all
   * rows (counted by pages) minus the others is the same number at a fraction of the cost.
   */
  listedCount(context: ModuleContext): number {
    const moduleKey = context.moduleKey;
    const hint = this.listedSizes.get(moduleKey);
    // Counting every row reads the whole of the smallest index: cheap while its pages are cached,
    // but another connection's commit (the writer thread's, every page of a sync) empties this
    // connection's cache, and at 320,000 rows it then cost most of a 17 ms list answer. So it is
    // counted only for a module that may hold most of the table (both ways give the same count).
    const mayHoldMost =
      hint === undefined || this.tableRows === undefined || hint * 2 > this.tableRows;
    const all = mayHoldMost ? this.countTable() : undefined;
    const listed =
      hint !== undefined && all !== undefined && hint * 2 > all
        ? all -
          (this.statements.get(queries.countOutsideListed).pluck().get({ moduleKey }) as number)
        : (this.statements
            .get(`SELECT count(*) FROM records r WHERE ${context.listed}`)
            .pluck()
            .get(moduleKey) as number);
    this.listedSizes.set(moduleKey, listed);
    return listed;
  }

  private countTable(): number {
    const all = this.statements.get(queries.countAll).pluck().get() as number;
    this.tableRows = all;
    return all;
  }
}
