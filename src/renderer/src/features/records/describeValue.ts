/**
 * How a field's value is shown, decided apart from React so every custom field type's rendering
 * is tested without a browser: the table cell and the detail panel turn the description into
 * elements (FieldValue.tsx). Values arrive in the shapes the API shows them (spec 001, "Custom
 * field value types"; src/main/store/mirror/mirrorTypes.ts). Pure.
 */
import type { RecordRow } from '../../../../shared/contracts/records';

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

/** The value of a column of a row: fixed fields by their key, custom fields from `custom`. */
export function fieldValue(row: RecordRow, key: string): unknown {
  switch (key) {
    case 'id':
      return row.id;
    case 'name':
      return row.name;
    case 'description':
      return row.description;
    case 'status':
      return row.status;
    case 'owner':
      return row.owner;
    case 'project':
      return row.project;
    case 'created_time':
      return row.createdTime;
    case 'last_updated_time':
      return row.lastUpdatedTime;
    case 'is_closed':
      return row.isClosed;
    case 'is_external':
      return row.isExternal;
    default:
      return row.custom[key];
  }
}

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** An instant in the portal's zone, e.g. "5 Mar 2026, 15:30". */
export function formatInstant(iso: string, context: ValueContext): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const { timeZone, locale } = context;
  try {
    return cached(
      `dt:${locale ?? ''}:${timeZone}`,
      () =>
        new Intl.DateTimeFormat(locale, {
          timeZone,
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
        }),
    ).format(time);
  } catch {
    // An unknown zone name: the instant as stored rather than nothing.
    return iso;
  }
}

/** A calendar date (no zone: "2026-03-05" is that day everywhere), e.g. "5 Mar 2026". */
export function formatCivilDate(text: string, context: ValueContext): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return text;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return cached(
    `d:${context.locale ?? ''}`,
    () =>
      new Intl.DateTimeFormat(context.locale, {
        timeZone: 'UTC',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }),
  ).format(time);
}

function formatNumber(value: number, context: ValueContext, fraction = 10): string {
  return cached(
    `n:${context.locale ?? ''}:${fraction}`,
    () => new Intl.NumberFormat(context.locale, { maximumFractionDigits: fraction }),
  ).format(value);
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
    try {
      const text = cached(
        `c:${context.locale ?? ''}:${code}`,
        () =>
          new Intl.NumberFormat(context.locale, {
            style: 'currency',
            currency: code,
            currencyDisplay: 'code',
          }),
      ).format(amount);
      return textView(text, 'end');
    } catch {
      // A code Intl does not know: the code and the number side by side.
    }
    return textView(`${code} ${formatNumber(amount, context, 2)}`, 'end');
  }
  return textView(formatNumber(amount, context, 2), 'end');
}

function textView(text: string, align?: 'end'): ValueView {
  return align ? { kind: 'text', text, align } : { kind: 'text', text };
}

function userName(value: unknown): { text: string; title?: string } | null {
  if (typeof value === 'string' && value !== '') return { text: value };
  if (typeof value !== 'object' || value === null) return null;
  const { name, zpuid, email } = value as Record<string, unknown>;
  const text =
    typeof name === 'string' && name !== ''
      ? name
      : typeof zpuid === 'string'
        ? `User ${zpuid}`
        : null;
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
  switch (type) {
    case 'status': {
      if (typeof value !== 'object' || value === null) return EMPTY;
      const status = value as {
        id: string;
        name: string | null;
        color: string | null;
        isClosedType?: boolean;
      };
      return {
        kind: 'status',
        text: status.name ?? `Status ${status.id}`,
        color: status.color,
        closed: status.isClosedType === true,
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
      const items = (Array.isArray(value) ? value : [value]).map((item) => String(item));
      return { kind: 'chips', items };
    }
    case 'project': {
      if (typeof value !== 'object' || value === null) return EMPTY;
      const project = value as { id: string; name: string | null };
      return textView(project.name ?? `Project ${project.id}`);
    }
    case 'check_box':
      return { kind: 'check', checked: value === true || value === 1 || value === 'true' };
    case 'currency':
      return formatCurrency(value, context);
    case 'percentage':
      return typeof value === 'number'
        ? textView(`${formatNumber(value, context)} %`, 'end')
        : textView(String(value), 'end');
    case 'number':
    case 'decimal':
      return typeof value === 'number'
        ? textView(formatNumber(value, context), 'end')
        : textView(String(value), 'end');
    case 'date':
      return textView(formatCivilDate(String(value), context));
    case 'timestamp':
      return { kind: 'text', text: formatInstant(String(value), context), title: String(value) };
    case 'url': {
      const text = String(value);
      const href = safeHttpUrl(text);
      return href ? { kind: 'link', text, href } : textView(text);
    }
    case 'id':
      return { kind: 'text', text: String(value), mono: true };
    default:
      return textView(typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
}
