/**
 * Checks a value a user entered for one field of a record against the field's type and the
 * spec's limits (001, "Custom field value types" and "Custom-module record (entity)"), and turns
 * it into the shape the API shows (what the overlay stores and lists display). Pure: the editor
 * in the renderer checks in place with it, the engine checks again before anything is queued.
 *
 * Inputs an editor sends: text as strings; pick list as an option name (or id); multi-select as
 * option names; a user as a zpuid or `{zpuid}`; several users as a list of those; dates
 * `yyyy-MM-dd`; times `HH:MM`; time stamps as the portal's wall-clock time `yyyy-MM-ddTHH:mm` or
 * an ISO instant with `Z` or an offset; numbers as numbers or numeric text; currency as an amount
 * or `{amount, currency_code?}`; check boxes as booleans.
 *
 * Emptying is explicit (issue 14): `null` empties a field, and so do '' for text, pick list and
 * user fields and [] for lists; spaces are text, never a clear. Empty text for a number, amount,
 * date, time or time stamp is refused: it is what an emptied or unreadable input gives, never a
 * request to clear.
 *
 * Untouched parts are kept (issue 14): given the value the field holds now (`current`), a
 * currency without a code keeps the current code, items a list already holds pass as they are
 * (even those today's options or users no longer offer), a wall-clock time stamp keeps the
 * current one's offset, and a value equal to the current one comes back as the current one,
 * byte for byte.
 */
import type { EditableField } from '../ipc/areas/outbox';
import { ENTITY_LIMITS } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  CURRENCY_MAX,
  DATE_PATTERN,
  DECIMAL_MAX_DIGITS,
  EMAIL_MAX,
  MULTI_LINE_MAX,
  MULTI_SELECT_MAX,
  MULTI_USER_MAX,
  NUMBER_MAX_DIGITS,
  PERCENTAGE_MAX,
  PHONE_MAX,
  SINGLE_LINE_MAX,
  URL_MAX,
  charCount,
  digitCount,
  formattedAmount,
  isCalendarDate,
  isClockTime,
  isEmailAddress,
  isPhoneNumber,
  normalizeLineBreaks,
  webAddress,
} from '@portaldesk/portal-api/domain/fieldValueRules';
import { inexactDouble } from './exactDecimal';
import { sameFieldValue } from './sameFieldValue';
import { formatAtOffset, parseZonedDateTime, zoneDesignatorOf } from './zonedDateTime';

/** "name (string, req, max 200)". */
export const NAME_MAX = ENTITY_LIMITS.name;
/** "description (string, max 80000)". */
export const DESCRIPTION_MAX = ENTITY_LIMITS.description;

/** `value` in the shape the API shows it; null empties the field. */
export type FieldCheck = { ok: true; value: unknown } | { ok: false; rule: string };

export interface ValidationContext {
  /** The portal's IANA zone: wall-clock time stamps are read in it. */
  timeZone: string;
  /**
   * The value the field holds now, as the editor shows it (pending edits included); absent for a
   * new record. Parts and items of it that the input does not change are kept as they are.
   */
  current?: unknown;
}

const ok = (value: unknown): FieldCheck => ({ ok: true, value });
const fail = (rule: string): FieldCheck => ({ ok: false, rule });

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const isBlank = (input: unknown): boolean => typeof input === 'string' && input.trim() === '';

/** What empties a field: null, '' and []. Spaces are text (the service keeps them). */
function isEmpty(input: unknown): boolean {
  return (
    input === null ||
    input === undefined ||
    input === '' ||
    (Array.isArray(input) && input.length === 0)
  );
}

/** Types whose empty text is not a value but an emptied or unreadable input: what they take. */
const BLANK_IS_NOT_EMPTY: Record<string, string> = {
  number: 'a whole number',
  decimal: 'a number',
  percentage: 'a number',
  currency: 'an amount',
  date: 'a date',
  time: 'a time',
  timestamp: 'a date and time',
};

/**
 * A number from a number or its text; null for anything else, and for text whose value a double
 * cannot hold: `1e400` (Infinity, which JSON would send as null: a clear) or `1e-400` (a non-zero
 * amount read as 0). Those are refused, never stored as something else.
 */
function asNumber(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (!NUMERIC.test(text)) return null;
  const n = Number(text);
  if (!Number.isFinite(n)) return null;
  const mantissa = text.replace(/[eE].*$/, '');
  return n === 0 && /[1-9]/.test(mantissa) ? null : n;
}

/**
 * Why typed text cannot be kept as the number it says (a double keeps about 15 digits: the spec's
 * 17-digit Decimal does not fit), or null: sending the double would change what was typed.
 */
function inexactRule(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const text = input.trim();
  const double = inexactDouble(text);
  if (double === null || !Number.isFinite(double) || double === 0) return null;
  return `a number PortalDesk can keep exactly: ${text} would be sent as ${String(double)}; type at most 15 significant digits.`;
}

function text(input: unknown, max: number, what: string): FieldCheck {
  if (typeof input !== 'string') return fail(`${what} must be text.`);
  if (charCount(input) > max) return fail(`at most ${max} characters (${charCount(input)} given).`);
  return ok(input);
}

/** Text whose line breaks are stored as `\n` (description, multi-line), checked against `max`. */
function multiLineText(input: unknown, max: number, what: string): FieldCheck {
  return text(typeof input === 'string' ? normalizeLineBreaks(input) : input, max, what);
}

function zpuidOf(input: unknown): string | null {
  if (typeof input === 'string' && input.trim() !== '') return input.trim();
  if (typeof input === 'number' && Number.isSafeInteger(input)) return String(input);
  if (typeof input === 'object' && input !== null && 'zpuid' in input) {
    return zpuidOf((input as { zpuid: unknown }).zpuid);
  }
  return null;
}

function userValue(field: EditableField, input: unknown, held: readonly unknown[]): FieldCheck {
  const zpuid = zpuidOf(input);
  if (zpuid === null) return fail('choose a user.');
  // A user the field holds now stays as it is, even one the field no longer offers.
  const kept = held.find((item) => zpuidOf(item) === zpuid);
  if (kept !== undefined) return ok(kept);
  const known = field.users.find((user) => user.zpuid === zpuid);
  if (!known && field.usersRestricted) {
    return fail(`user ${zpuid} is not one of the users this field allows.`);
  }
  return ok({ zpuid, name: known?.name ?? null });
}

function optionNamed(field: EditableField, input: string) {
  return (
    field.options.find((option) => option.name === input) ??
    field.options.find((option) => option.id === input)
  );
}

function optionList(field: EditableField): string {
  return field.options.length === 0
    ? 'the field has no options'
    : `options: ${field.options.map((o) => `"${o.name}"`).join(', ')}`;
}

function instantValue(input: unknown, context: ValidationContext): FieldCheck {
  if (typeof input !== 'string') return fail('a date and time, yyyy-MM-ddTHH:mm.');
  const trimmed = input.trim();
  let instant: number | null = null;
  // The offset written with the time, else (a wall-clock time) the offset the value has now.
  let designator = zoneDesignatorOf(context.current);
  if (INSTANT.test(trimmed)) {
    const date = trimmed.slice(0, 10);
    instant = isCalendarDate(date) ? Date.parse(trimmed) : null;
    designator = zoneDesignatorOf(trimmed);
  } else {
    instant = parseZonedDateTime(trimmed, context.timeZone);
  }
  if (instant === null || Number.isNaN(instant)) {
    return fail(`a date and time written yyyy-MM-ddTHH:mm (in ${context.timeZone}).`);
  }
  const year = new Date(instant).getUTCFullYear();
  if (year < 1 || year > 9999) return fail('a year between 0001 and 9999.');
  return ok(formatAtOffset(instant, designator ?? 'Z'));
}

function currencyCodeOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const code = (value as { currency_code?: unknown }).currency_code;
  return typeof code === 'string' && code.trim() !== '' ? code : null;
}

function currencyValue(field: EditableField, input: unknown, current: unknown): FieldCheck {
  let amount: number | null;
  // An amount alone keeps the currency the value has now; the field's code is for a new value.
  let code = currencyCodeOf(current) ?? field.currencyCode;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const object = input as Record<string, unknown>;
    amount = asNumber(object.amount);
    if (object.currency_code !== undefined && object.currency_code !== null) {
      if (typeof object.currency_code !== 'string' || object.currency_code.trim() === '') {
        return fail('the currency code must be text such as "USD".');
      }
      code = object.currency_code.trim();
    }
  } else {
    amount = asNumber(input);
  }
  if (amount === null) return fail('an amount (a number) is required.');
  const typed =
    typeof input === 'object' && input !== null ? (input as { amount?: unknown }).amount : input;
  const inexact = inexactRule(typed);
  if (inexact) return fail(inexact);
  const value = {
    currency_code: code,
    formatted_amount: formattedAmount(code, amount, field.precision),
    amount,
  };
  if (charCount(JSON.stringify(value)) > CURRENCY_MAX) {
    return fail(`at most ${CURRENCY_MAX} characters as stored (code and amount).`);
  }
  return ok(value);
}

function urlValue(input: unknown): FieldCheck {
  if (typeof input !== 'string') return fail('a web address.');
  const address = webAddress(input.trim());
  if (address.ok) return ok(address.url);
  switch (address.problem) {
    case 'too_long':
      return fail(`at most ${URL_MAX} characters, https:// included when it is added.`);
    case 'malformed':
      return fail('a valid web address, such as example.com/page.');
    case 'not_web':
      return fail('an http, https or ftp address.');
  }
}

function listOf(input: unknown): unknown[] | null {
  if (Array.isArray(input)) return input;
  return null;
}

/** The value to store for `input`, in the API's shape, or the rule it breaks. */
export function validateFieldValue(
  field: EditableField,
  input: unknown,
  context: ValidationContext,
): FieldCheck {
  // The value the field holds now, handed back, is no change, whatever today's rules say of it
  // (an option since removed, a space the service kept): it comes back as it is.
  if (context.current !== undefined && JSON.stringify(input) === JSON.stringify(context.current)) {
    return ok(context.current);
  }
  const check = checkValue(field, input, context);
  // The same value as now comes back as it is now: nothing the user did not touch is rewritten.
  if (
    check.ok &&
    context.current !== undefined &&
    sameFieldValue(field.type, check.value, context.current)
  ) {
    return ok(context.current);
  }
  return check;
}

function checkValue(field: EditableField, input: unknown, context: ValidationContext): FieldCheck {
  const held = Array.isArray(context.current) ? context.current : [];
  const takes = BLANK_IS_NOT_EMPTY[field.type];
  if (takes !== undefined && isBlank(input)) {
    return fail(`nothing was entered: type ${takes}, or clear the field to empty it.`);
  }
  const required = field.mandatory || field.type === 'name' || field.type === 'status';
  if (
    (isEmpty(input) || (required && isBlank(input))) &&
    field.type !== 'check_box' &&
    field.type !== 'is_external'
  ) {
    if (required) {
      return fail(`${field.label} is required and cannot be emptied.`);
    }
    return ok(null);
  }
  switch (field.type) {
    case 'name': {
      if (typeof input !== 'string') return fail('the name must be text.');
      const name = input.trim();
      if (/[\r\n]/.test(name)) return fail('the name is one line: no line breaks.');
      return text(name, NAME_MAX, 'the name');
    }
    case 'description':
      return multiLineText(input, DESCRIPTION_MAX, 'the description');
    case 'single_line':
      if (typeof input === 'string' && /[\r\n]/.test(input)) {
        return fail('one line only: no line breaks.');
      }
      return text(input, SINGLE_LINE_MAX, 'the value');
    case 'multi_line':
      return multiLineText(input, MULTI_LINE_MAX, 'the value');
    case 'status': {
      const id =
        typeof input === 'string'
          ? input
          : typeof input === 'object' && input !== null && 'id' in input
            ? String((input as { id: unknown }).id)
            : null;
      const status = field.statuses.find((s) => s.id === id || s.name === id);
      const waiting = field.waitingStatuses?.find((s) => s.id === id || s.name === id);
      if (!status && waiting) return fail(waiting.reason);
      if (!status) {
        const names = field.statuses.map((s) => `"${s.name}"`).join(', ');
        return fail(
          names === ''
            ? 'no status change is allowed from the current status.'
            : `a status the current one may move to: ${names}.`,
        );
      }
      return ok({
        id: status.id,
        name: status.name,
        color: status.color,
        is_closed_type: status.isClosedType,
      });
    }
    case 'is_external':
    case 'check_box':
      if (input === null || input === undefined) {
        return field.mandatory ? fail(`${field.label} is required.`) : ok(null);
      }
      return typeof input === 'boolean' ? ok(input) : fail('yes or no (true or false).');
    case 'pick_list': {
      if (typeof input !== 'string') return fail('one option.');
      // The option the field holds now stays, even one this layout no longer offers.
      if (input === context.current) return ok(input);
      const option = optionNamed(field, input);
      return option ? ok(option.name) : fail(`"${input}" is not an option; ${optionList(field)}.`);
    }
    case 'multi_select': {
      const items = listOf(input);
      if (!items) return fail('a list of options.');
      const names: string[] = [];
      for (const item of items) {
        // Options the field holds now stay, even ones this layout no longer offers.
        const kept = held.find((h) => typeof h === 'string' && h === item) as string | undefined;
        const option =
          kept ?? (typeof item === 'string' ? optionNamed(field, item)?.name : undefined);
        if (option === undefined) {
          return fail(`"${String(item)}" is not an option; ${optionList(field)}.`);
        }
        if (!names.includes(option)) names.push(option);
      }
      if (names.length > MULTI_SELECT_MAX) {
        return fail(`at most ${MULTI_SELECT_MAX} options (${names.length} chosen).`);
      }
      return ok(names);
    }
    case 'user_pick_list': {
      const now = context.current;
      return userValue(field, input, now === null || now === undefined ? [] : [now]);
    }
    case 'multi_user': {
      const items = listOf(input);
      if (!items) return fail('a list of users.');
      const users: unknown[] = [];
      const chosen = new Set<string>();
      for (const item of items) {
        const user = userValue(field, item, held);
        if (!user.ok) return user;
        const zpuid = zpuidOf(user.value) as string;
        if (!chosen.has(zpuid)) users.push(user.value);
        chosen.add(zpuid);
      }
      if (users.length > MULTI_USER_MAX) {
        return fail(`at most ${MULTI_USER_MAX} users (${users.length} chosen).`);
      }
      return ok(users);
    }
    case 'date':
      if (typeof input !== 'string' || !DATE_PATTERN.test(input.trim())) {
        return fail('a date written yyyy-MM-dd.');
      }
      return isCalendarDate(input.trim())
        ? ok(input.trim())
        : fail(`${input.trim()} is not a real calendar date.`);
    case 'time':
      return typeof input === 'string' && isClockTime(input.trim())
        ? ok(input.trim())
        : fail('a time written HH:MM, 00:00 to 23:59.');
    case 'timestamp':
      return instantValue(input, context);
    case 'currency':
      return currencyValue(field, input, context.current);
    case 'percentage': {
      const n = asNumber(input);
      if (n === null) return fail('a number.');
      const inexact = inexactRule(input);
      if (inexact) return fail(inexact);
      return String(n).length > PERCENTAGE_MAX
        ? fail(`at most ${PERCENTAGE_MAX} characters.`)
        : ok(n);
    }
    case 'number': {
      const n = asNumber(input);
      if (n === null || !Number.isInteger(n)) return fail('a whole number.');
      if (!Number.isSafeInteger(n)) return fail('a whole number PortalDesk can keep exactly.');
      return digitCount(n) > NUMBER_MAX_DIGITS
        ? fail(`at most ${NUMBER_MAX_DIGITS} digits.`)
        : ok(n);
    }
    case 'decimal': {
      const n = asNumber(input);
      if (n === null) return fail('a number.');
      const inexact = inexactRule(input);
      if (inexact) return fail(inexact);
      return digitCount(n) > DECIMAL_MAX_DIGITS
        ? fail(`at most ${DECIMAL_MAX_DIGITS} digits.`)
        : ok(n);
    }
    case 'email': {
      const result = text(
        typeof input === 'string' ? input.trim() : input,
        EMAIL_MAX,
        'the address',
      );
      if (!result.ok) return result;
      return isEmailAddress(result.value as string)
        ? result
        : fail('an address like name@example.com.');
    }
    case 'phone': {
      const result = text(
        typeof input === 'string' ? input.trim() : input,
        PHONE_MAX,
        'the number',
      );
      if (!result.ok) return result;
      const phone = result.value as string;
      return isPhoneNumber(phone) ? result : fail('digits, spaces, +, (, ) and - only.');
    }
    case 'url':
      return urlValue(input);
    default:
      return fail(`fields of type ${field.type} cannot be edited in PortalDesk.`);
  }
}
