/**
 * Value formats per field kind (spec, "Filter guide": "Value formats"). Every value arrives as a
 * string; these read it into what the compiled filter compares with, or say what is wrong.
 */
import { parseDate } from './civilDate';
import type { FieldKind } from './types';

/** Numeric string: optional minus, digits, optional fraction. No exponent, spaces or `+`. */
const NUMERIC = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
/** Ids of statuses and options are longs (spec: "id (long)"). */
const LONG_ID = /^\d{1,19}$/;
/** The spec only says ZPUID (a string); we ask for no spaces or control characters, at most 64. */
const MAX_ZPUID_LENGTH = 64;

export type ParsedValue = { ok: true; value: string | number } | { ok: false; message: string };

/** A number from a numeric string, or null. */
export function parseNumeric(text: string): number | null {
  if (!NUMERIC.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Check box values (spec: "`true`/`false` or `1`/`0`") as stored: 1 or 0. */
export function parseBoolean(text: string): 0 | 1 | null {
  if (text === 'true' || text === '1') return 1;
  if (text === 'false' || text === '0') return 0;
  return null;
}

/**
 * Text SQLite and JavaScript see alike: no NUL (SQLite's length() stops at it) and no lone
 * surrogate halves (they cannot be written as UTF-8, so SQLite would see U+FFFD instead).
 */
export function isPortableText(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return false;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i += 1;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
}

function isZpuid(text: string): boolean {
  if (text.length === 0 || text.length > MAX_ZPUID_LENGTH || !isPortableText(text)) return false;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || /\s/u.test(ch)) return false;
  }
  return true;
}

const EMPTY_VALUE: ParsedValue = {
  ok: false,
  message: 'is empty; to find empty fields use "is_empty"',
};

function text(value: string): ParsedValue {
  if (!isPortableText(value)) {
    return { ok: false, message: 'contains a NUL character or a broken surrogate pair' };
  }
  return { ok: true, value };
}

/**
 * Reads one value for a field of `kind`. Date and date-time fields both take `YYYY-MM-DD` (the
 * spec has no date-time value format); a date-time value names that whole day in the portal's
 * time zone.
 */
export function parseValue(kind: FieldKind, value: string): ParsedValue {
  // Said the same way for every kind: "" is not a wrong number but no value at all.
  if (value === '') return EMPTY_VALUE;
  const shown = JSON.stringify(value);
  switch (kind) {
    case 'text':
    case 'picklist':
      return text(value);
    case 'number': {
      const number = parseNumeric(value);
      return number === null
        ? { ok: false, message: `${shown} is not a number; use digits, e.g. "42" or "-3.5"` }
        : { ok: true, value: number };
    }
    case 'date':
    case 'datetime': {
      const days = parseDate(value);
      return days === null
        ? {
            ok: false,
            message: /^\d{4}-\d{2}-\d{2}$/.test(value)
              ? `${shown} is not a real calendar date (years 0001-9999)`
              : `${shown} is not a date; use YYYY-MM-DD, e.g. "2026-01-31"`,
          }
        : { ok: true, value: days };
    }
    case 'boolean': {
      const flag = parseBoolean(value);
      return flag === null
        ? { ok: false, message: `${shown} is not a check box value; use true, false, 1 or 0` }
        : { ok: true, value: flag };
    }
    case 'status':
      return LONG_ID.test(value)
        ? { ok: true, value }
        : { ok: false, message: `${shown} is not a status id; use the status's numeric id` };
    case 'multipicklist':
      return LONG_ID.test(value)
        ? { ok: true, value }
        : {
            ok: false,
            message: `${shown} is not an option id; multi pick lists are filtered by numeric option id`,
          };
    case 'user':
      return isZpuid(value)
        ? { ok: true, value }
        : {
            ok: false,
            message: `${shown} is not a ZPUID; use the user's ZPUID (no spaces, at most ${MAX_ZPUID_LENGTH} characters)`,
          };
  }
}
