/**
 * Calendar dates as whole days since 1970-01-01 (proleptic Gregorian), with integer arithmetic
 * only: `Date.UTC` maps years 0-99 to 1900-1999, and no time zone is involved in a date.
 */

export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 for a year, month (1-12) and day (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** The calendar date of a day number (H. Hinnant's civil_from_days). */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The day number of a `YYYY-MM-DD` string that names a real calendar date in years 0001-9999
 * (spec: "specific date `YYYY-MM-DD`"), or null.
 */
export function parseDate(text: string): number | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const days = daysFromCivil(year, month, day);
  const back = civilFromDays(days);
  return back.month === month && back.day === day ? days : null;
}

/** `YYYY-MM-DD` for a day number (4-digit years; callers stay within 0001-9999). */
export function formatDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

/** The first day of the month `offset` months after the month of `days`. */
export function monthStart(days: number, offset = 0): number {
  const { year, month } = civilFromDays(days);
  const index = year * 12 + (month - 1) + offset;
  return daysFromCivil(Math.floor(index / 12), (index % 12) + 1, 1);
}
