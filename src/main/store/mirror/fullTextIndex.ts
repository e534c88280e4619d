import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import fullTextSql from '../queries/mirrorFullText.sql?raw';

const queries = requireQueries(
  parseNamedQueries(fullTextSql, 'mirrorFullText.sql'),
  [
    'recordsPending',
    'recordsPendingRows',
    'commentsPendingRows',
    'recordsRemoveQueued',
    'recordsAddQueued',
    'recordsClearQueue',
    'recordsAddNew',
    'recordsMark',
    'recordsMarked',
    'namesRemoveQueued',
    'namesAddQueued',
    'namesAddNew',
    'commentsPending',
    'commentsRemoveQueued',
    'commentsAddQueued',
    'commentsClearQueue',
    'commentsAddNew',
    'commentsMark',
  ] as const,
  'mirrorFullText.sql',
);

type Query = keyof typeof queries;

/** The bound a whole flush passes for the new rows it indexes (all of them). */
const EVERY_ROW = Number.MAX_SAFE_INTEGER;

export interface FullTextIndexOptions {
  /**
   * Whether writers' flushIfDue flushes (default true). The mirror's writer thread turns it
   * off and flushes in steps between pages instead (flushStep): a flush of FULL_TEXT_BATCH_ROWS
   * inside a page's transaction holds the write lock for 0.2 to 0.5 s, and the engine's own
   * writes would wait that long.
   */
  writersFlush?: boolean;
}

/**
 * Ours: writers leave rows for a later flush until this many are waiting. FTS5 writes a new
 * segment (and merges older ones) at every flush, so flushing each 200-record page cost about as
 * much as storing the page (bench/store.mjs); search flushes whatever waits before it reads, so no
 * search misses a row.
 */
export const FULL_TEXT_BATCH_ROWS = 10_000;

/**
 * The full-text indexes of record text and comments, and the trigrams of record names that lists
 * count `contains` with (migrations/0017_list_lookups.sql), brought up to date in bulk: rows added
 * since the last flush (by row_key) and the rows whose update or deletion triggers queued (see
 * migrations/0002_mirror.sql for why not per-row triggers). Writers call flushIfDue at the end of
 * their transaction (and the sync engine flush when a pull ends); search calls flush before it
 * reads.
 */
export class FullTextIndex {
  private readonly recordsPending: Database.Statement;
  private readonly commentsPending: Database.Statement;
  private readonly recordsPendingRows: Database.Statement;
  private readonly commentsPendingRows: Database.Statement;
  private readonly flushRecords: Database.Transaction<(through: number) => void>;
  private readonly flushComments: Database.Transaction<(through: number) => void>;
  private readonly recordsMarked: Database.Statement;
  private readonly writersFlush: boolean;

  constructor(db: Database.Database, options: FullTextIndexOptions = {}) {
    this.writersFlush = options.writersFlush ?? true;
    this.recordsMarked = db.prepare(queries.recordsMarked).pluck();
    this.recordsPending = db.prepare(queries.recordsPending).pluck();
    this.commentsPending = db.prepare(queries.commentsPending).pluck();
    this.recordsPendingRows = db.prepare(queries.recordsPendingRows).pluck();
    this.commentsPendingRows = db.prepare(queries.commentsPendingRows).pluck();
    // Each statement takes the bound of new rows (`:through`) if it names one.
    const steps = (names: readonly Query[]) => {
      const statements = names.map((name) => db.prepare(queries[name]));
      const bounded = names.map((name) => queries[name].includes(':through'));
      return db.transaction((through: number) =>
        statements.forEach((statement, i) =>
          bounded[i] ? statement.run({ through }) : statement.run(),
        ),
      );
    };
    this.flushRecords = steps([
      'recordsRemoveQueued',
      'namesRemoveQueued',
      'recordsAddQueued',
      'namesAddQueued',
      'recordsClearQueue',
      'recordsAddNew',
      'namesAddNew',
      'recordsMark',
    ]);
    this.flushComments = steps([
      'commentsRemoveQueued',
      'commentsAddQueued',
      'commentsClearQueue',
      'commentsAddNew',
      'commentsMark',
    ]);
  }

  /** Indexes what changed; cheap when nothing did. Joins the caller's transaction if any. */
  flush(): void {
    if (this.recordsPending.get() === 1) this.flushRecords.immediate(EVERY_ROW);
    if (this.commentsPending.get() === 1) this.flushComments.immediate(EVERY_ROW);
  }

  /**
   * Flushes each index whose waiting rows reached `batchRows`; what writers call (nothing when
   * the index was made with `writersFlush: false`).
   */
  flushIfDue(batchRows = FULL_TEXT_BATCH_ROWS): void {
    if (!this.writersFlush) return;
    if ((this.recordsPendingRows.get() as number) >= batchRows) {
      this.flushRecords.immediate(EVERY_ROW);
    }
    if ((this.commentsPendingRows.get() as number) >= batchRows) {
      this.flushComments.immediate(EVERY_ROW);
    }
  }

  /**
   * One bounded step of a flush, in a transaction of its own: the queued rows of records and the
   * new records up to `newRows` row_keys past the mark (comments whole). True while records
   * are left waiting; a caller repeats it between other work until it returns false.
   */
  flushStep(newRows: number): boolean {
    if (this.recordsPending.get() === 1) {
      this.flushRecords.immediate((this.recordsMarked.get() as number) + newRows);
    }
    if (this.commentsPending.get() === 1) this.flushComments.immediate(EVERY_ROW);
    return this.recordsPending.get() === 1;
  }

  /** Rows waiting to be indexed (an upper bound), records and comments together. */
  pendingRows(): number {
    return (this.recordsPendingRows.get() as number) + (this.commentsPendingRows.get() as number);
  }
}
