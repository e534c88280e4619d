/**
 * A number typed in the editor (or given to the engine's check, as bulk edit and import do) is
 * either queued with exactly the value typed or refused with a message: never queued as the
 * nearby double. The spec's Decimal holds 17 digits, a double about 15. Checked by value (BigInt
 * fractions of the typed text against the queued number's text), over generated texts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideSave } from '../../../../src/renderer/src/features/outbox/fieldDraft';
import { validateFieldValue } from '../../../../src/shared/fieldValues/validateFieldValue';
import { editableField } from './editableField';

function rational(text: string): { n: bigint; k: bigint } {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  const fraction = m[3] ?? '';
  return {
    n: BigInt(`${m[1] === '-' ? '-' : ''}${m[2] || '0'}${fraction}`),
    k: BigInt(fraction.length) - BigInt(m[4] ?? '0'),
  };
}

function sameValue(a: string, b: string): boolean {
  const [x, y] = [rational(a), rational(b)];
  const k = x.k > y.k ? x.k : y.k;
  return x.n * 10n ** (k - x.k) === y.n * 10n ** (k - y.k);
}

const digits = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((d) => d.join(''));
/** Decimals as typed: 1 to 17 significant digits, some beyond what a double keeps. */
const typed = fc.oneof(
  fc
    .tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), digits(0, 6), digits(0, 11))
    .map(
      ([negative, first, whole, fraction]) =>
        `${negative ? '-' : ''}${first}${whole}${fraction ? `.${fraction}` : ''}`,
    ),
  fc.constantFrom('0.12345678901234567', '1.10', '0.1', '1e-7', '12.345'),
);
const TZ = 'Europe/Berlin';

describe('a typed number is queued as typed, or refused', () => {
  for (const type of ['decimal', 'percentage', 'currency']) {
    it(`${type}: in the editor and in the engine's check`, () => {
      const field = editableField(type, { precision: 3 });
      fc.assert(
        fc.property(typed, (text) => {
          const draft =
            type === 'currency'
              ? { kind: 'currency' as const, code: 'USD', amount: text }
              : { kind: 'text' as const, text };
          const decision = decideSave(field, null, draft, TZ);
          if (decision.kind === 'ready') {
            const input = decision.input as number | { amount: number };
            const queued = typeof input === 'number' ? input : input.amount;
            expect(sameValue(String(queued), text), `${text} queued as ${queued}`).toBe(true);
          } else {
            expect(decision.kind).toBe('invalid');
          }
          const check = validateFieldValue(
            field,
            type === 'currency' ? { currency_code: 'USD', amount: text } : text,
            { timeZone: TZ, current: null },
          );
          if (check.ok) {
            const value = check.value as number | { amount: number };
            const kept = typeof value === 'number' ? value : value.amount;
            expect(sameValue(String(kept), text), `${text} kept as ${kept}`).toBe(true);
          } else {
            expect(check.rule).toMatch(/can keep exactly|at most|characters/);
          }
        }),
        { numRuns: 1_500 },
      );
    });
  }

  it('says what the typed text would have become', () => {
    const decision = decideSave(
      editableField('decimal'),
      null,
      { kind: 'text', text: '0.12345678901234567' },
      TZ,
    );
    expect(decision).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('would be sent as 0.12345678901234566'),
    });
  });
});
