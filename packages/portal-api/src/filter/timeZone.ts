/**
 * Instants <-> wall-clock dates in an IANA time zone, using only Intl.DateTimeFormat (no date
 * libraries; the ECMAScript Intl API is available in Node, Electron and browsers alike).
 */
import { DAY_MS, daysFromCivil } from './civilDate';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Constructing one is slow and throws RangeError for an unknown zone; keep one per zone.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True when Intl knows the zone. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** What a clock in the zone shows at an instant; years before 0001 as 0, -1, ... */
export interface WallClockReading {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in the zone (throws RangeError for an unknown zone). */
export function wallClockAt(instant: number, timeZone: string): WallClockReading {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    parts[part.type] = part.value;
  }
  const yearOfEra = Number(parts.year);
  // Dates before year 1 come out as "1 BC" = year 0 (only reachable near 0001-01-01).
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra;
  return {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

interface WallClock {
  /** Day number of the local date. */
  days: number;
  /** Seconds since local midnight. */
  seconds: number;
}

function wallClock(instant: number, timeZone: string): WallClock {
  const wall = wallClockAt(instant, timeZone);
  return {
    days: daysFromCivil(wall.year, wall.month, wall.day),
    seconds: wall.hour * 3600 + wall.minute * 60 + wall.second,
  };
}

/** The local date (day number) of an instant in the zone. */
export function localDay(instant: number, timeZone: string): number {
  return wallClock(instant, timeZone).days;
}

/** Local time minus UTC at an instant, in milliseconds (whole seconds). */
export function offsetAt(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const wholeSecond = Math.floor(instant / 1000) * 1000;
  return wall.days * DAY_MS + wall.seconds * 1000 - wholeSecond;
}

/**
 * The first instant of the local day `days` in the zone.
 *
 * Usually local midnight; candidates come from the offsets a day either side (a DST change that
 * day makes them differ) and the earliest that really is local midnight wins, so an ambiguous
 * midnight resolves to its first occurrence. Where midnight does not exist (clocks jump forward
 * at 00:00, as in some American zones), the day starts at the jump: found by bisection to the
 * second.
 */
export function startOfDay(days: number, timeZone: string): number {
  const midnightAsUtc = days * DAY_MS;
  const candidates = new Set<number>();
  for (const probe of [midnightAsUtc - DAY_MS, midnightAsUtc, midnightAsUtc + DAY_MS]) {
    candidates.add(midnightAsUtc - offsetAt(probe, timeZone));
  }
  const exact = [...candidates]
    .filter((instant) => {
      const wall = wallClock(instant, timeZone);
      return wall.days === days && wall.seconds === 0;
    })
    .sort((a, b) => a - b);
  if (exact.length > 0) return exact[0] as number;

  // Smallest whole second whose wall clock is on or after local midnight of `days`. Offsets stay
  // within +-18 hours, so the answer lies in this window.
  let low = Math.floor((midnightAsUtc - 18 * 3_600_000) / 1000);
  let high = Math.ceil((midnightAsUtc + 18 * 3_600_000) / 1000);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (wallClock(middle * 1000, timeZone).days >= days) high = middle;
    else low = middle + 1;
  }
  return low * 1000;
}
