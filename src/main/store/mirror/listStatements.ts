/**
 * The SQL a list runs: the named pieces of mirrorQuery.sql, the statements put together from them
 * and a filter (prepared once, the recently used kept), and what SQLite's plan of each does
 * (asked once per statement text, until the schema changes).
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import querySql from '../queries/mirrorQuery.sql?raw';

export const listQueries = requireQueries(
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
    'columnRowsByKeys',
    'ownersOfZpuids',
    'idsOfKeys',
    'keysOfIds',
    'trashedKeys',
  ] as const,
  'mirrorQuery.sql',
);

/** Prepared statements kept for filters and sorts seen recently (and plans, windows read ahead). */
export const STATEMENT_CACHE_SIZE = 64;

/** Prepared statements by their text, the least recently used dropped first. */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
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
}

/** What SQLite's plan for a window's statement does. */
export interface QueryPlan {
  /**
   * It reads the window from one covering index in order (no row lookups, no sort): then any
   * offset is cheap and the plan is kept.
   */
  covering: boolean;
  /** It sorts the rows (a temporary B-tree for ORDER BY): see SortedWindows. */
  sorts: boolean;
}

/** A plan from the `detail` lines of EXPLAIN QUERY PLAN, the records aliased `r`. Pure. */
export function queryPlanOf(steps: readonly string[]): QueryPlan {
  return {
    covering:
      steps.every((step) => !/^(SEARCH|SCAN) r\b/.test(step) || step.includes('COVERING INDEX')) &&
      !steps.some((step) => step.includes('TEMP B-TREE')),
    sorts: steps.some((step) => step.includes('TEMP B-TREE FOR ORDER BY')),
  };
}

/** SQLite's plan of each statement text asked about, until the schema changes (clear). */
export class QueryPlans {
  private readonly plans = new Map<string, QueryPlan>();

  constructor(private readonly db: Database.Database) {}

  of(sql: string, params: unknown[]): QueryPlan {
    let plan = this.plans.get(sql);
    if (plan === undefined) {
      plan = queryPlanOf(
        (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
          (step) => step.detail,
        ),
      );
      if (this.plans.size >= STATEMENT_CACHE_SIZE) this.plans.clear();
      this.plans.set(sql, plan);
    }
    return plan;
  }

  /** An index built or dropped (by the index worker's connection) changes which walks cover. */
  clear(): void {
    this.plans.clear();
  }
}
