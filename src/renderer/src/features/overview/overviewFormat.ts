/**
 * The overview's decisions in pure functions: the filter a bar opens, a bar's length, the backup's
 * age in words, the weekly chart's series. Tested without a browser.
 */
import type { PortalOverview } from '../../../../shared/ipc/areas/overview';
import { formatAgo } from '../sync/syncFormat';

/** The records workspace's filter (the API's filter JSON) for one status; null: without a status. */
export function statusFilter(statusId: string | null): string {
  const criterion =
    statusId === null
      ? { field_name: 'status', criteria_condition: 'is_empty', value: [] }
      : { field_name: 'status', criteria_condition: 'is', value: [statusId] };
  return JSON.stringify({ criteria: [criterion], pattern: '1' });
}

/** A bar's length in percent of the longest; a non-empty one never shorter than 1 %. */
export function barPercent(value: number, max: number): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.max(1, Math.round((value / max) * 1000) / 10);
}

/** What the overview says of the last backup. */
export function backupAge(lastBackup: PortalOverview['lastBackup'], now: number): string {
  if (!lastBackup) return 'No backup of this portal yet.';
  const at = Date.parse(lastBackup.completedTime);
  const where =
    lastBackup.stage === 'ready'
      ? 'downloaded and verified on this computer'
      : 'kept by the service, not downloaded here';
  return `Made ${formatAgo(at, now)} (${new Date(at).toLocaleString()}), ${where}.`;
}

/** Days from a backup's completion to now, for its warning colour; null without one. */
export function backupDays(lastBackup: PortalOverview['lastBackup'], now: number): number | null {
  if (!lastBackup) return null;
  return Math.floor((now - Date.parse(lastBackup.completedTime)) / 86_400_000);
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
