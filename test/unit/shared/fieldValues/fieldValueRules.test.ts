import { describe, expect, it } from 'vitest';
import { customValue } from '@portaldesk/emulator/records/customValue';
import type { EditableField } from '../../../../src/shared/ipc/areas/outbox';
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  decimalPlaces,
  fixedDecimals,
  formattedAmount,
  webAddress,
} from '@portaldesk/portal-api/domain/fieldValueRules';
import { validateFieldValue } from '../../../../src/shared/fieldValues/validateFieldValue';

/** Whether the app's editor takes `input` for a field of `type`, and what it would store. */
function app(type: CustomFieldType, input: unknown) {
  const field: EditableField = {
    key: 'cf_x',
    label: 'X',
    type,
    mandatory: false,
    options: [],
    users: [],
    usersRestricted: false,
    statuses: [],
    currencyCode: 'USD',
    precision: 2,
  };
  const result = validateFieldValue(field, input, { timeZone: 'UTC' });
  return result.ok ? { ok: true, value: result.value } : { ok: false };
}

/** Whether the emulator (the service) takes `input` in a create, and what it stores. */
function emulator(type: CustomFieldType, input: unknown) {
  const field = { apiName: 'cf_x', type, options: [], currencyCode: 'USD', precision: 2 };
  const result = customValue(field, input, 'create', undefined, { userProblem: () => null });
  return result.ok ? { ok: true, value: result.value } : { ok: false };
}

// Inputs in the API's own form (no spaces to trim, numbers as numbers): the app must not queue an
// edit the service refuses, nor refuse one the service takes.
const CASES: [CustomFieldType, unknown[]][] = [
  [
    'url',
    [
      'example.com/a',
      'ftp://f.example.com',
      'javascript:alert(1)',
      'http://',
      `e.co/${'p'.repeat(195)}`,
      `e.co/${'p'.repeat(196)}`,
    ],
  ],
  [
    'email',
    [
      'ann@example.com',
      'ann@example',
      'a b@example.com',
      `${'a'.repeat(189)}@example.com`,
      `${'a'.repeat(188)}@example.com`,
    ],
  ],
  ['phone', ['+1 (555) 010-0000', '+()', '555 0100 ext', '1'.repeat(15), '1'.repeat(16)]],
  ['date', ['2024-02-29', '2023-02-29', '0000-01-01', '2024-13-01', '24-01-01']],
  ['time', ['00:00', '23:59', '24:00', '9:30', '12:60']],
  ['number', [123, 1.5, 1_000_000_000_000_000, 2 ** 53 - 1, 1e19]],
  ['decimal', [0.25, 1234567.891, 1e16, 1e17, 0.0001234]],
  ['percentage', [12.5, 1.2345678901234567]],
  ['single_line', ['x'.repeat(200), 'x'.repeat(201), 'a\nb', '😀'.repeat(200)]],
  ['multi_line', ['x'.repeat(1000), 'x'.repeat(1001), 'a\r\nb']],
  [
    'currency',
    [
      { amount: 12.345 },
      { amount: 1.005, currency_code: 'INR' },
      { amount: -0.004, currency_code: 'EUR' },
      { amount: 9.995, currency_code: 'JPY' },
    ],
  ],
];

describe('custom field values: the app and the emulator apply the same rules', () => {
  for (const [type, inputs] of CASES) {
    it(`${type}: accepted and stored alike`, () => {
      for (const input of inputs) {
        const [mine, theirs] = [app(type, input), emulator(type, input)];
        expect({ input, ok: mine.ok }).toEqual({ input, ok: theirs.ok });
        // The shapes differ for lists and users; for these types the stored value is the same.
        if (mine.ok) expect({ input, value: mine.value }).toEqual({ input, value: theirs.value });
      }
    });
  }
});

describe('webAddress', () => {
  it('puts https:// in front when no protocol is given, and counts it in the 200 characters', () => {
    expect(webAddress('example.com/page')).toEqual({ ok: true, url: 'https://example.com/page' });
    expect(webAddress(`e.co/${'p'.repeat(188)}`)).toEqual({ ok: false, problem: 'too_long' });
    expect(webAddress(`e.co/${'p'.repeat(187)}`).ok).toBe(true);
  });

  it('refuses what is not an http, https or ftp address', () => {
    expect(webAddress('mailto://ann@example.com')).toEqual({ ok: false, problem: 'not_web' });
    expect(webAddress('https://exa mple.com')).toEqual({ ok: false, problem: 'malformed' });
    expect(webAddress('https:// example.com')).toEqual({ ok: false, problem: 'malformed' });
  });
});

describe('currency amounts as they show', () => {
  it('round half away from zero on the decimal digits, not on the binary value', () => {
    expect(fixedDecimals(12.345, 2)).toBe('12.35');
    // toFixed says 1.00: 1.005 is 1.00499999999999989... in binary.
    expect(fixedDecimals(1.005, 2)).toBe('1.01');
    expect(fixedDecimals(9.995, 2)).toBe('10.00');
    expect(fixedDecimals(99.5, 0)).toBe('100');
    expect(fixedDecimals(-1.5, 0)).toBe('-2');
    expect(fixedDecimals(-0.004, 2)).toBe('0.00');
    expect(fixedDecimals(10862.62, 2)).toBe('10862.62');
    expect(fixedDecimals(3, 3)).toBe('3.000');
    expect(fixedDecimals(1e-7, 2)).toBe('0.00');
    expect(formattedAmount('INR', 12.345, 2)).toBe('INR 12.35');
  });

  it('count the decimals of an amount as written', () => {
    expect([12.345, 12, 0.1, 1e-7, 1.5e-7, -2.25].map(decimalPlaces)).toEqual([3, 0, 1, 7, 8, 2]);
  });
});
