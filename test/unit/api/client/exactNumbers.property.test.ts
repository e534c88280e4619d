/**
 * A reply's numbers keep the value the service wrote: the spec's Number field holds up to 19
 * digits and Decimal up to 17, beyond what a double holds. Whatever a number becomes (a number,
 * or its text when a double cannot hold it), its exact value must be the literal's: checked
 * with BigInt rationals, not with the code's own rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBytes } from '../../../../src/main/api/client/parseJsonBytes';

/** The exact value of a decimal literal as a fraction n / 10^k (k may be negative). */
function rational(text: string): { n: bigint; k: bigint } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  const fraction = m[3] ?? '';
  const n = BigInt(`${m[1]}${m[2]}${fraction}`);
  return { n, k: BigInt(fraction.length) - BigInt(m[4] ?? '0') };
}

function equalRationals(a: { n: bigint; k: bigint }, b: { n: bigint; k: bigint }): boolean {
  const k = a.k > b.k ? a.k : b.k;
  return a.n * 10n ** (k - a.k) === b.n * 10n ** (k - b.k);
}

/**
 * The value a parsed number is shown, stored and sent as: its text when kept as text, else the
 * double's shortest text (what String, JSON.stringify and Intl write).
 */
function valueOf(parsed: unknown): { n: bigint; k: bigint } {
  if (typeof parsed === 'string') return rational(parsed);
  if (typeof parsed === 'number') return rational(String(parsed));
  throw new Error(`a number became ${typeof parsed}`);
}

const digits = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((d) => d.join(''));
/** Literals as a service writes them: whole numbers to 19 digits, decimals to 17, some exponents. */
const literal = fc.oneof(
  fc
    .tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), digits(0, 18))
    .map(([neg, first, rest]) => `${neg ? '-' : ''}${first}${rest}`),
  fc
    .tuple(fc.boolean(), digits(1, 9), digits(1, 16))
    .map(
      ([neg, whole, fraction]) => `${neg ? '-' : ''}${whole.replace(/^0+(?=\d)/, '')}.${fraction}`,
    ),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), digits(0, 17), fc.integer({ min: -30, max: 30 }))
    .map(([first, rest, exp]) => `${first}.${rest || '0'}e${exp}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom('0.1', '1e-7', '-0', '1.10', '9007199254740993', '1234567890123456789'),
);

describe('numbers in replies keep their exact value', () => {
  it('as a member, an item and a whole piece, in small and cut replies', () => {
    fc.assert(
      fc.property(literal, fc.integer({ min: 1, max: 4096 }), (text, splitAbove) => {
        const doc = `{"entities":[{"id":"1234567890123456789","cf_n":${text},"list":[${text}, 1]}]}`;
        const parsed = parseJsonBytes(new TextEncoder().encode(doc), { splitAbove }) as {
          entities: { id: string; cf_n: unknown; list: unknown[] }[];
        };
        const entity = parsed.entities[0]!;
        const expected = rational(text);
        expect(equalRationals(valueOf(entity.cf_n), expected), `cf_n ${text}`).toBe(true);
        expect(equalRationals(valueOf(entity.list[0]), expected), `item ${text}`).toBe(true);
        expect(entity.id).toBe('1234567890123456789');
        expect(entity.list[1]).toBe(1);
      }),
      { numRuns: 3_000 },
    );
  });

  it('keeps numbers a double holds as numbers, and strings as strings', () => {
    const doc =
      '{"a":0.1,"b":1e-7,"c":-0,"d":1.10,"e":9007199254740992,"f":"12345678901234567890","g":[1e400,1e-400]}';
    const parsed = parseJsonBytes(new TextEncoder().encode(doc)) as Record<string, unknown>;
    expect(parsed).toStrictEqual({
      a: 0.1,
      b: 1e-7,
      c: -0,
      d: 1.1,
      e: 9007199254740992,
      f: '12345678901234567890',
      // Infinity and 0 would be other values (and Infinity is stored as null).
      g: ['1e400', '1e-400'],
    });
  });
});
