/**
 * Time stamps are edited as wall-clock times in the portal's time zone (issue 7: "dates and
 * timestamps in the portal's time zone") and stored as UTC instants. Intl only, so the renderer
 * and the engine convert alike; the zone's clock is read as the filter's date presets read it.
 */
import { wallClockAt, type WallClockReading } from '@portaldesk/portal-api/filter/timeZone';

function wallAsUtc(wall: WallClockReading): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
  return date.getTime();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyy-MM-ddTHH:mm` (seconds when not zero) of an instant in the zone, for an editor. */
export function formatZonedDateTime(instant: number, timeZone: string): string {
  const w = wallClockAt(instant, timeZone);
  const base = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
  return w.second === 0 ? base : `${base}:${pad(w.second)}`;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Whether a wall-clock time `yyyy-MM-ddTHH:mm[:ss]` is `instant`'s reading in the zone to the
 * unit it is written to: 14:30 shows 14:30:45.120 as a clock to the minute does.
 */
export function wallClockShows(text: string, instant: number, timeZone: string): boolean {
  if (!LOCAL.test(text) || Number.isNaN(instant)) return false;
  const w = wallClockAt(instant, timeZone);
  const minute = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
  return text.length === minute.length ? text === minute : text === `${minute}:${pad(w.second)}`;
}

/**
 * The instant a wall-clock time `yyyy-MM-ddTHH:mm[:ss]` names in the zone, or null when it is not
 * one. A time skipped by a DST change resolves to the same clock reading after the jump (as
 * clocks do); a repeated one to its first occurrence.
 */
export function parseZonedDateTime(text: string, timeZone: string): number | null {
  const m = LOCAL.exec(text);
  if (!m) return null;
  const wall: WallClockReading = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? '0'),
  };
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.hour > 23) return null;
  if (wall.minute > 59 || wall.second > 59 || wall.year < 1) return null;
  const asUtc = wallAsUtc(wall);
  const probe = new Date(asUtc);
  if (probe.getUTCDate() !== wall.day || probe.getUTCMonth() !== wall.month - 1) return null;
  // Offsets a day either side and at the guess: a DST change that day makes them differ, and
  // every instant showing that wall-clock time is among the candidates.
  const offsetAt = (instant: number) => wallAsUtc(wallClockAt(instant, timeZone)) - instant;
  const candidates = [asUtc - 86_400_000, asUtc, asUtc + 86_400_000].map(
    (probe) => asUtc - offsetAt(probe),
  );
  const exact = candidates.filter((instant) => wallAsUtc(wallClockAt(instant, timeZone)) === asUtc);
  if (exact.length > 0) return Math.min(...exact);
  // Skipped by a jump forward: the same reading after the jump (the earlier offset applied).
  return Math.max(...candidates);
}

const ZONE_DESIGNATOR = /T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The zone designator of an ISO time stamp (`Z`, `+05:30`), or null when it has none: the part
 * of a time stamp an edit of its date and time keeps (issue 14).
 */
export function zoneDesignatorOf(stamp: unknown): string | null {
  if (typeof stamp !== 'string') return null;
  return ZONE_DESIGNATOR.exec(stamp)?.[1] ?? null;
}

/**
 * An instant written at a fixed offset, the spec's `yyyy-MM-dd'T'HH:mm:ss[+|-]HH:mm` (milliseconds
 * only when there are some); `Z` and a malformed offset give the UTC ISO form.
 */
export function formatAtOffset(instant: number, designator: string): string {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(designator);
  if (!m) return new Date(instant).toISOString();
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  const wall = new Date(instant + minutes * 60_000);
  const date = `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
  const time = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`;
  const ms = wall.getUTCMilliseconds();
  return `${date}T${time}${ms === 0 ? '' : `.${pad(ms, 3)}`}${designator}`;
}
