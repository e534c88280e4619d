import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import requestBudgetsSql from './queries/requestBudgets.sql?raw';

const queries = requireQueries(
  parseNamedQueries(requestBudgetsSql, 'requestBudgets.sql'),
  ['all', 'upsert'] as const,
  'requestBudgets.sql',
);

/** One endpoint key's budget as remembered across restarts. Times are epoch ms. */
export interface StoredBudget {
  key: string;
  limit: number;
  windowMs: number;
  /** Calls inside the window, ascending. */
  sends: number[];
  blockedUntil: number | null;
  updatedAt: number;
}

interface Row {
  key: string;
  limitCalls: number;
  windowMs: number;
  sendsBeforeMs: string;
  blockedUntil: number | null;
  updatedAt: number;
}

function offsets(value: string): number[] | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) return null;
    return parsed.every((n) => Number.isInteger(n) && n >= 0) ? (parsed as number[]) : null;
  } catch {
    return null;
  }
}

/**
 * The `request_budgets` table (migration 0003). The scheduler batches its writes; each `save` is
 * one transaction. Times are rounded up when written, so a restored call never leaves the window
 * earlier than the real one.
 */
export class BudgetStore {
  private readonly selectAll: Database.Statement<[], Row>;
  private readonly upsert: Database.Statement<Row>;
  private readonly saveAll: Database.Transaction<(budgets: readonly StoredBudget[]) => void>;

  constructor(db: Database.Database) {
    this.selectAll = db.prepare(queries.all);
    this.upsert = db.prepare(queries.upsert);
    this.saveAll = db.transaction((budgets: readonly StoredBudget[]) => {
      for (const budget of budgets) this.upsert.run(toRow(budget));
    });
  }

  /**
   * Every stored budget. If the wall clock now reads earlier than when a row was written (it was
   * set back), the row's times move back with it instead of holding a key closed for that long.
   * A row this version cannot read is left out: that key starts cold and learns its state from
   * the server's first answer.
   */
  load(now: number): StoredBudget[] {
    const budgets: StoredBudget[] = [];
    for (const row of this.selectAll.all()) {
      const before = offsets(row.sendsBeforeMs);
      if (!before || !(row.limitCalls >= 1) || !(row.windowMs >= 1)) continue;
      const writtenAt = Math.min(row.updatedAt, now);
      const shift = writtenAt - row.updatedAt;
      budgets.push({
        key: row.key,
        limit: row.limitCalls,
        windowMs: row.windowMs,
        sends: before.map((ms) => writtenAt - ms).sort((a, b) => a - b),
        blockedUntil: row.blockedUntil === null ? null : row.blockedUntil + shift,
        updatedAt: writtenAt,
      });
    }
    return budgets;
  }

  /** Writes these budgets in one transaction. */
  save(budgets: readonly StoredBudget[]): void {
    if (budgets.length > 0) this.saveAll.immediate(budgets);
  }
}

function toRow(budget: StoredBudget): Row {
  const updatedAt = Math.ceil(budget.updatedAt);
  return {
    key: budget.key,
    limitCalls: Math.max(1, Math.round(budget.limit)),
    windowMs: Math.max(1, Math.ceil(budget.windowMs)),
    sendsBeforeMs: JSON.stringify(
      budget.sends.map((time) => Math.max(0, Math.floor(updatedAt - time))),
    ),
    blockedUntil: budget.blockedUntil === null ? null : Math.ceil(budget.blockedUntil),
    updatedAt,
  };
}
