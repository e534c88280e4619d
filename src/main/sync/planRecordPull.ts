import type { MirrorCursor } from '../store/mirror/mirrorTypes';
import { SCAN_START, type ScanPosition } from './scanWindow';

/**
 * Ours: every module's ids are compared with the server's in full at least this often, even when
 * the counts agree: a record trashed and another restored between two syncs (or during a pull,
 * settlePull.ts) leave the count unchanged and touch no `last_updated_time` the incremental pull
 * could see. One full listing a day costs a module's page count in calls, well inside its budget.
 */
export const RECONCILE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** What the pull of one module's records does next, decided from its cursor. */
export type RecordPullPlan =
  /**
   * The first pull, or one a crash or a kill interrupted: every record after `from`.
   * `fresh`: nothing of it is stored yet, so it first notes where the server stands.
   */
  | { kind: 'full'; from: ScanPosition; fresh: boolean }
  /**
   * Records changed since `since` (null: since ever, e.g. the module was empty), then the
   * deletion check; `reconcile`: compare every id whatever the counts say.
   */
  | { kind: 'incremental'; since: string | null; reconcile: boolean };

export interface PlanOptions {
  reconcileIntervalMs?: number;
  /** Compare every id now (the user asked for a full check). */
  forceReconcile?: boolean;
}

export function planRecordPull(
  cursor: MirrorCursor | undefined,
  now: number,
  options: PlanOptions = {},
): RecordPullPlan {
  if (cursor && cursor.scanIndex !== null) {
    return {
      kind: 'full',
      from: { index: cursor.scanIndex, after: cursor.scanAfter },
      fresh: false,
    };
  }
  if (!cursor || cursor.fullCompletedAt === null)
    return { kind: 'full', from: SCAN_START, fresh: true };
  const interval = options.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS;
  // A completed full pull listed every id: it counts as one until a reconciliation is recorded
  // (a kill between its last page and its count check must not cost a second listing).
  const baseline = cursor.lastReconciledAt ?? cursor.fullCompletedAt;
  const last = Date.parse(baseline);
  const due = Number.isNaN(last) || now - last >= interval;
  return {
    kind: 'incremental',
    since: cursor.highWater,
    reconcile: due || options.forceReconcile === true,
  };
}

/** The later of two ISO instants (null counts as "never"); ties keep `a`. */
export function laterInstant(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** Calls left to list `total` records from record `done` on, `pageSize` a call. */
export function remainingPages(total: number | null, done: number, pageSize: number): number {
  if (total === null) return 0;
  return Math.ceil(Math.max(0, total - done) / pageSize);
}
