/**
 * The lookups a filter may have (filterLookup.ts) read for a list: a multi-select's records from
 * record_multi_values, the records whose name holds a needle from record_name_trigrams
 * (migrations/0017_list_lookups.sql). They count a filter that is one such condition without
 * reading a record, and give the few rows a sparse filter's statement can start from.
 *
 * The name trigrams are kept in bulk with the full-text index, so some rows may be waiting for
 * the next flush (mirrorListLookups.sql, `waitingNames`): those are read from `records` (their
 * names tested as the filter tests them), the trigrams answer for the others. They hold every
 * module's rows: a module's matches are all matches minus the others' (and minus its own edited
 * and trashed rows), read from the name index, so that is used only when the module holds at
 * least half of the records; a smaller module is scanned instead.
 */
import type { SqlFragment } from '@portaldesk/portal-api/filter';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import lookupsSql from '../queries/mirrorListLookups.sql?raw';
import type { FilterLookup } from './filterLookup';
import type { StatementCache } from './listStatements';
import type { ModuleContext } from './moduleContext';

const queries = requireQueries(
  parseNamedQueries(lookupsSql, 'mirrorListLookups.sql'),
  [
    'multiValueCount',
    'multiValueRange',
    'multiValuesCount',
    'multiValueRows',
    'waitingNames',
    'waitingNameCount',
    'namesQueued',
    'nameMatchCount',
    'nameMatchCountUnqueued',
    'nameMatchRows',
  ] as const,
  'mirrorListLookups.sql',
);

/**
 * Ours: a statement starts from a lookup's rows (a row lookup each, then a sort) when they are at
 * most this many; more, and walking an index order that stops after a window costs less. At a
 * million records a row lookup costs 1-3 µs, so this many cost 20-60 ms (bench/store.mjs).
 */
export const MAX_LOOKUP_ROWS = 20_000;

/**
 * Ours: up to this many options are counted as a UNION of their ranges, which SQLite merges in
 * row_key order; more, as one set of row keys SQLite sorts (two options of a quarter of a million
 * records each: measured below).
 */
const MAX_MERGED_OPTIONS = 8;

/** Needles as an FTS5 query over the trigram index: each a phrase (quotes doubled), any of them. */
export function trigramMatch(needles: readonly string[]): string {
  return needles.map((needle) => `"${needle.replaceAll('"', '""')}"`).join(' OR ');
}

/** The test of `needles` on a row's folded name, as the filter SQL writes it (recordFilterSql.ts). */
function nameTest(needles: readonly string[]): string {
  return `(${needles.map(() => 'instr(r.name_fold, ?) > 0').join(' OR ')})`;
}

export class ListLookups {
  constructor(private readonly statements: StatementCache) {}

  private valuesCount(context: ModuleContext, field: string, values: readonly string[]): number {
    const { moduleKey } = context;
    if (values.length === 1) {
      return this.statements
        .get(queries.multiValueCount)
        .pluck()
        .get(moduleKey, field, values[0]) as number;
    }
    if (values.length <= MAX_MERGED_OPTIONS) {
      const union = values.map(() => queries.multiValueRange).join(' UNION ');
      return this.statements
        .get(`SELECT count(*) FROM (${union})`)
        .pluck()
        .get(...values.flatMap((value) => [moduleKey, field, value])) as number;
    }
    return this.statements
      .get(queries.multiValuesCount)
      .pluck()
      .get(moduleKey, field, JSON.stringify(values)) as number;
  }

  /**
   * The listed server copies matching a filter that is the lookup's condition (`whole`), or
   * undefined when the lookup does not count it. `listed`: the module's listed server copies;
   * `all`: every record of the store.
   */
  count(
    context: ModuleContext,
    lookup: FilterLookup,
    listed: () => number,
    all: () => number,
  ): number | undefined {
    if (lookup.whole === null) return undefined;
    let matches: number;
    if (lookup.kind === 'values') {
      matches = this.valuesCount(context, lookup.field, lookup.values);
    } else {
      if (listed() * 2 <= all()) return undefined;
      matches =
        this.nameMatchesNow(lookup.needles) - this.namesOutsideListed(context, lookup.needles);
    }
    return lookup.whole === 'is' ? matches : listed() - matches;
  }

  /**
   * How many rows the lookup's statement would start from, at most (for names: of every module),
   * or undefined when it cannot start from them (a negated condition).
   */
  candidates(context: ModuleContext, lookup: FilterLookup): number | undefined {
    if (lookup.whole === 'not') return undefined;
    if (lookup.kind === 'values') return this.valuesCount(context, lookup.field, lookup.values);
    const matches = this.statements
      .get(queries.nameMatchCount)
      .pluck()
      .get(trigramMatch(lookup.needles)) as number;
    return matches + (this.statements.get(queries.waitingNameCount).pluck().get() as number);
  }

  /** The lookup's rows, a SELECT of `row_key` for a statement to start from (see candidates). */
  rows(context: ModuleContext, lookup: FilterLookup): SqlFragment {
    return lookup.kind === 'values'
      ? {
          sql: queries.multiValueRows,
          params: [context.moduleKey, lookup.field, JSON.stringify(lookup.values)],
        }
      : { sql: queries.nameMatchRows, params: [trigramMatch(lookup.needles)] };
  }

  /**
   * Records of every module whose name, as it is now, holds a needle: the trigrams' matches but
   * the queued rows (there with their old names), and the waiting rows whose names hold one.
   */
  private nameMatchesNow(needles: readonly string[]): number {
    const queued = this.statements.get(queries.namesQueued).pluck().get() === 1;
    const indexed = this.statements
      .get(queued ? queries.nameMatchCountUnqueued : queries.nameMatchCount)
      .pluck()
      .get(trigramMatch(needles)) as number;
    const waiting = this.statements
      .get(
        `SELECT count(*) FROM (${queries.waitingNames}) w CROSS JOIN records r ` +
          `ON r.row_key = w.row_key WHERE ${nameTest(needles)}`,
      )
      .pluck()
      .get(...needles) as number;
    return indexed + waiting;
  }

  /**
   * Records matching the needles that are not the module's listed server copies: the other
   * modules' and the module's edited and trashed rows, three ranges of the name index (waiting
   * rows included: nameMatchesNow counts them by their names as they are, as this does).
   */
  private namesOutsideListed(context: ModuleContext, needles: readonly string[]): number {
    const test = nameTest(needles);
    const part = (range: string) => `(SELECT count(*) FROM records r WHERE ${range} AND ${test})`;
    const sql = `SELECT ${part('r.module_key < ?')} + ${part('r.module_key > ?')} + ${part('r.module_key = ? AND r.list_state > 0')}`;
    const params = [context.moduleKey, ...needles];
    return this.statements
      .get(sql)
      .pluck()
      .get(...params, ...params, ...params) as number;
  }
}
