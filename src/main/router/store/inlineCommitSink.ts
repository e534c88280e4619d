import type Database from 'better-sqlite3';
import { routerWriteCommitter, type RouterWriteStatements } from './applyRouterWrites';
import type { CommitSink } from './groupCommit';

/** Group commits on the engine's own connection, done before `commit` returns. */
export function inlineCommitSink(
  db: Database.Database,
  statements: RouterWriteStatements,
): CommitSink {
  const write = routerWriteCommitter(db, statements);
  return {
    commit(writes, done) {
      try {
        write(writes);
      } catch (error) {
        done(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      done(null);
    },
    afterCommits(done) {
      done(null);
    },
    drain() {},
  };
}
