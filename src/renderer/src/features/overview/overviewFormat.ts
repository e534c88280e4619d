/**
 * The overview's decisions in pure functions: the filter a bar opens, a bar's length, the backup's
 * age in words, the weekly chart's series. Tested without a browser.
 */
import type { PortalOverview } from '../../../../shared/ipc/areas/overview';
import { describeEndpoint, formatAgo, formatDuration } from '../sync/syncFormat';

/** The records workspace's filter (the API's filter JSON) for one status; null: without a status. */
export function statusFilter(statusId: string | null): string {
  const criterion =
    statusId === null
      ? { field_name: 'status', criteria_condition: 'is_empty', value: [] }
      : { field_name: 'status', criteria_condition: 'is', value: [statusId] };
  return JSON.stringify({ criteria: [criterion], pattern: '1' });
}

/**
 * What the Outbox view lists beyond this portal's figures, or null when it lists only them: it
 * shows every portal's changes together, so its counts are larger when another portal waits too.
 */
export function outboxScope(outbox: PortalOverview['outbox']): string | null {
  const mine = outbox.pending + outbox.sending + outbox.failed + outbox.conflict;
  if (outbox.allPortals <= mine) return null;
  const share = mine === 0 ? 'none' : mine.toLocaleString();
  return `The Outbox lists every portal's changes together: ${outbox.allPortals.toLocaleString()} in all, ${share} of them this portal's.`;
}

/**
 * The portal's endpoints the service blocks now (the spec: 10 minutes after going over its
 * limit), each in one sentence: until when, and that their calls wait. The calls charts do not
 * show a block; the Sync view's table does.
 */
export function blockedEndpoints(budgets: PortalOverview['budgets'], now: number): string[] {
  return budgets
    .filter((budget) => budget.blockedUntil !== null && budget.blockedUntil > now)
    .map((budget) => {
      const until = budget.blockedUntil as number;
      const { route } = describeEndpoint(budget.key, () => undefined);
      return `${route} is blocked by the service until ${new Date(until).toLocaleTimeString()} (about ${formatDuration(until - now)}): its calls wait and go out when it reopens.`;
    });
}

/** A bar's length in percent of the longest; a non-empty one never shorter than 1 %. */
export function barPercent(value: number, max: number): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.max(1, Math.round((value / max) * 1000) / 10);
}

/** Ours: a last backup older than this many days is shown as a warning. */
export const OLD_BACKUP_DAYS = 7;

const DAY_MS = 86_400_000;

/**
 * What the overview says of the last backup, and of a failed attempt since (or instead of) it:
 * when, why, and what to do.
 */
export function backupAge(
  lastBackup: PortalOverview['lastBackup'],
  now: number,
  lastFailure: PortalOverview['lastFailure'] = null,
): string {
  let failed = '';
  if (lastFailure) {
    const when = new Date(lastFailure.at).toLocaleString();
    const why = lastFailure.problem ? ` (${lastFailure.problem.replace(/\.$/, '')}.)` : '';
    const attempt = lastBackup ? `A later attempt, ${when},` : `the attempt of ${when}`;
    failed = `${attempt} failed${why}. Open Backups to try again.`;
  }
  if (!lastBackup) {
    return failed ? `No backup of this portal yet: ${failed}` : 'No backup of this portal yet.';
  }
  const at = Date.parse(lastBackup.completedTime);
  const where =
    lastBackup.stage === 'ready'
      ? 'downloaded and verified on this computer'
      : 'kept by the service, not downloaded here';
  return `Made ${formatAgo(at, now)} (${new Date(at).toLocaleString()}), ${where}.${failed ? ` ${failed}` : ''}`;
}

/**
 * Whether the backup part is shown as a warning: no backup, a failed attempt since the last one,
 * or a last backup more than OLD_BACKUP_DAYS old. Compared in milliseconds: whole days rounded
 * down left a backup that reads "8 days ago" (formatAgo rounds) unwarned.
 */
export function backupWarned(
  lastBackup: PortalOverview['lastBackup'],
  lastFailure: PortalOverview['lastFailure'],
  now: number,
): boolean {
  if (!lastBackup || lastFailure) return true;
  return now - Date.parse(lastBackup.completedTime) > OLD_BACKUP_DAYS * DAY_MS;
}

/** uPlot's columns: week starts (seconds, at UTC midnight of the local date), created, updated. */
export function weeklySeries(weeks: PortalOverview['weeks']): [number[], number[], number[]] {
  return [
    weeks.map((week) => Date.parse(`${week.start}T00:00:00Z`) / 1000),
    weeks.map((week) => week.created),
    weeks.map((week) => week.updated),
  ];
}

/** The weekly chart in one sentence. */
export function weeklySummary(
  overview: Pick<PortalOverview, 'weeks' | 'earlier' | 'later'>,
): string {
  const { weeks, earlier, later } = overview;
  if (weeks.length === 0) return 'No records in the mirror yet.';
  const created = weeks.reduce((sum, week) => sum + week.created, earlier.created + later.created);
  const updated = weeks.reduce((sum, week) => sum + week.updated, earlier.updated + later.updated);
  const busiest = weeks.reduce((best, week) => (week.created > best.created ? week : best));
  const older =
    earlier.created + earlier.updated > 0
      ? ` ${earlier.created.toLocaleString()} created and ${earlier.updated.toLocaleString()} last updated before ${weeks[0]!.start} are not drawn.`
      : '';
  const newer =
    later.created + later.updated > 0
      ? ` ${later.created.toLocaleString()} created and ${later.updated.toLocaleString()} last updated after the week of ${weeks.at(-1)!.start} (dated after this computer's date) are not drawn.`
      : '';
  return (
    `${weeks.length} ${weeks.length === 1 ? 'week' : 'weeks'} from ${weeks[0]!.start} to ${weeks.at(-1)!.start}: ` +
    `${created.toLocaleString()} records created, ${updated.toLocaleString()} last updated; ` +
    (busiest.created > 0
      ? `most created in the week of ${busiest.start} (${busiest.created.toLocaleString()}).`
      : 'none created in these weeks.') +
    `${older}${newer}`
  );
}
