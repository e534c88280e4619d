/**
 * `Date.parse` of an instant as the service and `toISOString` write it, `2026-03-05T10:20:30.123Z`,
 * read digit by digit: an export reads two a row, a million rows, and `Date.parse` costs about
 * half a microsecond each (bench/README.md, "Instants as Intl writes them"). Any other text, or
 * a field out of its range (a month 13, a 30 February, the hour 24), is left to `Date.parse`, so
 * the answer is always `Date.parse`'s (test/unit/shared/isoInstant.property.test.ts).
 */

import { DAY_MS, daysFromCivil } from '@portaldesk/portal-api/filter/civilDate';

const ZERO = 48;

/** The number of the two digits at `at`, or -1. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - ZERO;
  const ones = text.charCodeAt(at + 1) - ZERO;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The instant `text` names, in ms since the epoch; NaN where `Date.parse` gives NaN. */
export function isoInstant(text: string): number {
  if (
    text.length !== 24 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || // T
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 || // .
    text.charCodeAt(23) !== 90 // Z
  ) {
    return Date.parse(text);
  }
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  const tenthsAndHundredths = twoDigits(text, 20);
  const thousandths = text.charCodeAt(22) - ZERO;
  const year = century * 100 + yearOfCentury;
  if (
    century < 0 ||
    yearOfCentury < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    tenthsAndHundredths < 0 ||
    thousandths < 0 ||
    thousandths > 9
  ) {
    return Date.parse(text);
  }
  return (
    daysFromCivil(year, month, day) * DAY_MS +
    ((hour * 60 + minute) * 60 + second) * 1000 +
    tenthsAndHundredths * 10 +
    thousandths
  );
}
