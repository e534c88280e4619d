/**
 * canonicalInstant against the instants themselves: any ISO 8601 writing the spec allows (an
 * offset from -14:00 to +14:00 or Z, no fraction or 1 to 7 digits of it) reads as the instant
 * in `YYYY-MM-DDTHH:mm:ss.SSSZ`, to the millisecond; and the text order of what it returns is
 * the order of the instants, which is what the mirror's SQL compares.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalInstant } from '@portaldesk/portal-api/domain/instant';
import { IsoDateTime } from '@portaldesk/portal-api/domain/refs';
import { readEntity } from '@portaldesk/portal-api/domain/readEntity';

const FIRST = Date.parse('0001-01-02T00:00:00.000Z');
const LAST = Date.parse('9999-12-30T00:00:00.000Z');

interface Written {
  /** The instant, in microseconds (finer than a date holds). */
  micros: number;
  offsetMinutes: number;
  digits: number;
}

const written = fc.record({
  micros: fc.integer({ min: FIRST * 1000, max: LAST * 1000 }),
  offsetMinutes: fc.oneof(fc.constant(0), fc.integer({ min: -14 * 60, max: 14 * 60 })),
  digits: fc.integer({ min: 0, max: 7 }),
});

const MICROS_PER_SECOND = 1_000_000;
/** The microseconds past the whole second (of an instant before 1970 too). */
const pastSecond = (micros: number) =>
  ((micros % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;

/** The instant written as a service might: local time at the offset, `digits` of fraction. */
function write({ micros, offsetMinutes, digits }: Written, zulu: boolean): string {
  const second = Math.floor(micros / MICROS_PER_SECOND) * 1000;
  const local = new Date(second + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const fraction = `${String(pastSecond(micros)).padStart(6, '0')}0`.slice(0, digits);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const zone =
    zulu && offsetMinutes === 0 ? 'Z' : `${sign}${hours}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}${digits > 0 ? `.${fraction}` : ''}${zone}`;
}

/** The instant as written, to the millisecond, as the mirror keeps it. */
function kept({ micros, digits }: Written): string {
  const second = Math.floor(micros / MICROS_PER_SECOND) * 1000;
  // The digits written, as milliseconds (those past the third dropped).
  const unit = 10 ** Math.max(0, 6 - Math.min(digits, 3));
  const ms = digits === 0 ? 0 : (Math.floor(pastSecond(micros) / unit) * unit) / 1000;
  return new Date(second + ms).toISOString();
}

describe('canonicalInstant', () => {
  it('reads every writing of an instant as that instant in the mirror shape', () => {
    fc.assert(
      fc.property(written, fc.boolean(), (w, zulu) => {
        const text = write(w, zulu);
        expect(IsoDateTime.safeParse(text).success).toBe(true);
        expect(canonicalInstant(text)).toBe(kept(w));
        expect(IsoDateTime.parse(text)).toBe(kept(w));
      }),
      { numRuns: 5_000 },
    );
  });

  it('orders the texts it returns as the instants are ordered', () => {
    fc.assert(
      fc.property(written, written, (a, b) => {
        const [x, y] = [canonicalInstant(write(a, true)), canonicalInstant(write(b, false))];
        const byTime = Math.sign(Date.parse(kept(a)) - Date.parse(kept(b)));
        expect(Math.sign(x < y ? -1 : x > y ? 1 : 0)).toBe(byTime);
      }),
      { numRuns: 5_000 },
    );
  });

  it('leaves the shape the spec shows as it is, and what it cannot write in four digits', () => {
    expect(canonicalInstant('2026-03-05T10:00:00.000Z')).toBe('2026-03-05T10:00:00.000Z');
    expect(canonicalInstant('2026-03-05T02:30:00-08:00')).toBe('2026-03-05T10:30:00.000Z');
    expect(canonicalInstant('9999-12-31T23:30:00-01:00')).toBe('9999-12-31T23:30:00-01:00');
  });

  it("is how the fast record reader and the schema read a record's times", () => {
    const entity = readEntity({
      id: '1',
      name: 'Dock',
      status: { id: '2', name: 'Open' },
      layout: { id: '3', name: 'Standard' },
      created_time: '2026-03-05T15:30:00+05:30',
      last_updated_time: '2026-03-05T02:30:00.5-08:00',
      trashed_time: null,
    });
    expect(entity).toMatchObject({
      created_time: '2026-03-05T10:00:00.000Z',
      last_updated_time: '2026-03-05T10:30:00.500Z',
    });
  });
});
