/**
 * Date presets (spec, "Date presets (no value)") as inclusive ranges of local days, relative to
 * today in the portal's time zone. The spec names the presets but not their bounds; ours:
 *
 *   today / yesterday / tomorrow   that one day
 *   till_yesterday, overdue        every day before today (on a date-time field, overdue is every
 *                                  instant before now; see compileFilter)
 *   today_overdue                  every day up to and including today
 *   this_week / last_week /        the 7 days from the week's first day (FilterContext
 *   next_week                      .weekStartDay) containing today, the week before, the week after
 *   next_7_days / next_30_days     today and the 6 (29) days after it
 *   this_month / last_month /      the calendar month containing today, before it, after it
 *   next_month
 *   unscheduled                    no date set (not a range: compiled as "empty")
 *
 * Overdue looks at the date alone: a filter criterion sees one field, so "overdue and not done" is
 * `overdue` AND `all_open` in the pattern.
 */
import type { DatePreset } from './conditions';
import { monthStart, weekday } from './civilDate';

/** Inclusive day numbers; an absent end is open. */
export interface DayRange {
  from?: number;
  to?: number;
}

/** Default week start: Monday, as in ISO 8601 (see FilterContext.weekStartDay). */
export const DEFAULT_WEEK_START_DAY = 1;

export function presetDays(
  preset: Exclude<DatePreset, 'unscheduled'>,
  today: number,
  weekStartDay: number,
): DayRange {
  const weekStart = today - ((weekday(today) - (weekStartDay % 7) + 7) % 7);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: today - 1, to: today - 1 };
    case 'tomorrow':
      return { from: today + 1, to: today + 1 };
    case 'till_yesterday':
    case 'overdue':
      return { to: today - 1 };
    case 'today_overdue':
      return { to: today };
    case 'this_week':
      return { from: weekStart, to: weekStart + 6 };
    case 'last_week':
      return { from: weekStart - 7, to: weekStart - 1 };
    case 'next_week':
      return { from: weekStart + 7, to: weekStart + 13 };
    case 'next_7_days':
      return { from: today, to: today + 6 };
    case 'next_30_days':
      return { from: today, to: today + 29 };
    case 'this_month':
      return { from: monthStart(today), to: monthStart(today, 1) - 1 };
    case 'last_month':
      return { from: monthStart(today, -1), to: monthStart(today) - 1 };
    case 'next_month':
      return { from: monthStart(today, 1), to: monthStart(today, 2) - 1 };
  }
}
