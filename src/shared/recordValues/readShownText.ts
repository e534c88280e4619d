/**
 * The inverse of describeValue's formatters: numbers, amounts, percentages, calendar dates and
 * instants read back from the text the table (and an export "as shown") writes for a locale and a
 * time zone, so a file exported from PortalDesk and edited in a spreadsheet imports to the API's
 * values it was made from. Each reader learns the locale's marks (decimal and group separators,
 * minus sign, digits, month names, the order of a date's parts) from Intl itself, the same Intl
 * that wrote the text: nothing is listed by hand. Plain ISO forms (`1234.5`, `2026-03-05`,
 * `2026-03-05T15:30`) are read too: what someone types into a spreadsheet. Pure.
 */
import type { ValueContext } from './describeValue';

interface NumberMarks {
  group: string;
  decimal: string;
  minus: string;
  digits: Map<string, string>;
}

const marksCache = new Map<string, NumberMarks>();

function numberMarks(locale: string | undefined): NumberMarks {
  const key = locale ?? '';
  let marks = marksCache.get(key);
  if (marks) return marks;
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: 10 });
  const parts = format.formatToParts(-12345678.5);
  const digits = new Map<string, string>();
  const plain = new Intl.NumberFormat(locale, { useGrouping: false });
  for (let d = 0; d <= 9; d++) digits.set(plain.format(d), String(d));
  marks = {
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    minus: parts.find((p) => p.type === 'minusSign')?.value ?? '-',
    digits,
  };
  marksCache.set(key, marks);
  return marks;
}

/** Spaces of every kind (Intl writes no-break and narrow no-break ones) as one plain space. */
function plainSpaces(text: string): string {
  return text.replace(SPACES, ' ').trim();
}

const SPACES = /[\s\u00a0\u202f\u2007]+/g;

const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number written as the locale writes it (`1,234.5`, `1.234,5`, `1 234,5`, `−5`), or in plain
 * notation; null when it is neither. Group separators are accepted only between digits.
 */
export function readShownNumber(
  text: string,
  context: Pick<ValueContext, 'locale'>,
): number | null {
  const t = plainSpaces(text);
  if (t === '') return null;
  const marks = numberMarks(context.locale);
  // `1.234` is a thousand and more where the dot groups digits (de): the locale's reading wins.
  if (PLAIN_NUMBER.test(t) && !(marks.group === '.' && /^[+-]?\d{1,3}(\.\d{3})+$/.test(t))) {
    return finite(Number(t));
  }
  let out = '';
  // Digits since the last group mark (or the start), and whether a group mark was met: group
  // marks part the whole number into groups of three, or of two before the last three (as
  // en-IN writes 12,34,567). "1,5" is not fifteen where the comma groups digits: a file from a
  // locale whose comma is the decimal mark must not multiply its numbers by ten.
  let group = 0;
  let grouped = false;
  const groupsEnd = () => !grouped || group === 3;
  const chars = [...t];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const digit = marks.digits.get(c) ?? (/\d/.test(c) ? c : undefined);
    if (digit !== undefined) {
      out += digit;
      group++;
    } else if (c === marks.minus || c === '-' || c === '\u2212') {
      if (out !== '') return null;
      out += '-';
    } else if (c === marks.decimal) {
      if (!groupsEnd()) return null;
      out += '.';
      grouped = false;
    } else if (c === marks.group || (plainSpaces(marks.group) === '' && c === ' ')) {
      // A group mark stands between digits, never first or after the decimal mark.
      if (!/\d$/.test(out) || out.includes('.')) return null;
      if (grouped ? group < 2 || group > 3 : group > 3) return null;
      grouped = true;
      group = 0;
    } else return null;
  }
  if (!groupsEnd()) return null;
  return PLAIN_NUMBER.test(out) ? finite(Number(out)) : null;
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

/** A percentage as shown (`12.5 %`), the sign optional; null when it is not one. */
export function readShownPercentage(
  text: string,
  context: Pick<ValueContext, 'locale'>,
): number | null {
  return readShownNumber(plainSpaces(text).replace(/\s*%$/, ''), context);
}

/**
 * An amount as shown (`USD 1,234.50`, `1.234,50 EUR`, `jpy 1,500`), its code optional: the code
 * and the number apart; null when the rest is not a number.
 */
export function readShownAmount(
  text: string,
  context: Pick<ValueContext, 'locale'>,
): { amount: number; currencyCode: string | null } | null {
  const t = plainSpaces(text);
  // An ISO code anywhere (`USD 1.00`, `1,00 EUR`), else a code of other letters before the
  // number, as the table shows a code the service keeps that is not ISO (`jpy 1,500`). Letters
  // only: `$ 12` is no amount, not twelve of a currency "$".
  const code =
    /(?:^|[^A-Za-z])([A-Z]{3})(?:$|[^A-Za-z])/.exec(t)?.[1] ??
    /^(\p{L}+) [-+\u2212]?\d/u.exec(t)?.[1] ??
    null;
  // `-USD 0.01`: the sign before the code belongs to the number after it.
  const rest =
    code === null ? t : plainSpaces(t.replace(code, ' ')).replace(/^([-+\u2212]) /, '$1');
  const amount = readShownNumber(rest, context);
  return amount === null ? null : { amount, currencyCode: code };
}

type DateOrder = ('year' | 'month' | 'day' | 'hour' | 'minute' | 'dayPeriod')[];

interface DateReader {
  pattern: RegExp;
  order: DateOrder;
  months: Map<string, number>;
  periods: Map<string, 'am' | 'pm'>;
}

const readers = new Map<string, DateReader>();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A reader of what `format` writes, learnt from the parts of one instant it writes. */
function dateReader(key: string, format: Intl.DateTimeFormat, withTime: boolean): DateReader {
  let reader = readers.get(key);
  if (reader) return reader;
  const months = new Map<string, number>();
  const monthOnly = new Intl.DateTimeFormat(format.resolvedOptions().locale, {
    month: 'short',
    timeZone: 'UTC',
  });
  for (let m = 0; m < 12; m++) {
    const at = Date.UTC(2021, m, 15, 12);
    const fromFormat = format.formatToParts(at).find((p) => p.type === 'month')?.value;
    for (const name of [fromFormat, monthOnly.format(at)]) {
      if (name !== undefined) months.set(plainSpaces(name).toLowerCase(), m + 1);
    }
  }
  const periods = new Map<string, 'am' | 'pm'>();
  if (withTime) {
    for (const [hour, period] of [
      [3, 'am'],
      [15, 'pm'],
    ] as const) {
      const name = format
        .formatToParts(Date.UTC(2021, 0, 15, hour))
        .find((p) => p.type === 'dayPeriod')?.value;
      if (name !== undefined) periods.set(plainSpaces(name).toLowerCase(), period);
    }
  }
  const order: DateOrder = [];
  let source = '^';
  for (const part of format.formatToParts(Date.UTC(2021, 10, 23, 15, 45))) {
    switch (part.type) {
      case 'literal':
        // Spaces of any kind, or none: people retype dates with the spaces they have.
        source += escape(part.value.replace(SPACES, ' ')).replace(/ /g, ' ?');
        break;
      case 'year':
        // Four digits: "5 Mar 26" is 2026 to whoever typed it and year 26 to a reader of
        // numbers, so a shorter year is not read at all (yyyy-MM-dd still writes any year).
        order.push('year');
        source += '(\\d{4})';
        break;
      case 'day':
      case 'hour':
      case 'minute':
        order.push(part.type);
        source += '(\\d{1,4})';
        break;
      case 'month':
        order.push('month');
        source += '([^\\s\\d,./-]+\\.?|\\d{1,2})';
        break;
      case 'dayPeriod':
        order.push('dayPeriod');
        source += '([^\\s\\d]+)';
        break;
      default:
        break;
    }
  }
  reader = { pattern: new RegExp(`${source}$`, 'i'), order, months, periods };
  readers.set(key, reader);
  return reader;
}

interface WallReading {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function readWith(reader: DateReader, text: string): WallReading | null {
  const m = reader.pattern.exec(plainSpaces(text));
  if (!m) return null;
  const wall: WallReading = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
  let period: 'am' | 'pm' | null = null;
  for (let i = 0; i < reader.order.length; i++) {
    const value = m[i + 1]!;
    const what = reader.order[i]!;
    if (what === 'month') {
      const month = /^\d+$/.test(value)
        ? Number(value)
        : (reader.months.get(value.toLowerCase()) ??
          reader.months.get(value.toLowerCase().replace(/\.$/, '')));
      if (month === undefined) return null;
      wall.month = month;
    } else if (what === 'dayPeriod') {
      period = reader.periods.get(value.toLowerCase()) ?? null;
      if (period === null) return null;
    } else wall[what] = Number(value);
  }
  if (period !== null) {
    if (wall.hour < 1 || wall.hour > 12) return null;
    wall.hour = (wall.hour % 12) + (period === 'pm' ? 12 : 0);
  }
  return wall;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/;

/**
 * A calendar date as shown (`5 Mar 2026`, `Mar 5, 2026`, `05.03.2026`) or ISO, as `yyyy-MM-dd`
 * for the editor's rules to check; null when it is neither.
 */
export function readShownDate(text: string, context: Pick<ValueContext, 'locale'>): string | null {
  const t = plainSpaces(text);
  if (ISO_DATE.test(t)) return t;
  const format = new Intl.DateTimeFormat(context.locale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  const wall = readWith(dateReader(`d:${context.locale ?? ''}`, format, false), t);
  return wall === null ? null : `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/**
 * An instant as shown (`5 Mar 2026, 15:30` in the portal's zone) or written `yyyy-MM-ddTHH:mm`,
 * as that wall-clock time `yyyy-MM-ddTHH:mm` (the editor's rules read it in the portal's zone);
 * an ISO time stamp with `Z` or an offset is handed back as it is. Null when it is none of them.
 */
export function readShownInstant(text: string, context: ValueContext): string | null {
  const t = plainSpaces(text);
  if (ISO_LOCAL.test(t)) return t.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(t)) return t;
  // Learnt in UTC (the parts' order and names are the zone's too): month and day-period names
  // are read off fixed instants, which another zone would show on another day or half-day.
  const format = new Intl.DateTimeFormat(context.locale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  const wall = readWith(dateReader(`dt:${context.locale ?? ''}`, format, true), t);
  if (wall === null) return null;
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}
