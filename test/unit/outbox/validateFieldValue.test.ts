import { describe, expect, it } from 'vitest';
import type { EditableField } from '../../../src/shared/ipc/areas/outbox';
import { validateFieldValue } from '../../../src/shared/fieldValues/validateFieldValue';
import {
  formatZonedDateTime,
  parseZonedDateTime,
} from '../../../src/shared/fieldValues/zonedDateTime';

const field = (type: string, extra: Partial<EditableField> = {}): EditableField => ({
  key: 'f',
  label: 'F',
  type,
  mandatory: false,
  options: [
    { id: '11', name: 'Red' },
    { id: '12', name: 'Blue' },
  ],
  users: [{ zpuid: '100', name: 'Ann' }],
  usersRestricted: false,
  statuses: [],
  currencyCode: 'USD',
  precision: 2,
  ...extra,
});
const context = { timeZone: 'Asia/Kolkata' };
const check = (type: string, input: unknown, extra: Partial<EditableField> = {}) =>
  validateFieldValue(field(type, extra), input, context);
const value = (type: string, input: unknown, extra: Partial<EditableField> = {}) => {
  const result = check(type, input, extra);
  if (!result.ok) throw new Error(result.rule);
  return result.value;
};
const rule = (type: string, input: unknown, extra: Partial<EditableField> = {}) => {
  const result = check(type, input, extra);
  return result.ok ? null : result.rule;
};

describe('validateFieldValue: the spec limits and shapes', () => {
  it('text limits: single line 200 without line breaks, multi-line 1000, name required', () => {
    expect(value('single_line', 'x'.repeat(200))).toHaveLength(200);
    expect(rule('single_line', 'x'.repeat(201))).toMatch(/at most 200 characters/);
    expect(rule('single_line', 'a\nb')).toMatch(/one line/);
    expect(value('multi_line', 'a\r\nb')).toBe('a\nb');
    expect(rule('multi_line', 'x'.repeat(1001))).toMatch(/at most 1000/);
    expect(rule('name', '  ', { label: 'Name' })).toMatch(/Name is required/);
    expect(rule('description', 'x'.repeat(80_001))).toMatch(/at most 80000/);
  });

  it('pick lists and multi-selects take option names (or ids); unknown ones name the options', () => {
    expect(value('pick_list', '12')).toBe('Blue');
    expect(rule('pick_list', 'Green')).toMatch(/"Green" is not an option; options: "Red", "Blue"/);
    expect(value('multi_select', ['Red', '12', 'Red'])).toEqual(['Red', 'Blue']);
    const many = Array.from({ length: 101 }, (_, i) => ({ id: String(i), name: `o${i}` }));
    expect(
      rule(
        'multi_select',
        many.map((o) => o.name),
        { options: many },
      ),
    ).toMatch(/at most 100/);
  });

  it('users: a zpuid or {zpuid}; restricted fields allow only their users', () => {
    expect(value('user_pick_list', { zpuid: '100' })).toEqual({ zpuid: '100', name: 'Ann' });
    expect(value('user_pick_list', '555')).toEqual({ zpuid: '555', name: null });
    expect(rule('user_pick_list', '555', { usersRestricted: true })).toMatch(
      /not one of the users/,
    );
    expect(value('multi_user', ['100', { zpuid: '100' }, '7'])).toEqual([
      { zpuid: '100', name: 'Ann' },
      { zpuid: '7', name: null },
    ]);
    const crowd = Array.from({ length: 501 }, (_, i) => String(i + 1));
    expect(rule('multi_user', crowd)).toMatch(/at most 500 users/);
  });

  it('dates, times and time stamps in the portal time zone', () => {
    expect(value('date', '2024-02-29')).toBe('2024-02-29');
    expect(rule('date', '2023-02-29')).toMatch(/not a real calendar date/);
    expect(rule('date', '29/02/2024')).toMatch(/yyyy-MM-dd/);
    expect(value('time', '23:59')).toBe('23:59');
    expect(rule('time', '24:00')).toMatch(/HH:MM/);
    // 09:30 in Kolkata (UTC+05:30) is 04:00 UTC.
    expect(value('timestamp', '2025-01-06T09:30')).toBe('2025-01-06T04:00:00.000Z');
    expect(value('timestamp', '2025-01-06T09:30:00Z')).toBe('2025-01-06T09:30:00.000Z');
    // An offset written with the time is part of the value: it is kept.
    expect(value('timestamp', '2025-01-06T09:30:00-02:00')).toBe('2025-01-06T09:30:00-02:00');
    expect(rule('timestamp', '2025-13-06T09:30')).toMatch(/yyyy-MM-ddTHH:mm \(in Asia\/Kolkata\)/);
  });

  it('numbers: whole numbers of 19 digits, decimals of 17, percentages of 20 characters', () => {
    expect(value('number', '42')).toBe(42);
    expect(rule('number', 1.5)).toMatch(/whole number/);
    expect(rule('decimal', Number('1.2345678901234567'))).toBeNull();
    expect(rule('decimal', Number('123456789012345678'))).toMatch(/at most 17 digits/);
    expect(rule('percentage', -0.00012345678901234567)).toMatch(/at most 20 characters/);
    expect(value('percentage', '12.5')).toBe(12.5);
  });

  it("currency is an object with the amount required and the field's code by default", () => {
    expect(value('currency', 12.5)).toEqual({
      currency_code: 'USD',
      formatted_amount: 'USD 12.50',
      amount: 12.5,
    });
    expect(value('currency', { amount: 3, currency_code: 'EUR' }, { precision: 0 })).toEqual({
      currency_code: 'EUR',
      formatted_amount: 'EUR 3',
      amount: 3,
    });
    expect(rule('currency', { currency_code: 'EUR' })).toMatch(/amount .* is required/);
    expect(rule('currency', { amount: 1, currency_code: 'X'.repeat(80) })).toMatch(
      /at most 100 characters/,
    );
  });

  it('email, phone and URL (https:// assumed)', () => {
    expect(rule('email', 'a@b')).toMatch(/name@example.com/);
    expect(value('phone', '+1 (555) 010-99')).toBe('+1 (555) 010-99');
    expect(rule('phone', '+1 (555) 010-999')).toMatch(/at most 15/);
    expect(rule('phone', 'call me')).toMatch(/digits/);
    expect(value('url', 'example.com/x')).toBe('https://example.com/x');
    expect(value('url', 'ftp://files.example.com')).toBe('ftp://files.example.com');
    expect(rule('url', `${'a'.repeat(190)}.com/xyz`)).toMatch(
      /at most 200 characters, https:\/\/ included/,
    );
  });

  it('empties optional fields, refuses to empty mandatory ones, takes check boxes as booleans', () => {
    expect(value('single_line', '')).toBeNull();
    expect(value('multi_select', [])).toBeNull();
    expect(rule('single_line', '', { mandatory: true, label: 'Serial' })).toMatch(
      /Serial is required/,
    );
    expect(value('check_box', false)).toBe(false);
    expect(rule('check_box', 'yes')).toMatch(/yes or no/);
  });

  it('status: only the statuses the current one may move to', () => {
    const statuses = [
      { id: '1', name: 'Open', color: null, isClosedType: false },
      { id: '2', name: 'Doing', color: '#0f0', isClosedType: false },
    ];
    expect(value('status', '2', { statuses })).toEqual({
      id: '2',
      name: 'Doing',
      color: '#0f0',
      is_closed_type: false,
    });
    expect(rule('status', '3', { statuses })).toMatch(
      /a status the current one may move to: "Open", "Doing"/,
    );
  });
});

describe('validateFieldValue: emptying is explicit (issue 14, item 3)', () => {
  it('refuses empty text for numbers, amounts, dates, times and time stamps, naming how to empty', () => {
    for (const type of [
      'number',
      'decimal',
      'percentage',
      'currency',
      'date',
      'time',
      'timestamp',
    ]) {
      expect(rule(type, ''), type).toMatch(/nothing was entered: type .*, or clear the field/);
      expect(rule(type, '  '), type).toMatch(/nothing was entered/);
      expect(value(type, null), type).toBeNull();
    }
    expect(rule('number', 'abc')).toMatch(/a whole number/);
    expect(rule('currency', { amount: '', currency_code: 'INR' })).toMatch(/amount .* is required/);
    // Text, pick lists and users: empty text is the empty value itself.
    expect(value('single_line', '')).toBeNull();
    expect(value('pick_list', '')).toBeNull();
    expect(value('user_pick_list', '')).toBeNull();
  });
});

describe('validateFieldValue: numbers a double cannot hold are refused, never stored as others', () => {
  it('1e400 (sent as null: a clear) and 1e-400 (read as 0) are refused for every number type', () => {
    for (const type of ['number', 'decimal', 'percentage', 'currency']) {
      for (const text of ['1e400', '-1e400', '1e-400', '0.5e-400']) {
        expect(rule(type, text), `${type} ${text}`).not.toBeNull();
        if (type === 'currency') {
          expect(rule(type, { amount: text, currency_code: 'INR' }), text).not.toBeNull();
        }
      }
    }
    // A zero written any way is a zero; a large number that fits is kept.
    expect(value('decimal', '0e5')).toBe(0);
    expect(value('decimal', '-0.0')).toBe(-0);
    expect(value('decimal', '1.5e3')).toBe(1500);
  });
});

describe('validateFieldValue: the parts a change does not name are kept (issue 14, item 2)', () => {
  const kept = (
    type: string,
    input: unknown,
    current: unknown,
    extra: Partial<EditableField> = {},
  ) => {
    const result = validateFieldValue(field(type, extra), input, { ...context, current });
    if (!result.ok) throw new Error(result.rule);
    return result.value;
  };
  const INR = { currency_code: 'INR', formatted_amount: 'INR 10,862.62', amount: 10862.62 };

  it("an amount alone keeps the value's currency; the field's code is only for an empty value", () => {
    expect(kept('currency', 12.345, INR)).toEqual({
      currency_code: 'INR',
      formatted_amount: 'INR 12.35',
      amount: 12.345,
    });
    expect(kept('currency', { amount: 5 }, null)).toMatchObject({ currency_code: 'USD' });
    expect(kept('currency', { amount: 10862.62, currency_code: 'EUR' }, INR)).toMatchObject({
      currency_code: 'EUR',
      amount: 10862.62,
    });
  });

  it('the same value comes back as the current one, byte for byte', () => {
    expect(kept('currency', { amount: '10862.620' }, INR)).toBe(INR);
    const stamp = '2025-01-06T09:30:00.000+05:30';
    expect(kept('timestamp', '2025-01-06T09:30', stamp)).toBe(stamp);
    const users = [{ zpuid: '7', name: 'Gone user', email: 'g@example.com' }];
    expect(kept('multi_user', ['7'], users, { usersRestricted: true })).toBe(users);
  });

  it('list items held now stay as they are, even ones the field no longer offers', () => {
    const watchers = [
      { zpuid: '7', name: 'Gone user', email: 'g@example.com' },
      { zpuid: '100', name: 'Ann' },
    ];
    // Restricted to Ann, yet user 7 stays (untouched) while Ann is removed.
    expect(kept('multi_user', ['7'], watchers, { usersRestricted: true })).toEqual([watchers[0]]);
    expect(rule('multi_user', ['7'], { usersRestricted: true })).toMatch(/not one of the users/);
    expect(kept('multi_select', ['Retired', 'Blue'], ['Retired', 'Red'])).toEqual([
      'Retired',
      'Blue',
    ]);
    expect(rule('multi_select', ['Retired'])).toMatch(/"Retired" is not an option/);
    expect(kept('pick_list', 'Retired', 'Retired')).toBe('Retired');
    expect(kept('user_pick_list', { zpuid: '7' }, watchers[0], { usersRestricted: true })).toBe(
      watchers[0],
    );
  });

  it("a wall-clock time stamp keeps the value's offset; a written offset is its own", () => {
    // 10:00 in Kolkata is 04:30 UTC, which is 07:30 at +03:00.
    expect(kept('timestamp', '2025-01-06T10:00', '2024-12-01T08:00:00+03:00')).toBe(
      '2025-01-06T07:30:00+03:00',
    );
    expect(kept('timestamp', '2025-01-06T10:00', '2024-12-01T08:00:00.000Z')).toBe(
      '2025-01-06T04:30:00.000Z',
    );
    expect(kept('timestamp', '2025-01-06T10:00:00-01:00', '2024-12-01T08:00:00+03:00')).toBe(
      '2025-01-06T10:00:00-01:00',
    );
  });
});

describe('zoned date-times', () => {
  it('round-trips wall-clock times, across a DST change', () => {
    const zone = 'Europe/Berlin';
    const summer = parseZonedDateTime('2025-07-01T12:00', zone)!;
    expect(new Date(summer).toISOString()).toBe('2025-07-01T10:00:00.000Z');
    expect(formatZonedDateTime(summer, zone)).toBe('2025-07-01T12:00');
    // 02:30 on 30 March 2025 does not exist in Berlin: the clock reads 03:30 after the jump.
    const skipped = parseZonedDateTime('2025-03-30T02:30', zone)!;
    expect(formatZonedDateTime(skipped, zone)).toBe('2025-03-30T03:30');
    // 02:30 on 26 October 2025 happens twice: the first one (summer time) is taken.
    expect(new Date(parseZonedDateTime('2025-10-26T02:30', zone)!).toISOString()).toBe(
      '2025-10-26T00:30:00.000Z',
    );
    expect(parseZonedDateTime('2025-02-30T10:00', zone)).toBeNull();
  });
});
