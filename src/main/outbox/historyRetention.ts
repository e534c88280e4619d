/**
 * How long the outbox's history keeps a delivery (issue 19: 30 days), and when to look again.
 * Pure: the clock is the caller's.
 */
import { HISTORY_DAYS } from '../../shared/ipc/areas/outboxHistory';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Ours: the history is purged when the outbox opens and then this often while it runs. */
export const HISTORY_PURGE_EVERY_MS = 60 * 60 * 1000;

/** Rows answered before this instant (ISO, as `answered_at` is written) are older than 30 days. */
export function historyCutoff(now: number, days = HISTORY_DAYS): string {
  return new Date(now - days * DAY_MS).toISOString();
}
