import { describe, expect, it } from 'vitest';
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  customValue,
  normalizeTimestamp,
  type ValueField,
  type WriteMode,
} from '@portaldesk/emulator/records/customValue';
import { digitCount, isCalendarDate } from '@portaldesk/portal-api/domain/fieldValueRules';

const USERS = new Set(['u1', 'u2', 'u3']);
const context = {
  userProblem: (zpuid: string) =>
    USERS.has(zpuid) ? null : `${zpuid} is not a user of this portal.`,
};

function field(type: CustomFieldType, options: string[] = []): ValueField {
  return {
    apiName: 'cf_x',
    type,
    options: options.map((value, i) => ({ id: String(100 + i), value })),
    currencyCode: 'USD',
    precision: 2,
  };
}

function value(
  type: CustomFieldType,
  input: unknown,
  options: { mode?: WriteMode; current?: unknown; choices?: string[] } = {},
) {
  return customValue(
    field(type, options.choices),
    input,
    options.mode ?? 'create',
    options.current,
    context,
  );
}

const accepts = (result: ReturnType<typeof value>) => {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.value;
};
const refuses = (result: ReturnType<typeof value>) => {
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.value)}`);
  return result.message;
};

describe('text types', () => {
  it('single-line: 200 characters at most, no line breaks', () => {
    expect(accepts(value('single_line', 'x'.repeat(200)))).toHaveLength(200);
    expect(refuses(value('single_line', 'x'.repeat(201)))).toBe(
      'cf_x is longer than 200 characters.',
    );
    // Characters, not UTF-16 units.
    expect(accepts(value('single_line', '😀'.repeat(200)))).toBeDefined();
    expect(refuses(value('single_line', 'a\nb'))).toMatch(/line breaks/);
    expect(refuses(value('single_line', 5))).toBe('cf_x must be a string.');
  });

  it('multi-line: 1000 characters at most, CRLF stored as \\n', () => {
    expect(accepts(value('multi_line', 'a\r\nb'))).toBe('a\nb');
    expect(accepts(value('multi_line', 'x'.repeat(1000)))).toHaveLength(1000);
    expect(refuses(value('multi_line', 'x'.repeat(1001)))).toMatch(/longer than 1000/);
  });

  it('empty strings and null clear the field', () => {
    expect(accepts(value('single_line', ''))).toBeUndefined();
    expect(accepts(value('email', null))).toBeUndefined();
  });

  it('email: valid and 200 characters at most', () => {
    const address = `${'a'.repeat(188)}@example.com`;
    expect(address).toHaveLength(200);
    expect(accepts(value('email', address))).toBe(address);
    expect(refuses(value('email', `a${address}`))).toMatch(/longer than 200/);
    expect(refuses(value('email', 'not-an-address'))).toMatch(/valid email/);
    expect(refuses(value('email', 'a@b'))).toMatch(/valid email/);
  });

  it('phone: digits, spaces, + ( ) - and 15 characters at most', () => {
    expect(accepts(value('phone', '+1 (555) 123-45'))).toBe('+1 (555) 123-45');
    expect(refuses(value('phone', '+1 (555) 123-456'))).toMatch(/longer than 15/);
    expect(refuses(value('phone', '555-CALL'))).toMatch(/only digits/);
    expect(refuses(value('phone', '+()'))).toMatch(/only digits/);
  });

  it('url: https:// assumed without a protocol, 200 characters at most as stored', () => {
    expect(accepts(value('url', 'example.com/a'))).toBe('https://example.com/a');
    expect(accepts(value('url', 'http://example.com'))).toBe('http://example.com');
    const path = 'x'.repeat(200 - 'https://e.co/'.length);
    expect(accepts(value('url', `e.co/${path}`))).toHaveLength(200);
    expect(refuses(value('url', `e.co/${path}x`))).toMatch(/longer than 200/);
    expect(refuses(value('url', 'javascript:alert(1)'))).toMatch(/not a valid/);
    expect(refuses(value('url', 'mailto://x'))).toMatch(/http, https or ftp/);
  });
});

describe('pick lists', () => {
  const choices = ['Low', 'High'];

  it('pick list: one existing option, by name (or id)', () => {
    expect(accepts(value('pick_list', 'High', { choices }))).toBe('High');
    expect(accepts(value('pick_list', '100', { choices }))).toBe('Low');
    expect(refuses(value('pick_list', 'high', { choices }))).toBe(
      'cf_x: "high" is not an option of the field; options: "Low", "High".',
    );
    expect(refuses(value('pick_list', ['Low'], { choices }))).toMatch(/must be a string/);
  });

  it('multi-select create: an array of option names, stored as option ids', () => {
    expect(accepts(value('multi_select', ['High', 'Low', 'High'], { choices }))).toEqual([
      '101',
      '100',
    ]);
    expect(refuses(value('multi_select', ['Nope'], { choices }))).toMatch(
      /"Nope" is not an option/,
    );
    expect(refuses(value('multi_select', 'Low', { choices }))).toMatch(/must be an array/);
    expect(refuses(value('multi_select', [{ add: ['Low'] }], { choices }))).toMatch(
      /new record takes an array/,
    );
  });

  it('multi-select: at most 100 selectable', () => {
    const many = Array.from({ length: 101 }, (_, i) => `o${i}`);
    expect(accepts(value('multi_select', many.slice(0, 100), { choices: many }))).toHaveLength(100);
    expect(refuses(value('multi_select', many, { choices: many }))).toBe(
      'cf_x has 101 items; at most 100 are allowed.',
    );
    const current = many.slice(0, 100).map((_, i) => String(100 + i));
    expect(
      refuses(
        value('multi_select', [{ add: ['o100'] }], { mode: 'update', current, choices: many }),
      ),
    ).toBe('cf_x would hold 101 items; at most 100 are allowed.');
  });

  it('multi-select update: {add, remove} or a replacing array', () => {
    const current = ['100'];
    expect(
      accepts(
        value('multi_select', [{ add: ['High'], remove: ['Low'] }], {
          mode: 'update',
          current,
          choices,
        }),
      ),
    ).toEqual(['101']);
    expect(accepts(value('multi_select', ['High'], { mode: 'update', current, choices }))).toEqual([
      '101',
    ]);
    expect(
      accepts(value('multi_select', [{ remove: ['Low'] }], { mode: 'update', current, choices })),
    ).toBeUndefined();
    expect(
      refuses(
        value('multi_select', [{ add: ['Low'], remove: ['Low'] }], {
          mode: 'update',
          current,
          choices,
        }),
      ),
    ).toMatch(/both added and removed/);
    expect(
      refuses(value('multi_select', [{ add: 'Low' }], { mode: 'update', current, choices })),
    ).toBe('cf_x.add must be an array.');
    expect(
      refuses(value('multi_select', [{ add: [], drop: [] }], { mode: 'update', current, choices })),
    ).toMatch(/"drop" is not allowed/);
  });
});

describe('users', () => {
  it('user pick list: {zpuid} of a portal user', () => {
    expect(accepts(value('user_pick_list', { zpuid: 'u1' }))).toBe('u1');
    expect(accepts(value('user_pick_list', { zpuid: 'u1', name: 'ignored' }))).toBe('u1');
    expect(refuses(value('user_pick_list', { zpuid: 'zz' }))).toBe(
      'cf_x: zz is not a user of this portal.',
    );
    expect(refuses(value('user_pick_list', 'u1'))).toMatch(/must be an object/);
  });

  it('multi-user: create takes [{zpuid}], update takes [{add, remove}]', () => {
    expect(accepts(value('multi_user', [{ zpuid: 'u1' }, { zpuid: 'u2' }]))).toEqual(['u1', 'u2']);
    expect(refuses(value('multi_user', ['u1']))).toMatch(/objects like/);
    expect(refuses(value('multi_user', [{ zpuid: 'nobody' }]))).toMatch(/not a user/);
    expect(
      accepts(
        value('multi_user', [{ add: [{ zpuid: 'u3' }], remove: [{ zpuid: 'u1' }] }], {
          mode: 'update',
          current: ['u1', 'u2'],
        }),
      ),
    ).toEqual(['u2', 'u3']);
  });

  it('multi-user: at most 500 users', () => {
    const many = Array.from({ length: 501 }, (_, i) => ({ zpuid: `m${i}` }));
    const open = { userProblem: () => null };
    const f = field('multi_user');
    expect(customValue(f, many.slice(0, 500), 'create', undefined, open)).toMatchObject({
      ok: true,
    });
    expect(customValue(f, many, 'create', undefined, open)).toEqual({
      ok: false,
      message: 'cf_x has 501 items; at most 500 are allowed.',
    });
  });
});

describe('dates and times', () => {
  it('date: a real yyyy-MM-dd date', () => {
    expect(accepts(value('date', '2024-02-29'))).toBe('2024-02-29');
    expect(refuses(value('date', '2023-02-29'))).toMatch(/not a real calendar date/);
    expect(refuses(value('date', '2024-2-9'))).toMatch(/yyyy-MM-dd/);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
  });

  it('time: HH:MM', () => {
    expect(accepts(value('time', '23:59'))).toBe('23:59');
    expect(refuses(value('time', '24:00'))).toMatch(/HH:MM/);
    expect(refuses(value('time', '9:30'))).toMatch(/HH:MM/);
  });

  it('time stamp: Z or an offset, stored in UTC with milliseconds', () => {
    expect(accepts(value('timestamp', '2026-01-31T10:20:30Z'))).toBe('2026-01-31T10:20:30.000Z');
    expect(accepts(value('timestamp', '2026-01-31T10:20:30+05:30'))).toBe(
      '2026-01-31T04:50:30.000Z',
    );
    expect(accepts(value('timestamp', '2026-01-01T00:30:00-01:00'))).toBe(
      '2026-01-01T01:30:00.000Z',
    );
    expect(normalizeTimestamp('2026-01-31T10:20:30.5Z')).toBe('2026-01-31T10:20:30.500Z');
    expect(normalizeTimestamp('0050-06-01T00:00:00Z')).toBe('0050-06-01T00:00:00.000Z');
    for (const bad of [
      '2026-01-31 10:20:30Z',
      '2026-01-31T10:20:30',
      '2026-02-30T00:00:00Z',
      '2026-01-31T25:00:00Z',
      '9999-12-31T23:00:00-05:00',
    ]) {
      expect(normalizeTimestamp(bad), bad).toBeNull();
    }
    expect(refuses(value('timestamp', 12))).toMatch(/time stamp/);
  });
});

describe('numbers', () => {
  it('check box: a boolean', () => {
    expect(accepts(value('check_box', false))).toBe(false);
    expect(refuses(value('check_box', 'true'))).toBe('cf_x must be true or false.');
  });

  it('number: a whole number of at most 19 digits', () => {
    expect(accepts(value('number', -42))).toBe(-42);
    expect(accepts(value('number', 1e18))).toBe(1e18); // 19 digits
    expect(refuses(value('number', 1e19))).toBe('cf_x has more than 19 digits.');
    expect(refuses(value('number', 1.5))).toBe('cf_x must be a whole number.');
    expect(refuses(value('number', '12'))).toBe('cf_x must be a whole number.');
  });

  it('decimal: at most 17 digits', () => {
    expect(accepts(value('decimal', 123456789.12345678))).toBe(123456789.12345678); // 17
    expect(accepts(value('decimal', 1e16))).toBe(1e16); // 17
    expect(refuses(value('decimal', 1e17))).toBe('cf_x has more than 17 digits.');
    expect(refuses(value('decimal', 0.000000000000000012))).toMatch(/more than 17 digits/);
    expect(refuses(value('decimal', Number.NaN))).toBe('cf_x must be a number.');
  });

  it('digit counts in plain notation', () => {
    expect(digitCount(0.25)).toBe(2);
    expect(digitCount(-120)).toBe(3);
    expect(digitCount(1e21)).toBe(22);
    expect(digitCount(1.5e-7)).toBe(8);
  });

  it('percentage: a number of at most 20 characters', () => {
    expect(accepts(value('percentage', 12.5))).toBe(12.5);
    expect(accepts(value('percentage', -0.12345678901234568))).toBeDefined(); // 20 characters
    expect(String(1.2345678901234566e-7)).toHaveLength(21);
    expect(refuses(value('percentage', 1.2345678901234566e-7))).toMatch(/longer than 20/);
  });

  it('currency: {amount (required), currency_code, formatted_amount}, 100 characters at most', () => {
    expect(accepts(value('currency', { amount: 12 }))).toEqual({
      currency_code: 'USD',
      formatted_amount: 'USD 12.00',
      amount: 12,
    });
    expect(refuses(value('currency', { currency_code: 'EUR' }))).toBe('cf_x.amount is required.');
    expect(refuses(value('currency', { amount: '12' }))).toBe('cf_x.amount must be a number.');
    expect(refuses(value('currency', 12))).toMatch(/must be an object/);
    expect(refuses(value('currency', { amount: 1, rate: 2 }))).toMatch(/rate is not a currency/);
    // {"currency_code":"EUR","formatted_amount":"…","amount":1} is 53 characters plus the text.
    const fits = 'x'.repeat(
      100 - JSON.stringify({ currency_code: 'EUR', formatted_amount: '', amount: 1 }).length,
    );
    expect(
      accepts(value('currency', { currency_code: 'EUR', formatted_amount: fits, amount: 1 })),
    ).toBeDefined();
    expect(
      refuses(value('currency', { currency_code: 'EUR', formatted_amount: `${fits}x`, amount: 1 })),
    ).toMatch(/longer than 100/);
  });
});
