/**
 * fast-check generators of what a record editor meets: a field of every type the editor takes
 * (the spec's "Custom field value types" and the record's own name, description, status and
 * external flag) and values of it as the service or a pending edit holds them, odd ones
 * included: other currency codes with the service's formatted amounts, amounts with more
 * decimals than the field shows, lists of up to 500 users (some no longer offered), options the
 * layout dropped, time stamps at non-UTC offsets, portal zones with odd offsets.
 */
import fc from 'fast-check';
import type { EditableField } from '../../../../src/shared/ipc/areas/outbox';
import { CUSTOM_FIELD_TYPE_NAMES } from '@portaldesk/portal-api/domain/customFieldTypes';
import { isEmailAddress } from '@portaldesk/portal-api/domain/fieldValueRules';
import { editableField } from './editableField';

/** Every type the editor edits. */
export const EDITOR_TYPES: readonly string[] = [
  ...CUSTOM_FIELD_TYPE_NAMES,
  'name',
  'description',
  'status',
  'is_external',
];

/** Portal zones: half-hour, quarter-hour and DST offsets besides UTC. */
export const ZONES = ['Asia/Kolkata', 'America/St_Johns', 'Europe/Berlin', 'Asia/Kathmandu', 'UTC'];
export const zone = fc.constantFrom(...ZONES);

export const OPTIONS = ['Critical', 'Leased', 'Remote', 'Spare', 'Ünïcode ✓', 'With, comma'];
/** Options a record may hold that its layout no longer offers. */
const DROPPED_OPTIONS = ['Retired', 'Old tag'];
/** A portal's people; the fields offer the first 40, records may hold any of them. */
export const PEOPLE = Array.from({ length: 600 }, (_, i) => ({
  zpuid: String(200_000 + i),
  name: `Person ${i}`,
}));
const OFFERED_USERS = PEOPLE.slice(0, 40);
export const STATUSES = [
  { id: '11', name: 'Open', color: '#2a64d6', isClosedType: false },
  { id: '12', name: 'In review', color: null, isClosedType: false },
  { id: '13', name: 'Closed', color: '#1f8a4c', isClosedType: true },
];
export const CODES = ['INR', 'USD', 'EUR', 'JPY', 'KWD', 'BHD', 'CHF'];

/** The editor's field of `type`, keyed `cf_<type>` (or the record's own key). */
export function fieldOf(type: string, extra: Partial<EditableField> = {}): EditableField {
  const own = ['name', 'description', 'status', 'is_external'].includes(type);
  return editableField(type, {
    key: own ? type : `cf_${type}`,
    label: own ? type[0]!.toUpperCase() + type.slice(1) : `Field ${type.replace('_', ' ')}`,
    mandatory: type === 'name' || type === 'status',
    options: OPTIONS.map((name, i) => ({ id: String(900 + i), name })),
    users: OFFERED_USERS,
    statuses: type === 'status' ? STATUSES : [],
    ...extra,
  });
}

/** A field with the settings that vary: precision and default code, restricted users. */
export function fieldArb(type: string): fc.Arbitrary<EditableField> {
  return fc
    .record({
      precision: fc.constantFrom(0, 2, 3),
      currencyCode: fc.constantFrom('USD', 'INR'),
      usersRestricted: fc.boolean(),
    })
    .map((extra) => fieldOf(type, extra));
}

/** Amounts and decimals as people type them: up to 6 decimals. */
export const decimalNumber = fc
  .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 6 }))
  .map(([n, places]) => n / 10 ** places);

/**
 * An amount as a person reads it, rounded half away from zero at `precision` decimals: Intl's
 * reading, an oracle independent of the app's own rounding (fixedDecimals).
 */
export function shownAmount(amount: number, precision: number, grouping = false): string {
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: precision,
    maximumFractionDigits: precision,
    useGrouping: grouping,
    roundingMode: 'halfExpand',
    signDisplay: 'negative',
  }).format(amount);
}

const currencyValue = fc
  .record({ code: fc.constantFrom(...CODES), amount: decimalNumber, grouped: fc.boolean() })
  .map(({ code, amount, grouped }) => ({
    currency_code: code,
    // The service renders this; its form is the service's, kept as it came.
    formatted_amount: `${code} ${grouped ? shownAmount(amount, 2, true) : String(amount)}`,
    amount,
  }));

export const OFFSETS = ['Z', '+05:30', '-03:30', '+05:45', '+12:45', '-10:00', '+00:00'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `instant` written at a `+HH:mm` offset, as a service may answer (`yyyy-MM-ddTHH:mm:ss+HH:mm`). */
function atOffset(instant: number, offset: string): string {
  const sign = offset[0] === '-' ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const wall = new Date(instant + minutes * 60_000).toISOString().slice(0, 19);
  return `${wall}${offset}`;
}

/** The zone designator a time stamp ends with (`Z`, `+05:30`), or null. */
export const designatorOf = (stamp: unknown): string | null =>
  typeof stamp === 'string' ? (/(Z|[+-]\d{2}:\d{2})$/.exec(stamp)?.[1] ?? null) : null;

const timestampValue = fc
  .record({
    instant: fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }),
    offset: fc.constantFrom(...OFFSETS),
    withMs: fc.boolean(),
  })
  .map(({ instant, offset, withMs }) => {
    const whole = Math.floor(instant / 1000) * 1000;
    if (offset === 'Z') {
      const iso = new Date(whole).toISOString();
      return withMs ? iso : iso.replace('.000Z', 'Z');
    }
    return atOffset(whole, offset);
  });

const dateValue = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z') })
  .filter((d) => !Number.isNaN(d.getTime()))
  .map((d) => d.toISOString().slice(0, 10));

const timeValue = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${pad(h)}:${pad(m)}`);

const lineText = fc
  .array(fc.constantFrom('a', 'Z', '7', ' ', 'é', '—', '😀', ',', '"'), { maxLength: 40 })
  .map((chars) => chars.join(''));
const multiLineText = fc
  .array(fc.constantFrom('a', 'b', ' ', '\n', 'é', '\r\n'), { maxLength: 60 })
  .map((chars) => chars.join(''));

const person = fc.constantFrom(...PEOPLE).chain((p) =>
  fc.constantFrom(
    { zpuid: p.zpuid, name: p.name },
    // The service may add members the editor does not know: they must come back untouched.
    { zpuid: p.zpuid, name: p.name, email: `${p.name.replace(' ', '.')}@example.com` },
  ),
);

const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  name: lineText.filter((t) => t.trim() !== ''),
  description: multiLineText,
  status: fc.constantFrom(...STATUSES).map((s) => ({
    id: s.id,
    name: s.name,
    color: s.color,
    is_closed_type: s.isClosedType,
  })),
  is_external: fc.boolean(),
  single_line: lineText,
  multi_line: multiLineText,
  pick_list: fc.constantFrom(...OPTIONS, ...DROPPED_OPTIONS),
  multi_select: fc.uniqueArray(fc.constantFrom(...OPTIONS, ...DROPPED_OPTIONS), { maxLength: 8 }),
  user_pick_list: person,
  multi_user: fc.uniqueArray(person, { selector: (u) => u.zpuid, maxLength: 500 }),
  date: dateValue,
  time: timeValue,
  timestamp: timestampValue,
  check_box: fc.boolean(),
  currency: currencyValue,
  percentage: fc.oneof(fc.integer({ min: 0, max: 100 }), decimalNumber),
  number: fc.maxSafeInteger(),
  decimal: decimalNumber,
  email: fc.emailAddress().filter((e) => e.length <= 200 && isEmailAddress(e)),
  phone: fc.stringMatching(/^\+?[0-9 ()-]{1,14}$/).filter((p) => /\d/.test(p) && p.length <= 15),
  url: fc.webUrl().filter((u) => u.length <= 200),
};

/** A value of the type as the form holds it; optional fields are sometimes empty. */
export function valueArb(type: string, options: { maxUsers?: number } = {}): fc.Arbitrary<unknown> {
  let values = VALUES[type];
  if (!values) throw new Error(`No values for type ${type}`);
  if (type === 'multi_user' && options.maxUsers !== undefined) {
    values = fc.uniqueArray(person, { selector: (u) => u.zpuid, maxLength: options.maxUsers });
  }
  if (type === 'name' || type === 'status' || type === 'is_external') return values;
  return fc.option(values, { nil: null, freq: 6 });
}

/** Text that is not a number as validateFieldValue reads numbers (empty text included). */
export const notANumber = fc
  .string({ maxLength: 8 })
  .filter((text) => !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()));
