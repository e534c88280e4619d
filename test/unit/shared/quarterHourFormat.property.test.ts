/**
 * QuarterHourFormat against Intl.DateTimeFormat itself: for any instant, zone and locale, the same
 * text. The zones include offsets of half and three quarter hours, a half-hour summer time (Lord
 * Howe), historical local mean time with seconds (Amsterdam before 1937, Monrovia's -0:44:30 until
 * 1972), and instants around changes of offset; the locales a 12-hour clock and digits other than
 * ASCII. Instants come in runs inside one quarter hour and its neighbours, as an export's do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuarterHourFormat } from '../../../src/shared/recordValues/quarterHourFormat';

const ZONES = [
  'UTC',
  'Europe/Amsterdam',
  'Europe/London',
  'America/New_York',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tehran',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Africa/Monrovia',
  'America/Sao_Paulo',
] as const;
const LOCALES = ['en-GB', 'en-US', 'de-DE', 'ja-JP', 'ar-EG', 'hi-IN-u-nu-deva', 'fr-CA'] as const;

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
/** 1850 to 2100. */
const EARLIEST = Date.UTC(1850, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/** Instants of known changes of offset, to land on and around. */
const CHANGES = [
  Date.UTC(2026, 2, 29, 1, 0), // Europe: summer time
  Date.UTC(2026, 9, 25, 1, 0), // Europe: back
  Date.UTC(2026, 2, 8, 7, 0), // New York: summer time
  Date.UTC(2026, 3, 4, 15, 0), // Lord Howe: half an hour back
  Date.UTC(2026, 9, 3, 15, 30), // Lord Howe: half an hour on
  Date.UTC(1937, 5, 30, 22, 40, 28), // Amsterdam: +0:19:32 to +0:20
  Date.UTC(1972, 0, 7, 0, 44, 30), // Monrovia: -0:44:30 to UTC
];

const instant = fc.oneof(
  fc.integer({ min: EARLIEST, max: LATEST }),
  fc
    .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -2 * 3_600_000, max: 2 * 3_600_000 }))
    .map(([at, by]) => at + by),
);

function intlOf(locale: string, timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

describe('QuarterHourFormat', () => {
  it('writes every instant as Intl does, in any zone and locale', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...ZONES),
        fc.array(
          fc.tuple(
            instant,
            fc.array(fc.integer({ min: -QUARTER, max: 2 * QUARTER }), { maxLength: 8 }),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        (locale, zone, runs) => {
          const intl = intlOf(locale, zone);
          const quick = new QuarterHourFormat(intl);
          for (const [base, offsets] of runs) {
            for (const time of [base, ...offsets.map((by) => base + by)]) {
              expect(quick.format(time)).toBe(intl.format(time));
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('asks Intl twice a quarter hour in the zones and locales of today, not once an instant', () => {
    for (const zone of ['America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'UTC']) {
      for (const locale of ['en-US', 'en-GB', 'de-DE', 'ja-JP']) {
        const intl = intlOf(locale, zone);
        let asked = 0;
        const counted = {
          format: (time: number) => {
            asked += 1;
            return intl.format(time);
          },
          formatToParts: (time: number) => intl.formatToParts(time),
        } as unknown as Intl.DateTimeFormat;
        const quick = new QuarterHourFormat(counted);
        const start = Date.UTC(2026, 4, 12, 9, 0);
        for (let time = start; time < start + 10 * QUARTER; time += 997) {
          expect(quick.format(time)).toBe(intl.format(time));
        }
        expect(asked, `${zone} ${locale}`).toBeLessThanOrEqual(2 * 10);
      }
    }
  });

  it('writes every minute around the changes of offset as Intl does', () => {
    for (const zone of ZONES) {
      for (const locale of ['en-GB', 'en-US']) {
        const intl = intlOf(locale, zone);
        const quick = new QuarterHourFormat(intl);
        for (const at of CHANGES) {
          for (let time = at - 2 * 3_600_000; time <= at + 2 * 3_600_000; time += 29_999) {
            expect(quick.format(time)).toBe(intl.format(time));
          }
        }
      }
    }
  });
});
