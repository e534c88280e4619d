/**
 * An Intl.DateTimeFormat to the minute (no seconds), without asking Intl for every instant: the
 * export writes two instants a row, and Intl's `format` was about 3 µs of a row's 17.8 µs of CPU
 * (bench/README.md, issue 20). Exact: it answers what the format would, or asks it.
 *
 * Why a quarter of an hour: every zone's offset today is a whole number of quarter hours, and
 * zones change offset at quarter-hour instants, so within a UTC quarter hour [q, q + 15 min) the
 * local time runs from a local quarter hour on and only its minute moves: the date, the hour and
 * everything else written are those of q. So the text of q is learnt once (`formatToParts`) and
 * the minute is counted on. A quarter for which that does not hold is asked of Intl instant by
 * instant: historical offsets of minutes and seconds (local mean time, Liberia's -0:44:30 until
 * 1972), a change of offset inside it, or a locale that does not write minutes in ASCII digits.
 */

const MINUTE_MS = 60_000;
const QUARTER_MS = 15 * MINUTE_MS;
/** Quarters remembered at most (about three years of them); then forgotten all at once. */
const QUARTERS_MAX = 100_000;

/** The text of a quarter around its minute; null: ask Intl for each instant in it. */
type Quarter = { before: string; minute: number; after: string } | null;

function twoDigits(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export class QuarterHourFormat {
  private readonly quarters = new Map<number, Quarter>();

  constructor(private readonly intl: Intl.DateTimeFormat) {}

  format(time: number): string {
    const index = Math.floor(time / QUARTER_MS);
    let quarter = this.quarters.get(index);
    if (quarter === undefined) {
      quarter = this.learn(index * QUARTER_MS);
      if (this.quarters.size >= QUARTERS_MAX) this.quarters.clear();
      this.quarters.set(index, quarter);
    }
    if (quarter === null) return this.intl.format(time);
    const minute = quarter.minute + Math.floor((time - index * QUARTER_MS) / MINUTE_MS);
    return quarter.before + twoDigits(minute) + quarter.after;
  }

  private learn(start: number): Quarter {
    const parts = this.intl.formatToParts(start);
    const at = parts.findIndex((part) => part.type === 'minute');
    if (at === -1 || parts.some((part, i) => i !== at && part.type === 'minute')) return null;
    const written = (parts[at] as Intl.DateTimeFormatPart).value;
    if (!/^[0-9]{2}$/.test(written)) return null;
    const minute = Number(written);
    // Not on a local quarter hour: an offset of odd minutes, whose hour would carry.
    if (minute % 15 !== 0) return null;
    // The text is format()'s, cut where the parts put the minute: the two differ in places (V8
    // writes U+202F before "AM" in the parts and a plain space in format()), never in length.
    const text = this.intl.format(start);
    const from = parts.slice(0, at).reduce((length, part) => length + part.value.length, 0);
    if (text.slice(from, from + 2) !== written) return null;
    const quarter = { before: text.slice(0, from), minute, after: text.slice(from + 2) };
    // Its last millisecond must read as counted on: an offset with seconds, or a change of offset
    // inside the quarter, reads otherwise.
    const last = start + QUARTER_MS - 1;
    if (this.intl.format(last) !== quarter.before + twoDigits(minute + 14) + quarter.after) {
      return null;
    }
    return quarter;
  }
}
