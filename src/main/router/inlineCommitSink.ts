import type Database from 'better-sqlite3';
import { applyRouterWrites, type RouterWriteStatements } from './applyRouterWrites';
import type { CommitSink } from './groupCommit';

/** Group commits on the engine's own connection, done before `commit` returns. */
export function inlineCommitSink(
  db: Database.Database,
  statements: RouterWriteStatements,
): CommitSink {
  const transaction = db.transaction((writes: Parameters<typeof applyRouterWrites>[1]) =>
    applyRouterWrites(statements, writes),
  );
  return {
    commit(writes, done) {
      try {
        // IMMEDIATE, as every write of the engine's connection: waits out another writer's lock.
        transaction.immediate(writes);
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
