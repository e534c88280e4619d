/**
 * Where the sync stands for one module of the mirror, from the sync's status snapshot: what an
 * empty module's list says instead of "run a sync" while a sync of it runs, once it found nothing,
 * or when it failed. Pure, so every case is tested without a browser.
 */
import type { SyncPhase, SyncProgress, SyncStatus } from '../../../../shared/ipc/areas/sync';

export type ModuleSyncState =
  /** A running run pulls the module's records now. */
  | { kind: 'pulling'; progress: SyncProgress; paused: boolean }
  /** A running run of the portal has not reached the module yet (listing portals, metadata). */
  | { kind: 'starting'; phase: SyncPhase; paused: boolean }
  /** A run pulled the module to the end; `at` is when (epoch ms). */
  | { kind: 'complete'; at: number }
  /** The module's pull failed; `at` is when, when known. */
  | { kind: 'failed'; message: string | null; at: number | null }
  /** The run ended (cancelled, offline, signed out) before the module's pull did. */
  | { kind: 'stopped'; progress: SyncProgress; message: string | null }
  /** The module was synced at `at`, and no run this log remembers says how that ended. */
  | { kind: 'synced'; at: number }
  /** Nothing says the module was ever synced. */
  | { kind: 'never' };

export interface PortalOfModule {
  id: string;
  accountId: string;
}

const finished = (phase: SyncPhase) => phase === 'done' || phase === 'failed';

/** A module row's phase once its records are all there (comments follow record by record). */
const recordsDone = (phase: SyncPhase) => phase === 'done' || phase === 'comments';

export function moduleSyncState(
  status: SyncStatus | null,
  portal: PortalOfModule,
  moduleId: string,
): ModuleSyncState {
  if (!status) return { kind: 'never' };
  const running = new Set(status.running.map((run) => run.runId));
  const paused = status.paused;
  // Rows of runs only: the background comment backfill (runId null) says nothing of records.
  const rows = status.progress.filter(
    (row) => row.runId !== null && row.accountId === portal.accountId,
  );
  const own = rows.find((row) => row.portalId === portal.id && row.moduleId === moduleId);
  if (own && running.has(own.runId!)) {
    if (own.phase === 'failed') return { kind: 'failed', message: own.message, at: own.at };
    if (recordsDone(own.phase)) return { kind: 'complete', at: own.at };
    return { kind: 'pulling', progress: own, paused };
  }
  const portalState = portalSyncState(status, portal);
  if (portalState) return portalState;
  if (own) {
    if (own.phase === 'failed') return { kind: 'failed', message: own.message, at: own.at };
    if (recordsDone(own.phase)) return { kind: 'complete', at: own.at };
    const run = status.log.find((entry) => entry.runId === own.runId);
    return { kind: 'stopped', progress: own, message: run?.message ?? null };
  }
  // The log survives restarts: a portal's part ends with an outcome of its own only when every
  // module of it was pulled; a module that failed has an outcome of its own.
  for (const run of status.log) {
    if (run.endedAt === null) continue;
    const failure = run.outcomes.find(
      (o) => !o.ok && o.portalId === portal.id && o.moduleId === moduleId,
    );
    if (failure) return { kind: 'failed', message: failure.message, at: run.endedAt };
    if (run.outcomes.some((o) => o.ok && o.portalId === portal.id && o.moduleId === null)) {
      return { kind: 'complete', at: run.endedAt };
    }
  }
  const cursor = status.lastSynced.find(
    (row) => row.portalId === portal.id && row.moduleId === moduleId,
  );
  return cursor ? { kind: 'synced', at: cursor.at } : { kind: 'never' };
}

/**
 * A running run's part for the portal before it reaches its modules' records: starting (listing
 * portals, reading modules and their settings) or failed (the portal's modules could not be read);
 * null when no running run is at that stage for it.
 */
export function portalSyncState(
  status: SyncStatus | null,
  portal: PortalOfModule,
): Extract<ModuleSyncState, { kind: 'starting' | 'failed' }> | null {
  if (!status) return null;
  const running = new Set(status.running.map((run) => run.runId));
  const live = status.progress.filter(
    (row) => row.runId !== null && running.has(row.runId) && row.accountId === portal.accountId,
  );
  const portalRow = live.find((row) => row.portalId === portal.id && row.moduleId === null);
  if (portalRow?.phase === 'failed') {
    return { kind: 'failed', message: portalRow.message, at: portalRow.at };
  }
  if (portalRow && !finished(portalRow.phase)) {
    return { kind: 'starting', phase: portalRow.phase, paused: status.paused };
  }
  // Every run lists the account's portals first; until then it may reach any of them.
  const listing = live.find(
    (row) => row.portalId === null && row.moduleId === null && !finished(row.phase),
  );
  return listing ? { kind: 'starting', phase: listing.phase, paused: status.paused } : null;
}
