import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../../shared/sqlFile';
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

/** Writes one group commit's rows, parents first (events, executions, attempts) for the keys. */
export function applyRouterWrites(s: RouterWriteStatements, writes: DrainedWrites): void {
  for (const row of writes.eventInserts) s.insertEvent.run(row);
  for (const row of writes.eventUpdates) (row.routed ? s.markRouted : s.setOverallStatus).run(row);
  for (const row of writes.executionInserts) s.insertExecution.run(row);
  for (const row of writes.executionUpdates) s.updateExecution.run(row);
  for (const row of writes.attemptInserts) s.insertAttempt.run(row);
  for (const row of writes.attemptFinishes) s.finishAttempt.run(row);
  for (const row of writes.attemptDeletes) s.deleteAttempt.run(row);
  for (const row of writes.binEntries) s.insertBinEntry.run(row);
}
