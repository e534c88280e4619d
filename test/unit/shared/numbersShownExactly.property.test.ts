/**
 * A number is shown as the service holds it: every digit of a Decimal ("max 17 digits"), a
 * Percentage and a currency amount, never rounded to 10 decimals or to cents, and numbers kept
 * as exact text (beyond a double) digit for digit. Checked by value (BigInt fractions of the
 * shown text against the value's own text), over generated values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitCount } from '@portaldesk/portal-api/domain/fieldValueRules';
import { describeValue } from '../../../src/shared/recordValues/describeValue';

function rational(text: string): { n: bigint; k: bigint } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  const fraction = m[3] ?? '';
  return {
    n: BigInt(`${m[1]}${m[2]}${fraction}`),
    k: BigInt(fraction.length) - BigInt(m[4] ?? '0'),
  };
}

function sameValue(a: string, b: string): boolean {
  const [x, y] = [rational(a), rational(b)];
  const k = x.k > y.k ? x.k : y.k;
  return x.n * 10n ** (k - x.k) === y.n * 10n ** (k - y.k);
}

const contexts = [
  { timeZone: 'UTC', locale: 'en-US' },
  { timeZone: 'Asia/Kolkata', locale: 'en-GB' },
];

/** The number in a shown text (en locales: "," groups, "." is the point). */
const shownNumber = (text: string) => text.replace(/[A-Z]{3}|%|,|\s/g, '');

/** Values the spec allows: up to 17 digits (Decimal), as the service sends them. */
const decimal = fc
  .double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 })
  .filter((d) => digitCount(d) <= 17 && !Object.is(d, -0));

describe('numbers are shown with every digit the service holds', () => {
  it('decimals and percentages', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom('decimal', 'percentage', 'number'), (value, type) => {
        for (const context of contexts) {
          const view = describeValue(type, value, context);
          const text = (view as { text: string }).text;
          expect(sameValue(shownNumber(text), String(value)), `${value} shown ${text}`).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('currency amounts, with at least their currency’s cents', () => {
    fc.assert(
      fc.property(
        decimal.filter((d) => Math.abs(d) < 1e13),
        fc.constantFrom('USD', 'EUR', 'JPY', 'XBT'),
        (amount, code) => {
          const view = describeValue('currency', { currency_code: code, amount }, contexts[0]!);
          const text = (view as { text: string }).text;
          expect(sameValue(shownNumber(text), String(amount)), `${amount} shown ${text}`).toBe(
            true,
          );
        },
      ),
      { numRuns: 1_000 },
    );
    const usd = (amount: number) =>
      (
        describeValue('currency', { currency_code: 'USD', amount }, contexts[0]!) as {
          text: string;
        }
      ).text;
    expect(usd(1.1)).toBe('USD\u00a01.10');
    expect(usd(12.345)).toBe('USD\u00a012.345');
  });

  it('numbers kept as their exact text, digit for digit', () => {
    const context = contexts[0]!;
    expect(describeValue('number', '1234567890123456789', context)).toEqual({
      kind: 'text',
      text: '1,234,567,890,123,456,789',
      align: 'end',
    });
    expect(describeValue('decimal', '-0.12345678901234567', context)).toMatchObject({
      text: '-0.12345678901234567',
    });
    expect(describeValue('percentage', '12345678.901234567', context)).toMatchObject({
      text: '12,345,678.901234567 %',
    });
    // Not a plain decimal (1e400 is no double): shown as written, never as ∞.
    expect(describeValue('decimal', '1e400', context)).toMatchObject({ text: '1e400' });
    for (const value of [0.1, 1e-7, -0, 1.1, 0.000001, 1e-17]) {
      const text = (describeValue('decimal', value, context) as { text: string }).text;
      expect(sameValue(shownNumber(text), String(value)), `${value} shown ${text}`).toBe(true);
    }
  });
});
