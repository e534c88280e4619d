/**
 * Custom field values of records (spec, "Custom field value types"): what a create or update body
 * may carry under a field's api_name, checked against the type's shape and limit, and turned into
 * the stored form of the `custom` JSON column (see packages/emulator/README.md, "Custom field storage").
 *
 * Pure: the field, the input and (for updates) the stored value go in; the new stored value or a
 * message naming the field and the rule comes out.
 */
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
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

/** What validation needs to know about a field on the record's layout. */
export interface ValueField {
  apiName: string;
  type: CustomFieldType;
  /** Options selectable on the record's layout (pick list and multi-select). */
  options: readonly { id: string; value: string }[];
  /** Used when a currency value has no currency_code (field_type_properties.currency_value). */
  currencyCode: string;
  /** Decimals of the default formatted_amount (field_type_properties.precision_value). */
  precision: number;
}

export interface ValueContext {
  /** Why this user cannot be chosen in the field, or null when they can. */
  userProblem(zpuid: string): string | null;
}

/** `value: undefined` clears the field. */
export type ValueResult = { ok: true; value: unknown } | { ok: false; message: string };

export type WriteMode = 'create' | 'update';

const ok = (value: unknown): ValueResult => ({ ok: true, value });
const fail = (message: string): ValueResult => ({ ok: false, message });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * "yyyy-MM-dd'T'HH:mm:ss'Z'" or "...[+|-]HH:mm" (milliseconds also accepted, as responses carry
 * them) as the stored UTC form `YYYY-MM-DDTHH:mm:ss.SSSZ`, or null.
 */
export function normalizeTimestamp(text: string): string | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (!isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`) || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  // setUTCFullYear keeps years 0-99 as written (Date.UTC would map them to 1900-1999).
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  date.setUTCHours(hour, minute - offsetMinutes, second, Number((m[7] ?? '0').padEnd(3, '0')));
  const year = date.getUTCFullYear();
  return year < 1 || year > 9999 ? null : date.toISOString();
}

function textValue(field: ValueField, input: unknown, max: number): ValueResult {
  if (typeof input !== 'string') return fail(`${field.apiName} must be a string.`);
  if (input === '') return ok(undefined);
  if (charCount(input) > max) return fail(`${field.apiName} is longer than ${max} characters.`);
  return ok(input);
}

function optionFor(field: ValueField, text: string) {
  return (
    field.options.find((option) => option.value === text) ??
    field.options.find((option) => option.id === text)
  );
}

function optionList(field: ValueField): string {
  const names = field.options.map((option) => `"${option.value}"`);
  return names.length === 0 ? 'the field has no options' : `options: ${names.join(', ')}`;
}

/** Option names (or ids) to option ids; the message names the first unknown one. */
function optionIds(field: ValueField, items: unknown[], where: string): string[] | string {
  const ids: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      return `${field.apiName}${where} must hold option names (strings), not ${JSON.stringify(item)}.`;
    }
    const option = optionFor(field, item);
    if (!option) {
      return `${field.apiName}${where}: "${item}" is not an option of the field; ${optionList(field)}.`;
    }
    if (!ids.includes(option.id)) ids.push(option.id);
  }
  return ids;
}

function zpuidOf(item: unknown): string | null {
  if (!isRecord(item)) return null;
  const zpuid = item.zpuid;
  if (typeof zpuid === 'number' && Number.isSafeInteger(zpuid)) return String(zpuid);
  return typeof zpuid === 'string' && zpuid !== '' ? zpuid : null;
}

/** `[{zpuid}]` to checked ZPUIDs; the message names the first problem. */
function userIds(
  field: ValueField,
  items: unknown[],
  where: string,
  context: ValueContext,
): string[] | string {
  const ids: string[] = [];
  for (const item of items) {
    const zpuid = zpuidOf(item);
    if (zpuid === null) {
      return `${field.apiName}${where} must hold objects like {"zpuid": "<user id>"}, not ${JSON.stringify(item)}.`;
    }
    const problem = context.userProblem(zpuid);
    if (problem) return `${field.apiName}${where}: ${problem}`;
    if (!ids.includes(zpuid)) ids.push(zpuid);
  }
  return ids;
}

/** `[{add: [...], remove: [...]}]`: the one object of an update, or null when `input` is not one. */
function changeObject(input: unknown[]): Record<string, unknown> | null {
  if (input.length !== 1 || !isRecord(input[0])) return null;
  const item = input[0];
  return 'add' in item || 'remove' in item ? item : null;
}

function storedList(current: unknown): string[] {
  return Array.isArray(current)
    ? current.filter((item): item is string => typeof item === 'string')
    : [];
}

/**
 * Applies `{add, remove}` to the stored list. `toIds` turns the items of one side into ids or a
 * message. Removing what is not there and adding what is are no-ops; naming one item on both
 * sides is refused (the order of the two is not defined).
 */
function applyChange(
  field: ValueField,
  change: Record<string, unknown>,
  current: unknown,
  toIds: (items: unknown[], where: string) => string[] | string,
): string[] | string {
  for (const key of Object.keys(change)) {
    if (key !== 'add' && key !== 'remove') {
      return `${field.apiName}: "${key}" is not allowed in an update object; use add and remove.`;
    }
  }
  const sides: Record<'add' | 'remove', string[]> = { add: [], remove: [] };
  for (const side of ['add', 'remove'] as const) {
    const items = change[side];
    if (items === undefined) continue;
    if (!Array.isArray(items)) return `${field.apiName}.${side} must be an array.`;
    const ids = toIds(items, `.${side}`);
    if (typeof ids === 'string') return ids;
    sides[side] = ids;
  }
  const both = sides.add.find((id) => sides.remove.includes(id));
  if (both !== undefined) {
    return `${field.apiName}: ${both} is both added and removed in one update.`;
  }
  const result = storedList(current).filter((id) => !sides.remove.includes(id));
  for (const id of sides.add) if (!result.includes(id)) result.push(id);
  return result;
}

function listValue(
  field: ValueField,
  input: unknown,
  mode: WriteMode,
  current: unknown,
  max: number,
  shape: string,
  toIds: (items: unknown[], where: string) => string[] | string,
): ValueResult {
  if (!Array.isArray(input)) return fail(`${field.apiName} must be an array of ${shape}.`);
  const change = changeObject(input);
  if (change && mode === 'create') {
    return fail(`${field.apiName}: a new record takes an array of ${shape}, not {add, remove}.`);
  }
  if (!change && input.length > max) {
    return fail(`${field.apiName} has ${input.length} items; at most ${max} are allowed.`);
  }
  const ids = change ? applyChange(field, change, current, toIds) : toIds(input, '');
  if (typeof ids === 'string') return fail(ids);
  if (ids.length > max) {
    return fail(`${field.apiName} would hold ${ids.length} items; at most ${max} are allowed.`);
  }
  return ok(ids.length === 0 ? undefined : ids);
}

function currencyValue(field: ValueField, input: unknown): ValueResult {
  const name = field.apiName;
  if (!isRecord(input)) {
    return fail(`${name} must be an object {currency_code, formatted_amount, amount}.`);
  }
  for (const key of Object.keys(input)) {
    if (!['currency_code', 'formatted_amount', 'amount'].includes(key)) {
      return fail(
        `${name}.${key} is not a currency property; use currency_code, formatted_amount, amount.`,
      );
    }
  }
  const { amount, currency_code: code, formatted_amount: formatted } = input;
  if (amount === undefined || amount === null) return fail(`${name}.amount is required.`);
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    return fail(`${name}.amount must be a number.`);
  }
  if (code !== undefined && (typeof code !== 'string' || code.trim() === '')) {
    return fail(`${name}.currency_code must be a non-empty string.`);
  }
  if (formatted !== undefined && typeof formatted !== 'string') {
    return fail(`${name}.formatted_amount must be a string.`);
  }
  const currency = (code as string | undefined) ?? field.currencyCode;
  const value = {
    currency_code: currency,
    formatted_amount:
      (formatted as string | undefined) ?? formattedAmount(currency, amount, field.precision),
    amount,
  };
  if (charCount(JSON.stringify(value)) > CURRENCY_MAX) {
    return fail(`${name} is longer than ${CURRENCY_MAX} characters (as JSON).`);
  }
  return ok(value);
}

function urlValue(field: ValueField, input: unknown): ValueResult {
  if (typeof input !== 'string') return fail(`${field.apiName} must be a string.`);
  if (input === '') return ok(undefined);
  const address = webAddress(input);
  if (address.ok) return ok(address.url);
  switch (address.problem) {
    case 'too_long':
      return fail(
        `${field.apiName} is longer than ${URL_MAX} characters (with https:// added when no protocol is given).`,
      );
    case 'malformed':
      return fail(`${field.apiName} is not a valid URL.`);
    case 'not_web':
      return fail(`${field.apiName} is not a valid http, https or ftp URL.`);
  }
}

/**
 * The stored value for `input` under `field`, or why it is refused. `null` (and an empty string or
 * array) clears the field; whether that is allowed (mandatory fields) is the caller's decision.
 */
export function customValue(
  field: ValueField,
  input: unknown,
  mode: WriteMode,
  current: unknown,
  context: ValueContext,
): ValueResult {
  const name = field.apiName;
  if (input === null) return ok(undefined);
  switch (field.type) {
    case 'single_line': {
      if (typeof input === 'string' && /[\r\n]/.test(input)) {
        return fail(`${name} is a single-line field and cannot hold line breaks.`);
      }
      return textValue(field, input, SINGLE_LINE_MAX);
    }
    case 'multi_line':
      return textValue(
        field,
        typeof input === 'string' ? normalizeLineBreaks(input) : input,
        MULTI_LINE_MAX,
      );
    case 'pick_list': {
      if (typeof input !== 'string') return fail(`${name} must be a string (one option).`);
      if (input === '') return ok(undefined);
      const option = optionFor(field, input);
      if (!option)
        return fail(`${name}: "${input}" is not an option of the field; ${optionList(field)}.`);
      return ok(option.value);
    }
    case 'multi_select':
      return listValue(
        field,
        input,
        mode,
        current,
        MULTI_SELECT_MAX,
        'option names',
        (items, where) => optionIds(field, items, where),
      );
    case 'user_pick_list': {
      const zpuid = zpuidOf(input);
      if (zpuid === null) return fail(`${name} must be an object {"zpuid": "<user id>"}.`);
      const problem = context.userProblem(zpuid);
      return problem ? fail(`${name}: ${problem}`) : ok(zpuid);
    }
    case 'multi_user':
      return listValue(
        field,
        input,
        mode,
        current,
        MULTI_USER_MAX,
        '{zpuid} objects',
        (items, where) => userIds(field, items, where, context),
      );
    case 'date':
      if (typeof input !== 'string' || !DATE_PATTERN.test(input)) {
        return fail(`${name} must be a date written yyyy-MM-dd.`);
      }
      return isCalendarDate(input)
        ? ok(input)
        : fail(`${name}: ${input} is not a real calendar date.`);
    case 'time':
      return typeof input === 'string' && isClockTime(input)
        ? ok(input)
        : fail(`${name} must be a time written HH:MM (00:00 to 23:59).`);
    case 'timestamp': {
      const stored = typeof input === 'string' ? normalizeTimestamp(input) : null;
      return stored === null
        ? fail(
            `${name} must be a time stamp written yyyy-MM-ddTHH:mm:ssZ or yyyy-MM-ddTHH:mm:ss+HH:mm.`,
          )
        : ok(stored);
    }
    case 'check_box':
      return typeof input === 'boolean' ? ok(input) : fail(`${name} must be true or false.`);
    case 'currency':
      return currencyValue(field, input);
    case 'percentage':
      if (typeof input !== 'number' || !Number.isFinite(input))
        return fail(`${name} must be a number.`);
      return String(input).length > PERCENTAGE_MAX
        ? fail(`${name} is longer than ${PERCENTAGE_MAX} characters.`)
        : ok(input);
    case 'number':
      if (typeof input !== 'number' || !Number.isInteger(input)) {
        return fail(`${name} must be a whole number.`);
      }
      return digitCount(input) > NUMBER_MAX_DIGITS
        ? fail(`${name} has more than ${NUMBER_MAX_DIGITS} digits.`)
        : ok(input);
    case 'decimal':
      if (typeof input !== 'number' || !Number.isFinite(input))
        return fail(`${name} must be a number.`);
      return digitCount(input) > DECIMAL_MAX_DIGITS
        ? fail(`${name} has more than ${DECIMAL_MAX_DIGITS} digits.`)
        : ok(input);
    case 'email': {
      const result = textValue(field, input, EMAIL_MAX);
      if (!result.ok || result.value === undefined) return result;
      return isEmailAddress(input as string)
        ? result
        : fail(`${name} is not a valid email address.`);
    }
    case 'phone': {
      const result = textValue(field, input, PHONE_MAX);
      if (!result.ok || result.value === undefined) return result;
      const text = input as string;
      return isPhoneNumber(text)
        ? result
        : fail(`${name} may hold only digits, spaces, +, (, ) and -.`);
    }
    case 'url':
      return urlValue(field, input);
  }
}
