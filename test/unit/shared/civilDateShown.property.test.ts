/**
 * A date-only value ("YYYY-MM-DD", years 0001-9999 as the spec's dates and the emulator take
 * them) is shown as that very day in every portal zone: day, month and year read back from the
 * shown text equal the stored ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '@portaldesk/portal-api/domain/fieldValueRules';
import { describeValue } from '../../../src/shared/recordValues/describeValue';

/** en-GB month abbreviations as Intl writes them, by month (read from Intl, year 2001). */
const MONTHS = Array.from({ length: 12 }, (_, m) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short' }).format(
    Date.UTC(2001, m, 15),
  ),
);

const calendarDate = fc
  .tuple(
    fc.integer({ min: 1, max: 9999 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 31 }),
  )
  .map(
    ([y, m, d]) =>
      `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
  )
  .filter(isCalendarDate);

describe('a date-only value is shown as the day it is', () => {
  it('in zones west and east of UTC, for every year the spec allows', () => {
    fc.assert(
      fc.property(
        fc.oneof(calendarDate, fc.constantFrom('0001-01-01', '0050-03-05', '0099-12-31')),
        fc.constantFrom('Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Los_Angeles', 'UTC'),
        (text, timeZone) => {
          const view = describeValue('date', text, { timeZone, locale: 'en-GB' });
          const shown = (view as { text: string }).text;
          const m = /^(\d+) (\S+) (\d+)$/.exec(shown);
          expect(m, shown).not.toBeNull();
          const [year, month, day] = text.split('-').map(Number) as [number, number, number];
          expect([Number(m![1]), MONTHS.indexOf(m![2]!) + 1, Number(m![3])], shown).toEqual([
            day,
            month,
            year,
          ]);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
