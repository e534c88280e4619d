import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../../../shared/sqlFile';
import fullTextSql from '../queries/mirrorFullText.sql?raw';

const queries = requireQueries(
  parseNamedQueries(fullTextSql, 'mirrorFullText.sql'),
  [
    'recordsPending',
    'recordsRemoveQueued',
    'recordsAddQueued',
    'recordsClearQueue',
    'recordsAddNew',
    'recordsMark',
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

/**
 * The full-text indexes of record text and comments, brought up to date in bulk: rows added since
 * the last flush (by row_key) and the rows whose update or deletion triggers queued (see
 * migrations/0002_mirror.sql for why not per-row triggers). Writers flush at the end of their
 * transaction, search before it reads.
 */
export class FullTextIndex {
  private readonly recordsPending: Database.Statement;
  private readonly commentsPending: Database.Statement;
  private readonly flushRecords: Database.Transaction<() => void>;
  private readonly flushComments: Database.Transaction<() => void>;

  constructor(db: Database.Database) {
    this.recordsPending = db.prepare(queries.recordsPending).pluck();
    this.commentsPending = db.prepare(queries.commentsPending).pluck();
    const steps = (names: readonly Query[]) => {
      const statements = names.map((name) => db.prepare(queries[name]));
      return db.transaction(() => statements.forEach((statement) => statement.run()));
    };
    this.flushRecords = steps([
      'recordsRemoveQueued',
      'recordsAddQueued',
      'recordsClearQueue',
      'recordsAddNew',
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
    if (this.recordsPending.get() === 1) this.flushRecords();
    if (this.commentsPending.get() === 1) this.flushComments();
  }
}
