import { describe, expect, it } from 'vitest';
import { compileFilter, evaluate, type FilterField } from '@portaldesk/portal-api/filter';
import { changedSinceFilter, localDay } from '../../../src/main/sync/incrementalFilter';

const fields: FilterField[] = [{ name: 'last_updated_time', kind: 'datetime' }];

function matches(cursor: string, timeZone: string, updated: string): boolean {
  const compiled = compileFilter(changedSinceFilter(cursor, timeZone), fields, {
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
});
