/**
 * The weeks of the overview's "created and updated per week" chart: weeks as the portal counts
 * them (its time zone and business_details.week_start_day), each given by the instant it starts
 * (epoch ms), so an index range of the stored times counts a week (overview.sql).
 */
import { weekday } from '@portaldesk/portal-api/filter/civilDate';
import { DEFAULT_WEEK_START_DAY } from '@portaldesk/portal-api/filter/datePresets';
import { isValidTimeZone, localDay, startOfDay } from '@portaldesk/portal-api/filter/timeZone';

/**
 * Ours: at most five years of weeks are drawn; older records are counted together ("earlier"),
 * and so are records dated after now that do not fit ("later").
 */
export const MAX_WEEKS = 260;

export interface WeekSpan {
  /** Local date (YYYY-MM-DD day numbers) of each week's first day, oldest first. */
  days: number[];
  /** The instant (epoch ms) each week starts at, and one more: where the last week ends. */
  bounds: number[];
}

/**
 * The portal's zone, or UTC when the zone is one this runtime does not know (the mirror keeps
 * what the service sent; a chart in UTC is better than none).
 */
export function chartTimeZone(timeZone: string): string {
  return isValidTimeZone(timeZone) ? timeZone : 'UTC';
}

/** The first day (day number) of the week holding local day `day`. weekStartDay: 0 or 7 Sunday, 1 Monday … */
export function weekOf(day: number, weekStartDay: number | null): number {
  const first = (weekStartDay ?? DEFAULT_WEEK_START_DAY) % 7;
  return day - ((weekday(day) - first + 7) % 7);
}

/**
 * The weeks drawn for records from `first` to `last` (epoch ms), at most MAX_WEEKS of them:
 * every week from the first record's to the last's when they fit, else the newest MAX_WEEKS,
 * older records counted as "earlier". `newestPast` is the newest record time not after now
 * (null: every record is dated after now). The window ends at its week, so records dated after
 * now (a stray date decades ahead, a clock set wrong) are counted as "later" and neither push
 * real history into "earlier" nor draw years of empty weeks. When every record is dated after
 * now, the window is the records' own, from the first. Pure but for Intl's zone data.
 */
export function weekSpan(
  first: number,
  last: number,
  timeZone: string,
  weekStartDay: number | null,
  newestPast: number | null = last,
): WeekSpan {
  const zone = chartTimeZone(timeZone);
  const span = 7 * (MAX_WEEKS - 1);
  const week = (at: number) => weekOf(localDay(at, zone), weekStartDay);
  const firstRecordWeek = week(first);
  const lastWeek =
    newestPast !== null ? week(newestPast) : Math.min(week(last), firstRecordWeek + span);
  const firstWeek = Math.max(firstRecordWeek, lastWeek - span);
  const days: number[] = [];
  for (let day = firstWeek; day <= lastWeek; day += 7) days.push(day);
  const bounds = [...days, lastWeek + 7].map((day) => startOfDay(day, zone));
  return { days, bounds };
}
