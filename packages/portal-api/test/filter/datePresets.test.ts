import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  DATE_PRESETS,
  evaluate,
  type FilterContext,
  type Predicate,
} from '@portaldesk/portal-api/filter';
import { at, c, FIELDS, filterOf } from './fixtures';

/** [min, max] of a compiled range, `[` / `(` marking inclusive / exclusive ends. */
function span(root: Predicate): string {
  if (root.op === 'empty') return 'empty';
  if (root.op !== 'range') throw new Error(`not a range: ${JSON.stringify(root)}`);
  const min = root.min ? `${root.min.inclusive ? '[' : '('}${root.min.value}` : '(-inf';
  const max = root.max ? `${root.max.value}${root.max.inclusive ? ']' : ')'}` : '+inf)';
  return `${min}, ${max}`;
}

function preset(field: string, condition: string, context: FilterContext): string {
  return span(compileFilter(filterOf([c(field, condition)]), FIELDS, context).root);
}

// 2026-03-04T20:00Z is already Thursday 2026-03-05 01:30 in India (UTC+05:30, no DST).
const KOLKATA: FilterContext = { now: at('2026-03-04T20:00:00Z'), timeZone: 'Asia/Kolkata' };

describe('date presets on a date field', () => {
  it('resolves every preset against today in the portal time zone (Monday weeks)', () => {
    const expected: Record<string, string> = {
      today: '[2026-03-05, 2026-03-05]',
      yesterday: '[2026-03-04, 2026-03-04]',
      tomorrow: '[2026-03-06, 2026-03-06]',
      till_yesterday: '(-inf, 2026-03-04]',
      overdue: '(-inf, 2026-03-04]',
      today_overdue: '(-inf, 2026-03-05]',
      this_week: '[2026-03-02, 2026-03-08]',
      last_week: '[2026-02-23, 2026-03-01]',
      next_week: '[2026-03-09, 2026-03-15]',
      next_7_days: '[2026-03-05, 2026-03-11]',
      this_month: '[2026-03-01, 2026-03-31]',
      last_month: '[2026-02-01, 2026-02-28]',
      next_month: '[2026-04-01, 2026-04-30]',
      next_30_days: '[2026-03-05, 2026-04-03]',
      unscheduled: 'empty',
    };
    expect(Object.keys(expected).sort()).toEqual([...DATE_PRESETS].sort());
    for (const [name, range] of Object.entries(expected)) {
      expect([name, preset('due_date', name, KOLKATA)]).toEqual([name, range]);
    }
  });

  it('uses the day of the portal, not of UTC', () => {
    const utc = { ...KOLKATA, timeZone: 'UTC' };
    expect(preset('due_date', 'today', utc)).toBe('[2026-03-04, 2026-03-04]');
    const compiled = compileFilter(filterOf([c('due_date', 'today')]), FIELDS, KOLKATA);
    expect(evaluate(compiled, () => '2026-03-05')).toBe(true);
    expect(evaluate(compiled, () => '2026-03-04')).toBe(false);
  });

  it('this_week honours weekStartDay (0 and 7 = Sunday, 1 = Monday ... 6 = Saturday)', () => {
    // Thursday 2026-03-05.
    const week = (weekStartDay?: number) =>
      preset('due_date', 'this_week', { ...KOLKATA, weekStartDay });
    expect(week(undefined)).toBe('[2026-03-02, 2026-03-08]');
    expect(week(1)).toBe('[2026-03-02, 2026-03-08]');
    expect(week(0)).toBe('[2026-03-01, 2026-03-07]');
    expect(week(7)).toBe('[2026-03-01, 2026-03-07]');
    expect(week(4)).toBe('[2026-03-05, 2026-03-11]');
    expect(week(5)).toBe('[2026-02-27, 2026-03-05]');
    expect(week(6)).toBe('[2026-02-28, 2026-03-06]');
    expect(preset('due_date', 'last_week', { ...KOLKATA, weekStartDay: 6 })).toBe(
      '[2026-02-21, 2026-02-27]',
    );
    expect(preset('due_date', 'next_week', { ...KOLKATA, weekStartDay: 0 })).toBe(
      '[2026-03-08, 2026-03-14]',
    );
  });

  it('handles month ends and leap years', () => {
    const jan31 = { now: at('2024-01-31T12:00:00Z'), timeZone: 'UTC' };
    expect(preset('due_date', 'next_month', jan31)).toBe('[2024-02-01, 2024-02-29]');
    expect(preset('due_date', 'last_month', jan31)).toBe('[2023-12-01, 2023-12-31]');
    expect(preset('due_date', 'next_30_days', jan31)).toBe('[2024-01-31, 2024-02-29]');
  });
});

describe('date presets on a date-time field', () => {
  it('turns local days into UTC instants in India', () => {
    expect(preset('created_time', 'today', KOLKATA)).toBe(
      '[2026-03-04T18:30:00.000Z, 2026-03-05T18:30:00.000Z)',
    );
    expect(preset('created_time', 'this_month', KOLKATA)).toBe(
      '[2026-02-28T18:30:00.000Z, 2026-03-31T18:30:00.000Z)',
    );
    expect(preset('created_time', 'till_yesterday', KOLKATA)).toBe(
      '(-inf, 2026-03-04T18:30:00.000Z)',
    );
    expect(preset('created_time', 'today_overdue', KOLKATA)).toBe(
      '(-inf, 2026-03-05T18:30:00.000Z)',
    );
    // Overdue on a date-time: the instant has passed, not only the day.
    expect(preset('created_time', 'overdue', KOLKATA)).toBe('(-inf, 2026-03-04T20:00:00.000Z)');
  });

  it('spans a spring-forward week in New York (23-hour Sunday)', () => {
    // Tuesday 2026-03-10 08:00 EDT; clocks went from 02:00 EST to 03:00 EDT on Sunday 2026-03-08.
    const ny: FilterContext = {
      now: at('2026-03-10T12:00:00Z'),
      timeZone: 'America/New_York',
      weekStartDay: 0,
    };
    expect(preset('created_time', 'this_week', ny)).toBe(
      '[2026-03-08T05:00:00.000Z, 2026-03-15T04:00:00.000Z)',
    );
    expect(preset('created_time', 'last_week', ny)).toBe(
      '[2026-03-01T05:00:00.000Z, 2026-03-08T05:00:00.000Z)',
    );
    expect(preset('created_time', 'this_week', { ...ny, weekStartDay: 6 })).toBe(
      '[2026-03-07T05:00:00.000Z, 2026-03-14T04:00:00.000Z)',
    );
    expect(preset('created_time', 'next_7_days', ny)).toBe(
      '[2026-03-10T04:00:00.000Z, 2026-03-17T04:00:00.000Z)',
    );
    const compiled = compileFilter(filterOf([c('created_time', 'this_week')]), FIELDS, ny);
    expect(evaluate(compiled, () => '2026-03-08T04:59:59.999Z')).toBe(false);
    expect(evaluate(compiled, () => '2026-03-08T05:00:00.000Z')).toBe(true);
    expect(evaluate(compiled, () => '2026-03-15T03:59:59.999Z')).toBe(true);
    expect(evaluate(compiled, () => '2026-03-15T04:00:00.000Z')).toBe(false);
  });

  it('spans a fall-back day in New York (25-hour Sunday)', () => {
    const ny: FilterContext = { now: at('2026-11-01T16:00:00Z'), timeZone: 'America/New_York' };
    expect(preset('created_time', 'today', ny)).toBe(
      '[2026-11-01T04:00:00.000Z, 2026-11-02T05:00:00.000Z)',
    );
    expect(preset('created_time', 'yesterday', ny)).toBe(
      '[2026-10-31T04:00:00.000Z, 2026-11-01T04:00:00.000Z)',
    );
  });

  it('starts a day at the first instant it exists when midnight is skipped or repeated', () => {
    const day = (timeZone: string, date: string) =>
      span(
        compileFilter(filterOf([c('created_time', 'is', date)]), FIELDS, { now: 0, timeZone }).root,
      );
    // Chile springs forward at 00:00 -> 01:00: the day begins at 01:00 local.
    expect(day('America/Santiago', '2026-09-06')).toBe(
      '[2026-09-06T04:00:00.000Z, 2026-09-07T03:00:00.000Z)',
    );
    // Cuba falls back at 01:00 -> 00:00: midnight happens twice; the day begins at the first.
    expect(day('America/Havana', '2026-11-01')).toBe(
      '[2026-11-01T04:00:00.000Z, 2026-11-02T05:00:00.000Z)',
    );
  });

  it('reads date values of comparisons as whole local days', () => {
    const ctx = KOLKATA;
    const cmp = (condition: string, ...values: string[]) =>
      span(compileFilter(filterOf([c('created_time', condition, ...values)]), FIELDS, ctx).root);
    expect(cmp('less_than', '2026-01-10')).toBe('(-inf, 2026-01-09T18:30:00.000Z)');
    expect(cmp('before', '2026-01-10')).toBe('(-inf, 2026-01-09T18:30:00.000Z)');
    expect(cmp('less_than_or_equal', '2026-01-10')).toBe('(-inf, 2026-01-10T18:30:00.000Z)');
    expect(cmp('greater_than', '2026-01-10')).toBe('[2026-01-10T18:30:00.000Z, +inf)');
    expect(cmp('after', '2026-01-10')).toBe('[2026-01-10T18:30:00.000Z, +inf)');
    expect(cmp('greater_than_or_equal', '2026-01-10')).toBe('[2026-01-09T18:30:00.000Z, +inf)');
    expect(cmp('between', '2026-01-10', '2026-01-11')).toBe(
      '[2026-01-09T18:30:00.000Z, 2026-01-11T18:30:00.000Z)',
    );
    // The end of 9999-12-31 in India is still a 4-digit-year instant ...
    expect(cmp('less_than_or_equal', '9999-12-31')).toBe('(-inf, 9999-12-31T18:30:00.000Z)');
    // ... in New York it is in year 10000, later than anything stored, so the bound is dropped.
    const ny = { now: 0, timeZone: 'America/New_York' };
    const late = compileFilter(
      filterOf([c('created_time', 'less_than_or_equal', '9999-12-31')]),
      FIELDS,
      ny,
    );
    expect(span(late.root)).toBe('(-inf, +inf)');
    const later = compileFilter(
      filterOf([c('created_time', 'greater_than', '9999-12-31')]),
      FIELDS,
      ny,
    );
    expect(later.root).toEqual({ op: 'const', value: false });
  });
});
