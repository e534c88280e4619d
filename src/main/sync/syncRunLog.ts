import type Database from 'better-sqlite3';
import type { SyncRunEntry } from '../../shared/ipc/areas/sync';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import syncRunsSql from './queries/syncRuns.sql?raw';
import type { SyncResult } from './syncTypes';

const queries = requireQueries(
  parseNamedQueries(syncRunsSql, 'syncRuns.sql'),
  ['begin', 'finish', 'closeInterrupted', 'recent', 'prune', 'lastSynced'] as const,
  'syncRuns.sql',
);

/** Ours: runs the log keeps (a few days of periodic syncs of a handful of accounts). */
export const RUN_LOG_SIZE = 50;

interface Row {
  runId: string;
  accountId: string;
  dc: string;
  startedAt: number;
  endedAt: number | null;
  state: SyncRunEntry['state'];
  message: string | null;
  calls: number;
  records: number;
  outcomes: string;
}

function outcomesOf(text: string): SyncRunEntry['outcomes'] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as SyncRunEntry['outcomes']) : [];
  } catch {
    return [];
  }
}

/** The `sync_runs` table (migration 0007): each run when it starts and when it ends. */
export class SyncRunLog {
  private readonly beginRun: Database.Statement;
  private readonly finishRun: Database.Statement;
  private readonly recentRuns: Database.Statement<[number], Row>;
  private readonly pruneRuns: Database.Statement;
  /** The log as last read: it changes only when a run begins or ends, status is read often. */
  private cached: SyncRunEntry[] | null = null;
  private readonly cursors: Database.Statement<
    [],
    { portalId: string; moduleId: string; updatedAt: string }
  >;

  constructor(db: Database.Database, now: number) {
    this.beginRun = db.prepare(queries.begin);
    this.finishRun = db.prepare(queries.finish);
    this.recentRuns = db.prepare(queries.recent);
    this.pruneRuns = db.prepare(queries.prune);
    this.cursors = db.prepare(queries.lastSynced);
    // Runs left open by a process that was killed cannot still be running.
    db.prepare(queries.closeInterrupted).run({ endedAt: Math.round(now) });
  }

  begin(run: { runId: string; accountId: string; dc: string; startedAt: number }): void {
    this.beginRun.run({ ...run, startedAt: Math.round(run.startedAt) });
    this.cached = null;
  }

  finish(result: SyncResult, endedAt: number): void {
    this.finishRun.run({
      runId: result.runId,
      endedAt: Math.round(endedAt),
      state: result.state,
      message: result.message,
      calls: result.calls,
      records: result.records,
      outcomes: JSON.stringify(result.outcomes),
    });
    this.pruneRuns.run(RUN_LOG_SIZE);
    this.cached = null;
  }

  /** Most recent first. */
  recent(): SyncRunEntry[] {
    this.cached ??= this.recentRuns.all(RUN_LOG_SIZE).map((row) => ({
      ...row,
      outcomes: outcomesOf(row.outcomes),
    }));
    return this.cached;
  }

  /** When each mirrored module was last pulled. */
  lastSynced(): { portalId: string; moduleId: string; at: number }[] {
    return this.cursors
      .all()
      .map((row) => ({
        portalId: row.portalId,
        moduleId: row.moduleId,
        at: Date.parse(row.updatedAt),
      }))
      .filter((row) => Number.isFinite(row.at));
  }
}
