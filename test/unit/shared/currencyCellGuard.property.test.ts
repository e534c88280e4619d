/**
 * A currency's cell in a CSV or a paste: the amount Intl writes is a value, never defused, but a
 * code the service keeps as any text is shown before it, so the cell starts with text anyone can
 * write and gets the formula guard like any other text (a code "=1+2+0*" and an amount 5 made the
 * cell "=1+2+0* 5", a formula, before).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defuseFormula } from '../../../src/shared/csv/csvField';
import { valueCell, viewText } from '../../../src/shared/recordValues/cellText';
import { describeValue } from '../../../src/shared/recordValues/describeValue';

const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'hi-IN', 'ar-EG', 'ja-JP'];
const ISO_CODE = /^[A-Z]{3}$/;

/** Codes as the service may keep them: ISO's, Intl's unknown ones, and any text at all. */
const codes = fc.oneof(
  fc.constantFrom('USD', 'EUR', 'JPY', 'XBT', 'usd', 'USDT', ' ', ''),
  fc.constantFrom('=1+2+0*', '+cmd', '-2+3*', '@SUM(A1)+', "'=x", '\t=1', '\r=1', ' =1+'),
  fc.string({ maxLength: 8 }),
  fc
    .tuple(fc.constantFrom('=', '+', '-', '@', "'", '\t'), fc.string({ maxLength: 8 }))
    .map(([first, rest]) => first + rest),
);
const amounts = fc.double({ noNaN: true, noDefaultInfinity: true });

describe('a currency cell with the formula guard on', () => {
  it('is the table’s text, defused where the code (service text) starts it, never where Intl does', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOCALES), codes, amounts, (locale, code, amount) => {
        const context = { timeZone: 'UTC', locale };
        const value = { currency_code: code, amount };
        const shown = viewText(describeValue('currency', value, context));
        const cell = valueCell('currency', value, { values: 'shown', context, defuse: true });
        const fromIntlAlone = code.trim() === '' || ISO_CODE.test(code);
        // Intl's own text of a negative amount ("-USD 5.00") is kept: a value, not a formula.
        expect(cell).toBe(fromIntlAlone ? shown : defuseFormula(shown));
        if (!fromIntlAlone) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps an amount without a code, or a bare number, as Intl writes it', () => {
    const context = { timeZone: 'UTC', locale: 'en-US' };
    const options = { values: 'shown', context, defuse: true } as const;
    expect(valueCell('currency', { amount: -5 }, options)).toBe('-5');
    expect(valueCell('currency', -5, options)).toBe('-5');
    expect(valueCell('currency', { currency_code: 'EUR', amount: -5 }, options)).toBe(
      '-EUR\u00a05.00',
    );
    expect(valueCell('currency', { currency_code: '=1+2+0*', amount: 5 }, options)).toBe(
      "'=1+2+0* 5",
    );
  });
});
