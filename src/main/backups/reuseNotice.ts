/**
 * The service's 24-hour reuse, said in words: "an existing backup made within the last 24 hours
 * is returned instead of a new one" (spec, Data backup). When the answer to a request is a
 * reused backup, the admin sees which one and when a new one can be made.
 */

/** The spec's window. */
export const BACKUP_REUSE_MS = 24 * 3_600_000;

export interface ReuseFacts {
  reused: boolean;
  /** When the reused backup was requested and completed (ISO), as the service said. */
  requestedTime: string | null;
  completedTime: string | null;
}

/** `09:12` in the computer's zone; injected by tests. */
export type FormatClock = (instant: Date) => string;

export const localClock: FormatClock = (instant) =>
  instant.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * The earliest time a new backup can be made: 24 hours after the reused one was made (its
 * completion; while it is still generating, its request is the best known lower bound).
 */
export function nextBackupAllowedAt(facts: ReuseFacts): Date | null {
  const made = facts.completedTime ?? facts.requestedTime;
  if (!made) return null;
  const at = new Date(made).getTime();
  return Number.isNaN(at) ? null : new Date(at + BACKUP_REUSE_MS);
}

/** `today`, `tomorrow` or the date, in the computer's calendar, of `at` seen from `now`. */
function dayWord(at: Date, now: Date): string {
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(at) - day(now)) / 86_400_000);
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `on ${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The sentence shown with a reused backup; null for a new one. */
export function reuseNotice(
  facts: ReuseFacts,
  now: Date,
  format: FormatClock = localClock,
): string | null {
  if (!facts.reused) return null;
  const made = facts.completedTime ?? facts.requestedTime;
  const next = nextBackupAllowedAt(facts);
  if (!made || !next) {
    return 'The service returned a backup it made within the last 24 hours instead of a new one.';
  }
  const verb = facts.completedTime ? 'made' : 'started';
  return `The service returned the backup ${verb} at ${format(new Date(made))}; a new one can be made after ${format(next)} ${dayWord(next, now)}.`;
}
