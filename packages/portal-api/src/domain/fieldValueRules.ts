/**
 * The rules a custom field's value must follow (001, "Custom field value types") that the app and
 * the emulator must apply alike: the app's editor and outbox (src/shared/fieldValues/validateFieldValue)
 * and the emulator's create/update (packages/emulator/src/records/customValue). Each side keeps its own
 * input forms (the app is lenient: trims, numeric text) and its own messages.
 */
import { CUSTOM_FIELD_TYPES } from './customFieldTypes';

/** "Single-line | string | max 200 characters". */
export const SINGLE_LINE_MAX = CUSTOM_FIELD_TYPES.single_line.maxChars;
/** "Multi-line | string, lines separated by `\n` | max 1,000 characters". */
export const MULTI_LINE_MAX = CUSTOM_FIELD_TYPES.multi_line.maxChars;
/** "Multi-select ... max 100 selectable". */
export const MULTI_SELECT_MAX = CUSTOM_FIELD_TYPES.multi_select.maxSelectable;
/** "Multi-user ... max 500 users". */
export const MULTI_USER_MAX = CUSTOM_FIELD_TYPES.multi_user.maxUsers;
/** "Currency | object ... | max 100 characters": the stored object's JSON text. */
export const CURRENCY_MAX = CUSTOM_FIELD_TYPES.currency.maxChars;
/** "Percentage | number | max 20 characters". */
export const PERCENTAGE_MAX = CUSTOM_FIELD_TYPES.percentage.maxChars;
/** "Number | whole number | max 19 digits". */
export const NUMBER_MAX_DIGITS = CUSTOM_FIELD_TYPES.number.maxDigits;
/** "Decimal | number | max 17 digits". */
export const DECIMAL_MAX_DIGITS = CUSTOM_FIELD_TYPES.decimal.maxDigits;
/** "Email | string | max 200 characters". */
export const EMAIL_MAX = CUSTOM_FIELD_TYPES.email.maxChars;
/** "Phone | string, including `+` and `()` | max 15 characters". */
export const PHONE_MAX = CUSTOM_FIELD_TYPES.phone.maxChars;
/** "URL | string; `https://` is assumed when no protocol is given | max 200 characters". */
export const URL_MAX = CUSTOM_FIELD_TYPES.url.maxChars;

/** `yyyy-MM-dd`, the spec's date form (whether the day exists: isCalendarDate). */
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A pragmatic address check: one @, no spaces, a dot in the domain. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const PHONE = /^[0-9+() -]+$/;
const HAS_PROTOCOL = /^[a-z][a-z0-9+.-]*:\/\//i;
const URL_PROTOCOLS = new Set(['http:', 'https:', 'ftp:', 'ftps:']);

/** Characters as a user counts them (code points, not UTF-16 units). */
export const charCount = (text: string): number => [...text].length;

/** Line breaks as the spec stores them ("lines separated by `\n`"): `\r\n` and `\r` become `\n`. */
export const normalizeLineBreaks = (text: string): string => text.replace(/\r\n?/g, '\n');

/** A real calendar date `yyyy-MM-dd`, years 0001-9999. */
export function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  return day <= days;
}

/** A time of day `HH:MM`, 00:00 to 23:59. */
export const isClockTime = (text: string): boolean => CLOCK_TIME.test(text);

export const isEmailAddress = (text: string): boolean => EMAIL.test(text);

/** Digits, spaces, `+`, `(`, `)` and `-`, with at least one digit. */
export const isPhoneNumber = (text: string): boolean => PHONE.test(text) && /\d/.test(text);

/**
 * Digits of a number as written in plain decimal notation, without sign, point and the leading
 * zero of a fraction below one (0.25 has 2 digits, 120 has 3).
 */
export function digitCount(value: number): number {
  const text = String(Math.abs(value));
  const exp = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exp) return text.replace(/^0\./, '.').replace(/\D/g, '').length;
  const mantissa = (exp[1] ?? '') + (exp[2] ?? '');
  const power = Number(exp[3]);
  // d.ddd × 10^power: big numbers gain trailing zeros, small ones leading zeros after the point.
  return power >= 0 ? Math.max(mantissa.length, power + 1) : mantissa.length - power - 1;
}

/**
 * `amount` written with `precision` decimals, rounded half away from zero on the digits a person
 * reads (12.345 → "12.35", 1.005 → "1.01"), not on the binary value as `toFixed` rounds (1.005 →
 * "1.00"): the formatted amount a currency value shows, the same in the app's preview and in
 * the emulator's answer.
 */
export function fixedDecimals(amount: number, precision: number): string {
  const text = String(Math.abs(amount));
  const plain = /^(\d+)(?:\.(\d+))?$/.exec(text);
  // Exponent forms (1e21, 1e-7) are beyond any currency; toFixed writes them well enough.
  if (!plain) return amount.toFixed(precision);
  const whole = plain[1] as string;
  const fraction = plain[2] ?? '';
  let digits = whole + fraction.slice(0, precision).padEnd(precision, '0');
  if ((fraction[precision] ?? '0') >= '5') {
    digits = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  }
  const cut = digits.length - precision;
  const written = precision === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  const sign = amount < 0 && /[1-9]/.test(digits) ? '-' : '';
  return sign + written;
}

/** Decimals of `amount` as written in its shortest form (12.345 has 3, 1e-7 has 7). */
export function decimalPlaces(amount: number): number {
  const text = String(Math.abs(amount));
  const exp = /e-(\d+)$/.exec(text);
  if (exp) return Number(exp[1]) + (/\.(\d+)e/.exec(text)?.[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

/** "Currency | object {currency_code, formatted_amount, amount}": the amount as a code shows it. */
export const formattedAmount = (code: string, amount: number, precision: number): string =>
  `${code} ${fixedDecimals(amount, precision)}`;

/**
 * A URL field's stored text (`https://` put in front when no protocol is given), or why it is
 * refused: longer than URL_MAX with the protocol, not parseable, or not an http/https/ftp address.
 */
export function webAddress(
  text: string,
): { ok: true; url: string } | { ok: false; problem: 'too_long' | 'malformed' | 'not_web' } {
  const url = HAS_PROTOCOL.test(text) ? text : `https://${text}`;
  if (charCount(url) > URL_MAX) return { ok: false, problem: 'too_long' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (!URL_PROTOCOLS.has(parsed.protocol) || parsed.hostname === '' || /\s/.test(url)) {
    return { ok: false, problem: 'not_web' };
  }
  return { ok: true, url };
}
