/**
 * When a scheduled backup runs. The calendar is the machine's local one, so every time here is
 * built with local-time constructors (`new Date(y, m, d, h)`) and read back with local getters:
 * the assertions hold in any zone. 14 January 2026 is a Wednesday.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nextRun,
  nextSlotAfter,
  type CalendarSpec,
} from '../../../src/main/backups/backupCalendar';

const DAY = 86_400_000;
const daily = (hour: number): CalendarSpec => ({ frequency: 'daily', hour, weekday: 0 });
const weekly = (weekday: number, hour: number): CalendarSpec => ({
  frequency: 'weekly',
  hour,
  weekday,
});
const off: CalendarSpec = { frequency: 'off', hour: 9, weekday: 3 };
const local = (month: number, day: number, hour = 0, minute = 0, year = 2026) =>
  new Date(year, month, day, hour, minute);

describe('nextSlotAfter', () => {
  it('is null when the schedule is off', () => {
    expect(nextSlotAfter(off, local(0, 14, 8))).toBeNull();
  });

  describe('daily', () => {
    it('is later the same day when the hour is still ahead', () => {
      expect(nextSlotAfter(daily(9), local(0, 14, 8, 59))).toEqual(local(0, 14, 9));
    });

    it('is strictly after: at the slot itself, the next one is tomorrow', () => {
      expect(nextSlotAfter(daily(9), local(0, 14, 9))).toEqual(local(0, 15, 9));
      const justAfter = new Date(local(0, 14, 9).getTime() + 1);
      expect(nextSlotAfter(daily(9), justAfter)).toEqual(local(0, 15, 9));
    });

    it('is tomorrow once the hour has passed', () => {
      expect(nextSlotAfter(daily(9), local(0, 14, 17, 30))).toEqual(local(0, 15, 9));
      expect(nextSlotAfter(daily(0), local(0, 14, 23, 59))).toEqual(local(0, 15, 0));
      expect(nextSlotAfter(daily(23), local(0, 14, 23, 0))).toEqual(local(0, 15, 23));
    });

    it('crosses the end of a month and a year', () => {
      expect(nextSlotAfter(daily(5), local(0, 31, 6))).toEqual(local(1, 1, 5));
      expect(nextSlotAfter(daily(5), local(11, 31, 23, 0, 2026))).toEqual(local(0, 1, 5, 0, 2027));
    });

    it('ignores the weekday', () => {
      expect(nextSlotAfter({ ...daily(9), weekday: 6 }, local(0, 14, 8))).toEqual(local(0, 14, 9));
    });
  });

  describe('weekly', () => {
    it('is later the same day when it is that weekday and the hour is ahead', () => {
      expect(nextSlotAfter(weekly(3, 9), local(0, 14, 8))).toEqual(local(0, 14, 9));
    });

    it('is a week later at the slot itself or after it', () => {
      expect(nextSlotAfter(weekly(3, 9), local(0, 14, 9))).toEqual(local(0, 21, 9));
      expect(nextSlotAfter(weekly(3, 9), local(0, 14, 10))).toEqual(local(0, 21, 9));
    });

    it.each([
      [4, local(0, 15, 9)],
      [5, local(0, 16, 9)],
      [6, local(0, 17, 9)],
      [0, local(0, 18, 9)],
      [1, local(0, 19, 9)],
      [2, local(0, 20, 9)],
    ])('finds weekday %i', (weekday, expected) => {
      const slot = nextSlotAfter(weekly(weekday, 9), local(0, 14, 10));
      expect(slot).toEqual(expected);
      expect(slot!.getDay()).toBe(weekday);
    });
  });

  // From 2015: Samoa skipped Friday 30 December 2011 altogether, which no weekly slot survives.
  const instant = fc.date({
    min: new Date(2015, 0, 1),
    max: new Date(2040, 0, 1),
    noInvalidDate: true,
  });
  const spec = fc.record({
    frequency: fc.constantFrom('daily' as const, 'weekly' as const),
    hour: fc.integer({ min: 0, max: 23 }),
    weekday: fc.integer({ min: 0, max: 6 }),
  });

  /** The wall clock cannot show `hour` on this local day (a daylight-saving gap). */
  const hourMissing = (day: Date, hour: number) => {
    const wanted = new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour);
    return wanted.getHours() !== hour || wanted.getMinutes() !== 0;
  };

  it('is after the reference, at the hour, on the weekday, within 8 days, and the first such', () => {
    fc.assert(
      fc.property(spec, instant, (calendar, after) => {
        const slot = nextSlotAfter(calendar, after)!;
        expect(slot.getTime()).toBeGreaterThan(after.getTime());
        expect(slot.getTime() - after.getTime()).toBeLessThan(8 * DAY);
        if (!hourMissing(slot, calendar.hour)) {
          expect(slot.getHours()).toBe(calendar.hour);
          expect(slot.getMinutes()).toBe(0);
        }
        expect(slot.getSeconds()).toBe(0);
        expect(slot.getMilliseconds()).toBe(0);
        if (calendar.frequency === 'weekly') expect(slot.getDay()).toBe(calendar.weekday);
        // The first: the same slot one period earlier is not after the reference.
        const step = calendar.frequency === 'weekly' ? 7 : 1;
        const before = new Date(
          slot.getFullYear(),
          slot.getMonth(),
          slot.getDate() - step,
          calendar.hour,
        );
        expect(before.getTime()).toBeLessThanOrEqual(after.getTime());
      }),
      { numRuns: 500 },
    );
  });
});

describe('nextRun', () => {
  const setAt = local(0, 10, 12);

  it('is null when the schedule is off', () => {
    expect(nextRun(off, null, setAt, local(0, 14))).toBeNull();
    expect(nextRun(off, local(0, 12), setAt, local(0, 14))).toBeNull();
  });

  it('is the first slot after the schedule was set, for one that never ran', () => {
    expect(nextRun(daily(9), null, setAt, local(0, 10, 13))).toEqual({
      at: local(0, 11, 9),
      missed: false,
    });
  });

  it('is the first slot after the last run', () => {
    expect(nextRun(daily(9), local(0, 13, 9, 1), setAt, local(0, 13, 12))).toEqual({
      at: local(0, 14, 9),
      missed: false,
    });
  });

  it('is due now, once, when the slot passed while the app was closed', () => {
    const now = local(0, 14, 10, 30);
    expect(nextRun(daily(9), local(0, 13, 9), setAt, now)).toEqual({ at: now, missed: true });
    // Ten slots missed: still one run, now.
    expect(nextRun(daily(9), local(0, 3, 9), setAt, now)).toEqual({ at: now, missed: true });
    expect(nextRun(weekly(1, 9), null, local(0, 1, 0), now)).toEqual({ at: now, missed: true });
    // Having run now, the next one is the next slot, not another catch-up.
    expect(nextRun(daily(9), now, setAt, now)).toEqual({ at: local(0, 15, 9), missed: false });
  });

  it('counts a slot that is exactly now as due now', () => {
    const now = local(0, 14, 9);
    expect(nextRun(daily(9), local(0, 13, 9), setAt, now)).toEqual({ at: now, missed: true });
  });

  it('is weekly on the weekday', () => {
    expect(nextRun(weekly(5, 7), null, local(0, 14, 8), local(0, 14, 8))).toEqual({
      at: local(0, 16, 7),
      missed: false,
    });
  });

  it('counts from a change made after the last run: moving 02:00 to 03:00 at 14:00 waits for tomorrow', () => {
    const ranAt = new Date(2026, 10, 26, 2, 0, 30);
    const changedAt = new Date(2026, 10, 26, 14, 0);
    const run = nextRun({ frequency: 'daily', hour: 3, weekday: 0 }, ranAt, changedAt, changedAt);
    expect(run).toEqual({ at: new Date(2026, 10, 27, 3, 0), missed: false });
  });

  it('is never before now, and missed exactly when the slot is not after now', () => {
    const instant = fc.date({
      min: new Date(2020, 0, 1),
      max: new Date(2030, 0, 1),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(
        fc.record({
          frequency: fc.constantFrom('daily' as const, 'weekly' as const),
          hour: fc.integer({ min: 0, max: 23 }),
          weekday: fc.integer({ min: 0, max: 6 }),
        }),
        fc.option(instant, { nil: null }),
        instant,
        instant,
        (calendar, lastRunAt, set, now) => {
          const run = nextRun(calendar, lastRunAt, set, now)!;
          // Counted from the later of the last run and the last change of the schedule.
          const reference = lastRunAt !== null && lastRunAt > set ? lastRunAt : set;
          const slot = nextSlotAfter(calendar, reference)!;
          expect(run.missed).toBe(slot.getTime() <= now.getTime());
          expect(run.at).toEqual(run.missed ? now : slot);
          expect(run.at.getTime()).toBeGreaterThanOrEqual(now.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });
});
