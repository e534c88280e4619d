import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from '../../../src/shared/recordValues/isoInstant';

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Texts of the shape the fast path reads, fields in and out of their ranges. */
const isoLike = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 99 }),
    day: fc.integer({ min: 0, max: 99 }),
    hour: fc.integer({ min: 0, max: 99 }),
    minute: fc.integer({ min: 0, max: 99 }),
    second: fc.integer({ min: 0, max: 99 }),
    ms: fc.integer({ min: 0, max: 999 }),
  })
  .map(
    ({ year, month, day, hour, minute, second, ms }) =>
      `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`,
  );
/** Any instant written by toISOString (years 0 to 9999 are its 24-character form). */
const written = fc
  .integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 })
  .map((time) => new Date(time).toISOString());
/** The texts above with one character changed anywhere. */
const damaged = fc
  .tuple(isoLike, fc.nat(23), fc.constantFrom(...' +-.:TZz0123456789/a\u0660'))
  .map(([text, at, char]) => text.slice(0, at) + char + text.slice(at + 1));

describe('isoInstant', () => {
  it("answers as Date.parse for any text of the service's shape, right or wrong", () => {
    fc.assert(
      fc.property(fc.oneof(isoLike, written, damaged, fc.string()), (text) => {
        expect(Object.is(isoInstant(text), Date.parse(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the days around leap days and the epoch', () => {
    for (const text of [
      '2024-02-29T23:59:59.999Z',
      '2023-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2000-02-29T12:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z',
      '2026-03-05T24:00:00.000Z',
    ]) {
      expect(Object.is(isoInstant(text), Date.parse(text))).toBe(true);
    }
  });
});
