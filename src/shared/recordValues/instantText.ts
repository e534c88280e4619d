/**
 * An instant's text as an `Intl.DateTimeFormat` of a zone shows it, made without a call into Intl
 * for each instant: an export formats two instants a row, a million rows, and Intl's `format`
 * costs about a fifth of a row's time there (bench/README.md, "Instants as Intl writes them").
 *
 * What is learnt from Intl, once, and reused:
 * - the zone's offset for each UTC day: read at the day's start and at the next day's start; when
 *   both agree it holds the whole day, because no zone changes its offset twice within two days
 *   (checked against every zone of tzdata from 1850 to 2100 with `zdump -v`: the closest two
 *   transitions of any zone are more than 48 hours apart). A day whose two readings differ holds
 *   a transition: its instants are formatted by Intl, each.
 * - each local day's text around the time (the date and the literals beside it), from one
 *   instant of that day;
 * - each minute of the day's time text (hour, minute, day period and the literals between them),
 *   from a twin of the format in UTC.
 * The pieces are found in the format's parts; a format whose parts are of any other kind (era,
 * weekday, seconds, a zone's name), whose time parts are not side by side, whose digits are not
 * Latin or whose calendar is not Gregorian, or that fails a check against Intl on sample instants
 * when made, is left to Intl. Instants before 1900 or from 2100 on are left to Intl too. Pure
 * (its caches aside); `test/unit/shared/instantText.property.test.ts` holds it to Intl.
 */

import { DAY_MS } from '@portaldesk/portal-api/filter/civilDate';
import { offsetAt } from '@portaldesk/portal-api/filter/timeZone';

const MINUTE_MS = 60_000;
/** 1900-01-01 and 2100-01-01 (UTC): outside, Intl formats each instant. */
const FIRST = Date.UTC(1900, 0, 1);
const END = Date.UTC(2100, 0, 1);
const TIME_PARTS: ReadonlySet<string> = new Set(['hour', 'minute', 'dayPeriod']);
const DATE_PARTS: ReadonlySet<string> = new Set(['day', 'month', 'year']);

export type InstantText = (time: number) => string;

/**
 * How `format` shows instants: fast where it can be, Intl's own elsewhere. `format` is
 * `new Intl.DateTimeFormat(locale, options)`, the zone in `options`.
 */
export function instantTextOf(
  format: Intl.DateTimeFormat,
  options: Intl.DateTimeFormatOptions,
): InstantText {
  const intl: InstantText = (time) => format.format(time);
  const layout = layoutOf(format, options);
  if (layout === null) return intl;
  const fast = learntText(format, layout);
  return checked(fast, intl) ? fast : intl;
}

/** Where the time's parts sit among the format's parts. */
interface Layout {
  /** The format's options in UTC: it shows a local day and minute as they are. */
  utc: Intl.DateTimeFormat;
  /** The zone (as Intl resolved its name). */
  timeZone: string;
  first: number;
  last: number;
  /** How many parts the format writes (every instant of the range, the same). */
  count: number;
}

function layoutOf(format: Intl.DateTimeFormat, options: Intl.DateTimeFormatOptions): Layout | null {
  const resolved = format.resolvedOptions();
  if (resolved.numberingSystem !== 'latn' || resolved.calendar !== 'gregory') return null;
  const parts = format.formatToParts(Date.UTC(2001, 4, 15, 15, 30));
  let first = -1;
  let last = -1;
  for (const [index, part] of parts.entries()) {
    if (TIME_PARTS.has(part.type)) {
      if (first < 0) first = index;
      last = index;
    } else if (part.type !== 'literal' && !DATE_PARTS.has(part.type)) {
      return null;
    }
  }
  if (first < 0) return null;
  for (let index = first; index <= last; index++) {
    if (DATE_PARTS.has(parts[index]!.type)) return null;
  }
  return {
    // The same options (a resolved option may name another skeleton: ja's short month resolves
    // to a numeric one, whose text differs), the locale as resolved (one Intl chose).
    utc: new Intl.DateTimeFormat(resolved.locale, { ...options, timeZone: 'UTC' }),
    timeZone: resolved.timeZone,
    first,
    last,
    count: parts.length,
  };
}

function learntText(format: Intl.DateTimeFormat, layout: Layout): InstantText {
  const { utc, timeZone, first, last, count } = layout;
  /** The zone's offset (ms) through each UTC day, or null for a day holding a transition. */
  const offsets = new Map<number, number | null>();
  /** The text before and after the time, by local day. */
  const days = new Map<number, readonly [string, string] | null>();
  const minutes = new Array<string | null | undefined>(DAY_MS / MINUTE_MS);

  const offsetOfDay = (utcDay: number): number | null => {
    let offset = offsets.get(utcDay);
    if (offset === undefined) {
      const start = offsetAt(utcDay * DAY_MS, timeZone);
      offset = start === offsetAt((utcDay + 1) * DAY_MS, timeZone) ? start : null;
      offsets.set(utcDay, offset);
    }
    return offset;
  };
  const aroundOf = (localDay: number): readonly [string, string] | null => {
    let around = days.get(localDay);
    if (around === undefined) {
      const text = shownParts(utc, localDay * DAY_MS + DAY_MS / 2, count);
      around = text && [text.shown.slice(0, text.starts[first]), text.shown.slice(text.ends[last])];
      days.set(localDay, around);
    }
    return around;
  };
  const timeOf = (minute: number): string | null => {
    let time = minutes[minute];
    if (time === undefined) {
      const text = shownParts(utc, minute * MINUTE_MS, count);
      time = text && text.shown.slice(text.starts[first], text.ends[last]);
      minutes[minute] = time;
    }
    return time;
  };

  return (time) => {
    if (!(time >= FIRST && time < END)) return format.format(time);
    const offset = offsetOfDay(Math.floor(time / DAY_MS));
    if (offset === null) return format.format(time);
    const local = time + offset;
    const localDay = Math.floor(local / DAY_MS);
    const around = aroundOf(localDay);
    if (around === null) return format.format(time);
    const shown = timeOf(Math.floor((local - localDay * DAY_MS) / MINUTE_MS));
    return shown === null ? format.format(time) : around[0] + shown + around[1];
  };
}

/**
 * `format`'s text of an instant, with where each of its parts starts and ends in it. The text is
 * `format`'s own, not the parts joined: V8's `format` writes a plain space where its parts have
 * ICU's narrow no-break space (U+202F, before "AM" in en-US), so only the places are taken from
 * the parts; null when the two texts differ in length, or the parts are not the format's usual
 * ones (the places would be wrong).
 */
function shownParts(
  format: Intl.DateTimeFormat,
  time: number,
  count: number,
): { shown: string; starts: number[]; ends: number[] } | null {
  const shown = format.format(time);
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const part of format.formatToParts(time)) {
    starts.push(at);
    at += part.value.length;
    ends.push(at);
  }
  return at === shown.length && starts.length === count ? { shown, starts, ends } : null;
}

/**
 * The learnt text against Intl's on instants a format could get wrong: every minute of a day's
 * noon hour and midnight, every hour of days in each month, the ends of the years it covers.
 */
function checked(fast: InstantText, intl: InstantText): boolean {
  const samples: number[] = [];
  const day = Date.UTC(2024, 1, 29);
  for (let minute = 0; minute < 24 * 60; minute += minute < 60 || minute >= 11 * 60 ? 1 : 7) {
    samples.push(day + minute * MINUTE_MS);
  }
  for (let month = 0; month < 12; month++) {
    for (let hour = 0; hour < 24; hour++) samples.push(Date.UTC(2026, month, 1 + month * 2, hour));
  }
  samples.push(FIRST, FIRST + 59_999, END - 1, Date.UTC(1999, 11, 31, 23, 59, 59, 999));
  return samples.every((time) => fast(time) === intl(time));
}
