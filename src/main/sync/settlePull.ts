/**
 * When a module's pull may say `done` (issue 14, item 4): only when the mirror holds as many of
 * the module's records as the server counts, after the changes made while the pull ran were
 * pulled too; otherwise every id is compared, and if the counts still differ after that, the pull
 * is not done. Pure: the facts come from the server's answers and the mirror.
 *
 * Why counts suffice after a full pull: its listing (scanRunsAhead.ts) hands over every record
 * listed from its start to its end, so the mirror can only hold too many (records trashed after
 * being read, or gone before the pull began), and those show as a count above the server's. The
 * one change a count cannot see is a trash and a restore that cancel out while the pull runs, the
 * same blind spot every incremental sync has between two syncs: the daily comparison of ids
 * (RECONCILE_INTERVAL_MS) covers it.
 */
import { laterInstant } from './planRecordPull';

export interface SettleFacts {
  /** After a full pull: the newest last_updated_time on the server when it began. */
  startNewest?: string | null;
  /** The newest last_updated_time on the server now (asked after a full pull). */
  newest?: string | null;
  /** The records changed since the pull began were pulled (an incremental pull always has). */
  caughtUp: boolean;
  serverCount: number;
  mirrorCount: number;
  /** Records the server counts but sends malformed, as the last comparison found. */
  knownGap: number;
  /** Every id was compared in this sync. */
  reconciled: boolean;
  /** The ids must be compared in this sync whatever the counts say (due, or asked for). */
  reconcileDue: boolean;
}

/**
 * - `catch-up`: pull the records changed since the full pull began (edits and creations made
 *   while it ran or while it was stopped), then count again;
 * - `reconcile`: compare every id with the server's, then count again;
 * - `done`: the mirror holds the server's records;
 * - `unsettled`: the counts differ even after every id was compared: the records changed while
 *   they were compared, and the pull must not say `done`.
 */
export type SettleStep = 'catch-up' | 'reconcile' | 'done' | 'unsettled';

export function nextSettleStep(facts: SettleFacts): SettleStep {
  if (!facts.caughtUp && facts.newest !== undefined && facts.startNewest !== undefined) {
    if (laterInstant(facts.startNewest, facts.newest) !== facts.startNewest) return 'catch-up';
  }
  if (facts.reconcileDue && !facts.reconciled) return 'reconcile';
  if (facts.serverCount - facts.mirrorCount === facts.knownGap) return 'done';
  return facts.reconciled ? 'unsettled' : 'reconcile';
}

/** A module's pull that could not make the mirror hold the server's records. */
export class UnsettledPullError extends Error {
  override name = 'UnsettledPullError';
}
