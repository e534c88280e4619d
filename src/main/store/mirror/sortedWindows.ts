/**
 * Windows SQLite has to sort (an order no index holds, such as a custom field before its index
 * is built: seconds at a million records), read ahead. The sort costs the same for
 * SORTED_PREFETCH_ROWS rows as for a screenful (a top-N sort: the scan dominates), so that many
 * are read and kept until anything is written (RecordQuery clears them): the next windows of a
 * scroll come from them instead of sorting again.
 */
import { STATEMENT_CACHE_SIZE, type StatementCache } from './listStatements';

/** Rows read at once from a window SQLite must sort, and kept for the next windows. */
export const SORTED_PREFETCH_ROWS = 1000;

export class SortedWindows {
  /** By statement and its parameters before LIMIT and OFFSET: the rows read from `from` on. */
  private readonly windows = new Map<string, { from: number; keys: number[]; complete: boolean }>();

  constructor(private readonly statements: StatementCache) {}

  clear(): void {
    this.windows.clear();
  }

  /** Row keys from..from+rows of `sql` (which ends `LIMIT ? OFFSET ?`) with `base` bound first. */
  read(sql: string, base: unknown[], from: number, rows: number): number[] {
    const key = `${sql}\u0000${JSON.stringify(base)}`;
    const known = this.windows.get(key);
    if (
      known &&
      from >= known.from &&
      (from + rows <= known.from + known.keys.length || known.complete)
    ) {
      return known.keys.slice(from - known.from, from - known.from + rows);
    }
    const take = Math.max(rows, SORTED_PREFETCH_ROWS);
    const keys = this.statements
      .get(sql)
      .pluck()
      .all(...base, take, from) as number[];
    if (this.windows.size >= STATEMENT_CACHE_SIZE) this.windows.clear();
    this.windows.set(key, { from, keys, complete: keys.length < take });
    return keys.slice(0, rows);
  }
}
