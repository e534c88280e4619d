import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, evaluate, type FilterField } from '@portaldesk/portal-api/filter';
import { changedSinceFilter, localDay } from '../../../src/main/sync/incrementalFilter';

const fields: FilterField[] = [{ name: 'last_updated_time', kind: 'datetime' }];

/** Whether the service, reading days in `timeZone`, lists a record updated at `updated`. */
function matches(
  cursor: string,
  timeZone: string,
  updated: string,
  known: string | null = timeZone,
): boolean {
  const compiled = compileFilter(changedSinceFilter(cursor, known), fields, {
    now: Date.parse('2026-06-01T00:00:00Z'),
    timeZone,
  });
  return evaluate(compiled, () => updated);
}

describe('incremental pull filter', () => {
  it("takes the cursor's day in the portal's time zone", () => {
    expect(localDay('2026-03-01T02:30:00.000Z', 'Asia/Kolkata')).toBe('2026-03-01');
    expect(localDay('2026-03-01T02:30:00.000Z', 'America/New_York')).toBe('2026-02-28');
    expect(() => localDay('yesterday', 'UTC')).toThrow(/ISO instant/);
  });

  it('never misses a record updated at or after the cursor, whatever the zone', () => {
    for (const zone of ['Asia/Kolkata', 'America/New_York', 'Pacific/Auckland', 'UTC']) {
      const cursor = '2026-03-08T06:59:59.000Z';
      for (const updated of [
        '2026-03-08T06:59:59.000Z',
        '2026-03-08T07:00:00.000Z',
        '2026-04-01T00:00:00.000Z',
      ]) {
        expect(matches(cursor, zone, updated)).toBe(true);
      }
      // Two days earlier is outside in every zone: the overlap is at most the cursor's day.
      expect(matches(cursor, zone, '2026-03-06T06:59:59.000Z')).toBe(false);
    }
  });

  it('never misses one when the portal zone is unreported or unknown here, whatever zone the service reads in', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    const instants = fc
      .integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') })
      .map((ms) => new Date(ms).toISOString());
    fc.assert(
      fc.property(
        instants,
        fc.constantFrom(...zones, 'Etc/GMT+12', 'Pacific/Kiritimati'),
        fc.constantFrom(null, 'India Standard Time', 'UTC+5'),
        (cursor, serviceZone, known) => {
          expect(matches(cursor, serviceZone, cursor, known)).toBe(true);
          // The overlap stays bounded: three days before is never read again.
          const before = new Date(Date.parse(cursor) - 3 * 24 * 60 * 60 * 1000).toISOString();
          expect(matches(cursor, serviceZone, before, known)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
