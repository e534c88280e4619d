/**
 * When PortalDesk syncs on its own: after a run found no connection it tries again with growing
 * waits (so a laptop back on the network catches up within minutes, and a long outage costs a
 * request every five minutes, not a stream of them); after a run that reached the service, the
 * next sync is a periodic one.
 */

/** Ours: waits before retrying after the 1st, 2nd, … offline run; the last one repeats. */
export const OFFLINE_RETRY_DELAYS_MS: readonly number[] = [
  15_000, 30_000, 60_000, 120_000, 300_000,
];

/** Ours: an incremental sync of every signed-in account this often while the app runs. */
export const PERIODIC_SYNC_MS = 15 * 60_000;

export type RunEnd = 'done' | 'failed' | 'offline' | 'cancelled';

export interface AutoSyncState {
  /** Offline runs in a row (0 once a run reached the service). */
  offlineStreak: number;
}

export interface AutoSyncDecision {
  state: AutoSyncState;
  /** Milliseconds until the next automatic sync; null for none. */
  delayMs: number | null;
}

/** `periodicMs` null: the user turned the periodic sync off (retries after going offline stay). */
export function planAutoSync(
  previous: AutoSyncState,
  ended: RunEnd,
  periodicMs: number | null = PERIODIC_SYNC_MS,
): AutoSyncDecision {
  switch (ended) {
    case 'offline': {
      const index = Math.min(previous.offlineStreak, OFFLINE_RETRY_DELAYS_MS.length - 1);
      return {
        state: { offlineStreak: previous.offlineStreak + 1 },
        delayMs: OFFLINE_RETRY_DELAYS_MS[index]!,
      };
    }
    case 'cancelled':
      // The user stopped it: no retry behind their back; the periodic sync still comes.
      return { state: previous, delayMs: periodicMs };
    case 'done':
    case 'failed':
      return { state: { offlineStreak: 0 }, delayMs: periodicMs };
  }
}
