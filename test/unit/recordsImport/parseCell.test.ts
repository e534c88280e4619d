/**
 * parseCell is the inverse of the export's cells "as shown" (cellText.ts): for every editable
 * field type, in several locales and time zones, parse(show(v)) is v (fast-check), with and
 * without the CSV formula guard; a cell that shows what a record holds is "same"; and what cannot
 * be read fails with the editor's words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formattedAmount } from '@portaldesk/portal-api/domain/fieldValueRules';
import type { EditableField } from '../../../src/shared/ipc/areas/outbox';
import { valueCell } from '../../../src/shared/recordValues/cellText';
import { parseCell, splitItems } from '../../../src/shared/recordValues/parseCell';
import { sameFieldValue } from '../../../src/shared/fieldValues/sameFieldValue';
import {
  formatZonedDateTime,
  parseZonedDateTime,
} from '../../../src/shared/fieldValues/zonedDateTime';

const LOCALES = ['en-GB', 'en-US', 'de-DE', 'fr-FR', 'hi-IN', 'ja-JP', 'es-ES'];
const ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe'];

const OPTIONS = ['Laptop', 'Desk, standing', 'Monitor', '=SUM(A1)', "'quoted", 'Ünïcode'];
const USERS = [
  { zpuid: '5001', name: 'Maya Raman' },
  { zpuid: '5002', name: 'Jonas Weber, Jr.' },
  { zpuid: '5003', name: 'Ärger Ölmann' },
  { zpuid: '5004', name: null },
];
const STATUSES = [
  { id: '2001', name: 'Open', color: '#2a64d6', isClosedType: false },
  { id: '2002', name: 'In Review', color: null, isClosedType: false },
  { id: '2003', name: 'Approved', color: '#1f8a4c', isClosedType: true },
];

function field(type: string, patch: Partial<EditableField> = {}): EditableField {
  return {
    key: `cf_${type}`,
    label: type,
    type,
    mandatory: false,
    options: OPTIONS.map((name, i) => ({ id: String(9000 + i), name })),
    users: USERS,
    usersRestricted: false,
    statuses: STATUSES,
    currencyCode: 'USD',
    precision: 2,
    ...patch,
  };
}

const line = fc.string({
  unit: fc.constantFrom('a', 'B', ' ', ',', '"', "'", '=', '+', '-', '@', 'é', '\t'),
});
const userValue = fc.constantFrom(...USERS).map((u) => ({ zpuid: u.zpuid, name: u.name }));
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const civilDate = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2199-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
const minuteInstant = fc
  .integer({
    min: Date.parse('1950-01-01T00:00:00Z') / 60_000,
    max: Date.parse('2100-01-01T00:00:00Z') / 60_000,
  })
  .map((m) => m * 60_000);

/** Per type: the field and values of it in the API's shape that its shown text can hold. */
const TYPES: Record<
  string,
  { field: EditableField; value: (zone: string) => fc.Arbitrary<unknown> }
> = {
  name: {
    field: field('name', { key: 'name' }),
    value: () => line.map((t) => t.trim()).filter((t) => t !== ''),
  },
  single_line: { field: field('single_line'), value: () => line.filter((t) => t !== '') },
  multi_line: {
    field: field('multi_line'),
    value: () =>
      fc.string({ unit: fc.constantFrom('a', '\n', ' ', '=', ',') }).filter((t) => t !== ''),
  },
  description: {
    field: field('description', { key: 'description' }),
    value: () => fc.string({ unit: fc.constantFrom('x', '\n', '-', ' ') }).filter((t) => t !== ''),
  },
  email: {
    field: field('email'),
    value: () => fc.constantFrom('a@example.com', 'x.y+z@mail.example.org'),
  },
  phone: { field: field('phone'), value: () => fc.constantFrom('+1 555 0100', '(0123) 456') },
  url: {
    field: field('url'),
    value: () => fc.constantFrom('https://example.com/a?b=c', 'http://x.example.org/'),
  },
  time: {
    field: field('time'),
    value: () =>
      fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m]) => `${pad(h)}:${pad(m)}`),
  },
  pick_list: { field: field('pick_list'), value: () => fc.constantFrom(...OPTIONS) },
  multi_select: {
    field: field('multi_select'),
    value: () => fc.uniqueArray(fc.constantFrom(...OPTIONS), { minLength: 1 }),
  },
  user_pick_list: { field: field('user_pick_list'), value: () => userValue },
  multi_user: {
    field: field('multi_user'),
    value: () => fc.uniqueArray(userValue, { minLength: 1, selector: (u) => u.zpuid }),
  },
  status: {
    field: field('status', { key: 'status' }),
    value: () =>
      fc
        .constantFrom(...STATUSES)
        .map((s) => ({ id: s.id, name: s.name, color: s.color, is_closed_type: s.isClosedType })),
  },
  check_box: { field: field('check_box'), value: () => fc.boolean() },
  is_external: {
    field: field('is_external', { key: 'is_external' }),
    value: () => fc.boolean(),
  },
  number: {
    field: field('number'),
    value: () => fc.integer({ min: -999_999_999, max: 999_999_999 }),
  },
  decimal: {
    field: field('decimal'),
    value: () =>
      fc
        .tuple(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: 0, max: 4 }))
        .map(([n, k]) => n / 10 ** k),
  },
  percentage: {
    field: field('percentage'),
    value: () =>
      fc
        .tuple(fc.integer({ min: -9999, max: 99999 }), fc.integer({ min: 0, max: 2 }))
        .map(([n, k]) => n / 10 ** k),
  },
  currency: {
    field: field('currency'),
    value: () =>
      fc
        .tuple(
          // ISO codes, and codes the service keeps that are not (the editor takes any text).
          fc.constantFrom('USD', 'EUR', 'INR', 'GBP', 'jpy', 'USDT', 'Bitcoin'),
          fc.integer({ min: -99_999_999, max: 99_999_999 }),
        )
        .map(([code, cents]) => ({
          currency_code: code,
          formatted_amount: formattedAmount(code, cents / 100, 2),
          amount: cents / 100,
        })),
  },
  date: { field: field('date'), value: () => civilDate },
  timestamp: {
    field: field('timestamp'),
    // A wall-clock time a DST change repeats is read as its first occurrence (zonedDateTime.ts):
    // the shown text cannot tell the two apart, so only instants it names alone are generated.
    value: (zone) =>
      minuteInstant
        .filter((i) => parseZonedDateTime(formatZonedDateTime(i, zone), zone) === i)
        .map((i) => new Date(i).toISOString()),
  },
};

const setting = fc.record({
  locale: fc.constantFrom(...LOCALES),
  timeZone: fc.constantFrom(...ZONES),
  defused: fc.boolean(),
});

describe('parseCell reads back the cells an export writes "as shown"', () => {
  for (const [type, { field: f, value }] of Object.entries(TYPES)) {
    it(`${type}: parse(show(v)) is v, and "same" against v itself`, () => {
      fc.assert(
        fc.property(
          setting.chain((s) => fc.tuple(fc.constant(s), value(s.timeZone))),
          ([{ locale, timeZone, defused }, v]) => {
            const reading = { context: { locale, timeZone }, defused };
            const cell = valueCell(f.type, v, {
              values: 'shown',
              context: reading.context,
              defuse: defused,
            });
            expect(parseCell(f, cell, reading)).toEqual({ kind: 'value', value: v });
            expect(parseCell(f, cell, reading, v)).toEqual({ kind: 'same' });
          },
        ),
        { numRuns: 60 },
      );
    });
  }
});

describe('parseCell over a value a record holds already', () => {
  for (const [type, { field: f, value }] of Object.entries(TYPES)) {
    it(`${type}: parse(show(v)) with the record holding w is v, or "same" when v is w`, () => {
      fc.assert(
        fc.property(
          setting.chain((s) => fc.tuple(fc.constant(s), value(s.timeZone), value(s.timeZone))),
          ([{ locale, timeZone, defused }, v, w]) => {
            const reading = { context: { locale, timeZone }, defused };
            const cell = valueCell(f.type, v, {
              values: 'shown',
              context: reading.context,
              defuse: defused,
            });
            const parsed = parseCell(f, cell, reading, w);
            if (sameFieldValue(f.type, v, w)) expect(parsed).toEqual({ kind: 'same' });
            else if (f.type === 'timestamp') {
              // The record's own offset is kept (the editor's rule): the same instant.
              expect(parsed.kind).toBe('value');
              const got = (parsed as { value: string }).value;
              expect(Date.parse(got)).toBe(Date.parse(v as string));
            } else expect(parsed).toEqual({ kind: 'value', value: v });
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});

describe('parseCell', () => {
  const reading = { context: { locale: 'en-GB', timeZone: 'Asia/Kolkata' }, defused: true };

  it('keeps what a record holds when the cell shows it, even where the text is coarser', () => {
    const f = TYPES.timestamp!.field;
    // Seconds are not shown: the cell still shows the record's value, so nothing changes.
    const current = '2026-03-05T10:00:42+05:30';
    const cell = valueCell('timestamp', current, {
      values: 'shown',
      context: reading.context,
      defuse: true,
    });
    expect(parseCell(f, cell, reading, current)).toEqual({ kind: 'same' });
    // A changed minute keeps the record's own offset (the editor's rule).
    expect(parseCell(f, '5 Mar 2026, 10:01', reading, current)).toEqual({
      kind: 'value',
      value: '2026-03-05T10:01:00+05:30',
    });
  });

  it('keeps a text whose cell differs only in its line endings (an XLSX gives CR LF back as LF)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('multi_line', 'single_line'),
        // Pieces of at least one character: a CR then an LF break would otherwise be one CR LF.
        fc.array(fc.string({ unit: fc.constantFrom('a', 'B', ' ', 'é', ','), minLength: 1 }), {
          minLength: 2,
          maxLength: 5,
        }),
        fc.array(fc.constantFrom('\r\n', '\r', '\n'), { minLength: 4, maxLength: 4 }),
        fc.array(fc.constantFrom('\r\n', '\r', '\n'), { minLength: 4, maxLength: 4 }),
        (type, pieces, held, given) => {
          const join = (breaks: string[]) =>
            pieces.reduce((text, piece, i) => (i === 0 ? piece : text + breaks[i - 1] + piece));
          const current = join(held);
          expect(parseCell(field(type), join(given), reading, current)).toEqual({ kind: 'same' });
        },
      ),
    );
    // A changed word is still a change.
    expect(parseCell(field('multi_line'), 'one\ntwo', reading, 'one\r\nthree')).toEqual({
      kind: 'value',
      value: 'one\ntwo',
    });
  });

  it('an empty cell empties the field; a required one refuses to be emptied', () => {
    expect(parseCell(field('date'), '', reading, '2026-03-05')).toEqual({
      kind: 'value',
      value: null,
    });
    expect(parseCell(field('date'), null, reading)).toEqual({ kind: 'value', value: null });
    expect(parseCell(field('name', { key: 'name', label: 'Name' }), '', reading, 'x')).toEqual({
      kind: 'fail',
      rule: 'Name is required and cannot be emptied.',
    });
  });

  it('names what it cannot read, in words', () => {
    const fail = (f: EditableField, cell: string) => parseCell(f, cell, reading);
    expect(fail(field('number'), 'twelve')).toEqual({
      kind: 'fail',
      rule: '"twelve" is not a number.',
    });
    expect(fail(field('date'), '31 Feb 2026')).toMatchObject({
      kind: 'fail',
      rule: expect.stringMatching(/not a real calendar date/),
    });
    expect(fail(field('pick_list'), 'Chair')).toMatchObject({
      kind: 'fail',
      rule: expect.stringMatching(/^"Chair" is not an option/),
    });
    expect(fail(field('user_pick_list'), 'Nobody')).toEqual({
      kind: 'fail',
      rule: 'no user of this portal is named "Nobody" or has that email.',
    });
    expect(fail(field('check_box'), 'maybe')).toEqual({
      kind: 'fail',
      rule: '"maybe" is not Yes or No.',
    });
    const twins = field('user_pick_list', {
      users: [
        { zpuid: '1', name: 'Sam' },
        { zpuid: '2', name: 'Sam' },
      ],
    });
    expect(fail(twins, 'Sam')).toMatchObject({
      kind: 'fail',
      rule: expect.stringMatching(/2 users are named "Sam"/),
    });
    expect(parseCell(twins, '2', reading)).toEqual({
      kind: 'value',
      value: { zpuid: '2', name: 'Sam' },
    });
  });

  it('reads a user by email, in any case, alone or among names that hold ", "', () => {
    const users = [
      { zpuid: '1', name: 'Sam', email: 'sam.one@example.test' },
      { zpuid: '2', name: 'Sam', email: 'sam.two@example.test' },
      { zpuid: '3', name: 'Weber, Jonas', email: 'jonas@example.test' },
      { zpuid: '4', name: 'No Mail', email: null },
    ];
    const one = field('user_pick_list', { users });
    expect(parseCell(one, 'SAM.Two@example.test', reading)).toEqual({
      kind: 'value',
      value: { zpuid: '2', name: 'Sam' },
    });
    // Two people share the name: the reason names them by what tells them apart.
    expect(parseCell(one, 'Sam', reading)).toEqual({
      kind: 'fail',
      rule: '2 users are named "Sam": write the one meant by its email or its id (sam.one@example.test, sam.two@example.test).',
    });
    expect(parseCell(one, 'nobody@example.test', reading)).toEqual({
      kind: 'fail',
      rule: 'no user of this portal is named "nobody@example.test" or has that email.',
    });
    const many = field('multi_user', { users });
    expect(parseCell(many, 'Weber, Jonas, sam.one@example.test, No Mail', reading)).toEqual({
      kind: 'value',
      value: [
        { zpuid: '3', name: 'Weber, Jonas' },
        { zpuid: '1', name: 'Sam' },
        { zpuid: '4', name: 'No Mail' },
      ],
    });
  });

  it("undoes the CSV's formula guard exactly, and only in a CSV", () => {
    const f = field('single_line');
    expect(parseCell(f, "'=1+1", reading)).toEqual({ kind: 'value', value: '=1+1' });
    expect(parseCell(f, "''=1+1", reading)).toEqual({ kind: 'value', value: "'=1+1" });
    expect(parseCell(f, "'=1+1", { ...reading, defused: false })).toEqual({
      kind: 'value',
      value: "'=1+1",
    });
  });

  it('reads typed XLSX cells and what people type: ISO dates, plain numbers, TRUE', () => {
    expect(parseCell(field('decimal'), 1234.5, reading)).toEqual({ kind: 'value', value: 1234.5 });
    expect(
      parseCell(field('decimal'), '1234.5', {
        ...reading,
        context: { ...reading.context, locale: 'de-DE' },
      }),
    ).toEqual({ kind: 'value', value: 1234.5 });
    expect(
      parseCell(field('decimal'), '1.234', {
        ...reading,
        context: { ...reading.context, locale: 'de-DE' },
      }),
    ).toEqual({ kind: 'value', value: 1234 });
    expect(parseCell(field('check_box'), true, reading)).toEqual({ kind: 'value', value: true });
    expect(parseCell(field('date'), '2026-03-05', reading)).toEqual({
      kind: 'value',
      value: '2026-03-05',
    });
    expect(parseCell(field('timestamp'), '2026-03-05 15:30', reading)).toEqual({
      kind: 'value',
      value: '2026-03-05T10:00:00.000Z',
    });
  });

  it('splits items at ", " where the names themselves do not hold it', () => {
    const names = new Set(['a', 'a, b', 'c']);
    expect(splitItems('a, b, c', names)).toEqual(['a, b', 'c']);
    expect(splitItems('a, c', names)).toEqual(['a', 'c']);
    expect(splitItems('a, x', names)).toBeNull();
  });
});

describe('what a person types: group marks and years that would be read wrong', () => {
  // Locales whose group mark is not a dot (a dot also reads as JavaScript's decimal point).
  const GROUPING = ['en-GB', 'en-US', 'fr-FR', 'hi-IN', 'ja-JP'];
  const groupMark = (locale: string) =>
    new Intl.NumberFormat(locale).formatToParts(12345).find((p) => p.type === 'group')!.value;

  it('reads no number whose last group mark is not followed by three digits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GROUPING),
        fc.integer({ min: 10, max: 9_999_999 }),
        fc.nat(),
        (locale, n, at) => {
          const digits = String(n);
          const cut = 1 + (at % (digits.length - 1));
          fc.pre(digits.length - cut !== 3);
          const text = `${digits.slice(0, cut)}${groupMark(locale)}${digits.slice(cut)}`;
          const reading = { context: { locale, timeZone: 'UTC' }, defused: false };
          expect(parseCell(field('number'), text, reading)).toMatchObject({ kind: 'fail' });
        },
      ),
    );
  });

  it('reads "1,5" as no number where the comma groups digits, and grouped thousands as before', () => {
    const reading = { context: { locale: 'en-GB', timeZone: 'UTC' }, defused: false };
    expect(parseCell(field('number'), '1,5', reading)).toMatchObject({ kind: 'fail' });
    expect(parseCell(field('currency'), 'USD 1,5', reading)).toMatchObject({ kind: 'fail' });
    // A code must be letters: "$ 12" is no amount, not twelve of a currency "$".
    expect(parseCell(field('currency'), '$ 12', reading)).toMatchObject({ kind: 'fail' });
    expect(parseCell(field('number'), '1,234,567', reading)).toEqual({
      kind: 'value',
      value: 1234567,
    });
    const indian = { context: { locale: 'hi-IN', timeZone: 'UTC' }, defused: false };
    expect(parseCell(field('number'), '12,34,567', indian)).toEqual({
      kind: 'value',
      value: 1234567,
    });
  });

  it('reads no date whose year has fewer than four digits, saying how to write it', () => {
    const reading = { context: { locale: 'en-GB', timeZone: 'UTC' }, defused: false };
    expect(parseCell(field('date'), '5 Mar 26', reading)).toEqual({
      kind: 'fail',
      rule: '"5 Mar 26" is not a date as the table shows dates (its year in four digits) or written yyyy-MM-dd.',
    });
    expect(parseCell(field('date'), '5 Mar 2026', reading)).toEqual({
      kind: 'value',
      value: '2026-03-05',
    });
    expect(parseCell(field('timestamp'), '5 Mar 26, 10:00', reading)).toMatchObject({
      kind: 'fail',
    });
  });
});
