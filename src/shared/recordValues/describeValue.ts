/**
 * How a field's value is shown, decided apart from React so every custom field type's rendering
 * is tested without a browser: the table cell and the detail panel turn the description into
 * elements (FieldValue.tsx). Values arrive in the shapes the API shows them (spec 001, "Custom
 * field value types"; src/main/store/mirror/mirrorTypes.ts). Pure.
 */
import type { RecordRow } from '../ipc/areas/records';
import { instantTextOf, type InstantText } from './instantText';
import { isoInstant } from './isoInstant';

export type ValueView =
  | { kind: 'empty' }
  | { kind: 'text'; text: string; title?: string; align?: 'end'; mono?: boolean }
  | { kind: 'status'; text: string; color: string | null; closed: boolean }
  | { kind: 'user'; text: string; title?: string }
  | { kind: 'chips'; items: string[] }
  | { kind: 'check'; checked: boolean }
  | { kind: 'link'; text: string; href: string };

export interface ValueContext {
  /** The portal's IANA zone: times are shown as the portal's people see them. */
  timeZone: string;
  /** BCP 47 locale for numbers and dates; the browser's when absent. */
  locale?: string;
}

const EMPTY: ValueView = { kind: 'empty' };

/** The fixed fields' values by their key; any other key is a custom field's api_name. */
const FIXED_FIELDS: Readonly<Record<string, (row: RecordRow) => unknown>> = {
  id: (row) => row.id,
  name: (row) => row.name,
  description: (row) => row.description,
  status: (row) => row.status,
  owner: (row) => row.owner,
  project: (row) => row.project,
  created_time: (row) => row.createdTime,
  last_updated_time: (row) => row.lastUpdatedTime,
  is_closed: (row) => row.isClosed,
  is_external: (row) => row.isExternal,
};

/**
 * How a column's value is read from a row, found once for many rows (an export's cells): fixed
 * fields by their key, custom fields from `custom`.
 */
export function fieldGetter(key: string): (row: RecordRow) => unknown {
  return Object.hasOwn(FIXED_FIELDS, key) ? FIXED_FIELDS[key]! : (row) => row.custom[key];
}

/** The value of a column of a row. */
export function fieldValue(row: RecordRow, key: string): unknown {
  return fieldGetter(key)(row);
}

/**
 * The Intl formatters of a locale and zone, made when first used. A list's or an export's cells
 * share one context object, so its formatters are found by that object (a WeakMap, no key text
 * built for every value: an export formats millions; bench/README.md, "Rows read for their
 * columns"); a context made afresh finds those of its locale and zone by their key, as every
 * value once did. A context is not changed once made (its formatters would not follow).
 */
interface ContextFormatters {
  /** Intl's instant format, its text learnt once a day and minute (instantText.ts). */
  instant?: InstantText;
  civilDate?: Intl.DateTimeFormat;
  number?: Intl.NumberFormat;
  currencies: Map<string, Intl.NumberFormat>;
}

const formattersByContext = new WeakMap<ValueContext, ContextFormatters>();
const formattersByKey = new Map<string, ContextFormatters>();

function formattersOf(context: ValueContext): ContextFormatters {
  let formatters = formattersByContext.get(context);
  if (formatters) return formatters;
  const key = `${context.locale ?? ''}\n${context.timeZone}`;
  formatters = formattersByKey.get(key);
  if (!formatters) {
    formatters = { currencies: new Map() };
    formattersByKey.set(key, formatters);
  }
  formattersByContext.set(context, formatters);
  return formatters;
}

/** An instant in the portal's zone, e.g. "5 Mar 2026, 15:30". */
export function formatInstant(iso: string, context: ValueContext): string {
  const time = isoInstant(iso);
  if (Number.isNaN(time)) return iso;
  const formatters = formattersOf(context);
  if (!formatters.instant) {
    const options: Intl.DateTimeFormatOptions = {
      timeZone: context.timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    };
    try {
      formatters.instant = instantTextOf(new Intl.DateTimeFormat(context.locale, options), options);
    } catch {
      // An unknown zone name: the instant as stored rather than nothing.
      return iso;
    }
  }
  return formatters.instant(time);
}

/** A calendar date (no zone: "2026-03-05" is that day everywhere), e.g. "5 Mar 2026". */
export function formatCivilDate(text: string, context: ValueContext): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return text;
  // setUTCFullYear keeps years 1-99 as written (Date.UTC would show 0050 as 1950).
  const time = new Date(0).setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const formatters = formattersOf(context);
  formatters.civilDate ??= new Intl.DateTimeFormat(context.locale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return formatters.civilDate.format(time);
}

/**
 * Every decimal the spec allows (Decimal "max 17 digits": 1e-17 at the smallest) is shown to its
 * last digit, never rounded to fewer: Intl's own ceiling.
 */
const ALL_FRACTION_DIGITS = 20;

/**
 * A number a double could not hold, kept as the service's exact text by the API client
 * (src/main/api/client/exactNumbers.ts); Intl formats such text exactly. Exponent forms
 * (1e400) are shown as written.
 */
const EXACT_NUMBER_TEXT = /^-?\d+(?:\.\d+)?$/;

/** A number, or a number kept as its exact text; null for anything else. */
function numberOrText(value: unknown): number | string | null {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && EXACT_NUMBER_TEXT.test(value) ? value : null;
}

/** `value` with all its decimals (never rounded to fewer). */
function formatNumber(value: number | string, context: ValueContext): string {
  const formatters = formattersOf(context);
  formatters.number ??= new Intl.NumberFormat(context.locale, {
    maximumFractionDigits: ALL_FRACTION_DIGITS,
  });
  const format = formatters.number;
  // Intl formats a string of digits exactly (its type lists only number and bigint).
  return format.format(value as number);
}

/**
 * An amount in a currency Intl knows, e.g. "USD 1,234.50", with the currency's decimals and any
 * further ones the amount has ("USD 12.345": never rounded to cents); null for a code Intl refuses.
 */
function formatKnownCurrency(amount: number, code: string, context: ValueContext): string | null {
  const { currencies } = formattersOf(context);
  let format = currencies.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat(context.locale, {
        style: 'currency',
        currency: code,
        currencyDisplay: 'code',
        maximumFractionDigits: ALL_FRACTION_DIGITS,
      });
    } catch {
      return null;
    }
    currencies.set(code, format);
  }
  return format.format(amount);
}

function formatCurrency(value: unknown, context: ValueContext): ValueView {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'number' ? textView(formatNumber(value, context), 'end') : EMPTY;
  }
  const {
    amount,
    currency_code: code,
    formatted_amount: formatted,
  } = value as Record<string, unknown>;
  if (typeof amount !== 'number') {
    return typeof formatted === 'string' && formatted !== '' ? textView(formatted, 'end') : EMPTY;
  }
  if (typeof code === 'string' && /^[A-Z]{3}$/.test(code)) {
    // A code Intl does not know: the code and the number side by side.
    const text =
      formatKnownCurrency(amount, code, context) ?? `${code} ${formatNumber(amount, context)}`;
    return textView(text, 'end');
  }
  // Any other code the service keeps (the editor takes any text: "jpy", "USDT") is shown too:
  // an amount without its code reads as the field's currency.
  if (typeof code === 'string' && code.trim() !== '') {
    return textView(`${code.trim()} ${formatNumber(amount, context)}`, 'end');
  }
  return textView(formatNumber(amount, context), 'end');
}

/** Any value as text; a value of the wrong shape shows as its JSON, never "[object Object]". */
function plainText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function textView(text: string, align?: 'end'): ValueView {
  return align ? { kind: 'text', text, align } : { kind: 'text', text };
}

/** A user's, status's or project's name; "<what> <id>" without one; null without either. */
function nameOrId(name: unknown, id: unknown, what: string): string | null {
  if (typeof name === 'string' && name !== '') return name;
  return typeof id === 'string' ? `${what} ${id}` : null;
}

function userName(value: unknown): { text: string; title?: string } | null {
  if (typeof value === 'string' && value !== '') return { text: value };
  if (typeof value !== 'object' || value === null) return null;
  const { name, zpuid, email } = value as Record<string, unknown>;
  const text = nameOrId(name, zpuid, 'User');
  if (text === null) return null;
  return typeof email === 'string' && email !== '' ? { text, title: email } : { text };
}

/** Only web addresses become links; anything else shows as text (never a javascript: URL). */
export function safeHttpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * The view of `value` for a field of `type`: a custom field type (customFieldTypes.ts) or one of
 * the fixed fields' own types (name, status, owner, project, id).
 */
export function describeValue(type: string, value: unknown, context: ValueContext): ValueView {
  if (isEmpty(value)) return EMPTY;
  const view = describeShape(type, value, context);
  // A value of a shape the type does not have is still there: shown as text, never as empty.
  return view === EMPTY ? textView(plainText(value)) : view;
}

function describeShape(type: string, value: unknown, context: ValueContext): ValueView {
  switch (type) {
    case 'status': {
      if (typeof value !== 'object' || value === null) return EMPTY;
      const { id, name, color, isClosedType } = value as Record<string, unknown>;
      const text = nameOrId(name, id, 'Status');
      if (text === null) return EMPTY;
      return {
        kind: 'status',
        text,
        color: typeof color === 'string' ? color : null,
        closed: isClosedType === true,
      };
    }
    case 'owner':
    case 'user_pick_list': {
      const user = userName(value);
      return user ? { kind: 'user', ...user } : EMPTY;
    }
    case 'multi_user': {
      const items = (Array.isArray(value) ? value : [value]).flatMap((item) => {
        const user = userName(item);
        return user ? [user.text] : [];
      });
      return items.length === 0 ? EMPTY : { kind: 'chips', items };
    }
    case 'multi_select': {
      const items = (Array.isArray(value) ? value : [value]).map(plainText);
      return { kind: 'chips', items };
    }
    case 'project': {
      if (typeof value !== 'object' || value === null) return EMPTY;
      const { id, name } = value as Record<string, unknown>;
      const text = nameOrId(name, id, 'Project');
      return text === null ? EMPTY : textView(text);
    }
    case 'check_box':
      return { kind: 'check', checked: value === true || value === 1 || value === 'true' };
    case 'currency':
      return formatCurrency(value, context);
    case 'percentage': {
      const number = numberOrText(value);
      return number !== null
        ? textView(`${formatNumber(number, context)} %`, 'end')
        : textView(plainText(value), 'end');
    }
    case 'number':
    case 'decimal': {
      const number = numberOrText(value);
      return number !== null
        ? textView(formatNumber(number, context), 'end')
        : textView(plainText(value), 'end');
    }
    case 'date':
      return textView(
        typeof value === 'string' ? formatCivilDate(value, context) : plainText(value),
      );
    case 'timestamp':
      return typeof value === 'string'
        ? { kind: 'text', text: formatInstant(value, context), title: value }
        : textView(plainText(value));
    case 'url': {
      const href = typeof value === 'string' ? safeHttpUrl(value) : null;
      return href ? { kind: 'link', text: value as string, href } : textView(plainText(value));
    }
    case 'id':
      return { kind: 'text', text: plainText(value), mono: true };
    default:
      return textView(plainText(value));
  }
}
