import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../../store/sqlFile';
import routerWritesSql from './queries/routerWrites.sql?raw';
import type { DrainedWrites } from './writeBatch';

const queries = requireQueries(
  parseNamedQueries(routerWritesSql, 'routerWrites.sql'),
  [
    'insertEvent',
    'markRouted',
    'setOverallStatus',
    'insertExecution',
    'updateExecution',
    'insertAttempt',
    'finishAttempt',
    'deleteAttempt',
    'insertBinEntry',
  ] as const,
  'routerWrites.sql',
);

export type RouterWriteStatements = { [K in keyof typeof queries]: Database.Statement };

/** The delivery path's statements, prepared on `db` (the engine's connection or the writer's). */
export function prepareRouterWrites(db: Database.Database): RouterWriteStatements {
  return Object.fromEntries(
    Object.entries(queries).map(([name, sql]) => [name, db.prepare(sql)]),
  ) as RouterWriteStatements;
}

/**
 * Writes each group commit it is given as one transaction on `db` (the engine's connection or the
 * writer thread's). IMMEDIATE: the write lock is taken first, so a commit waits out another
 * writer's lock instead of failing half-way on a busy snapshot.
 */
export function routerWriteCommitter(
  db: Database.Database,
  statements: RouterWriteStatements = prepareRouterWrites(db),
): (writes: DrainedWrites) => void {
  const transaction = db.transaction((writes: DrainedWrites) =>
    applyRouterWrites(statements, writes),
  );
  return (writes) => transaction.immediate(writes);
}

/** Writes one group commit's rows, parents first (events, executions, attempts) for the keys. */
function applyRouterWrites(s: RouterWriteStatements, writes: DrainedWrites): void {
  for (const row of writes.eventInserts) s.insertEvent.run(row);
  for (const row of writes.eventUpdates) (row.routed ? s.markRouted : s.setOverallStatus).run(row);
  for (const row of writes.executionInserts) s.insertExecution.run(row);
  for (const row of writes.executionUpdates) s.updateExecution.run(row);
  for (const row of writes.attemptInserts) s.insertAttempt.run(row);
  for (const row of writes.attemptFinishes) s.finishAttempt.run(row);
  for (const row of writes.attemptDeletes) s.deleteAttempt.run(row);
  for (const row of writes.binEntries) s.insertBinEntry.run(row);
}
