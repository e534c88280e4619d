import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  evaluate,
  FilterCompileError,
  type CompiledFilter,
  type FilterContext,
  type FilterCriterion,
} from '@portaldesk/portal-api/filter';
import { c, FIELDS, filterOf } from './fixtures';

const CONTEXT: FilterContext = {
  now: Date.parse('2026-03-05T10:00:00Z'),
  timeZone: 'Europe/Berlin',
  users: {
    deactivated: ['u9'],
    deleted: ['u8'],
    teamLeads: ['u1', 'u2'],
    pending: ['u7'],
    accepted: ['u1', 'u2', 'u3', 'u4'],
    directReports: { u1: ['u2', 'u3'], u2: ['u4'], u4: ['u1'] },
  },
};

function compile(criteria: FilterCriterion[], context = CONTEXT, pattern?: string) {
  return compileFilter(filterOf(criteria, pattern), FIELDS, context);
}

/** Which of these values match, reading the same value for every field. */
function matching(compiled: CompiledFilter, values: unknown[]): unknown[] {
  return values.filter((value) => evaluate(compiled, () => value));
}

function compileErrors(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof FilterCompileError)
      return error.errors.map((e) => `${e.path}: ${e.message}`);
    throw error;
  }
  throw new Error('expected a FilterCompileError');
}

describe('compileFilter', () => {
  it('throws FilterCompileError with the errors of parseFilter and checkFilter', () => {
    expect(compileErrors(() => compile([c('name', 'contains')]))).toEqual([
      'criteria[0].value: "contains" needs exactly 1 value, got 0',
    ]);
    expect(compileErrors(() => compile([c('name', 'is_empty')], CONTEXT, '1 OR 2'))).toEqual([
      'pattern: criterion 2 does not exist; there is 1 criterion (the only criterion is 1)',
    ]);
    expect(() => compile([c('name', 'contains')])).toThrow(
      'The filter cannot be compiled: criteria[0].value: "contains" needs exactly 1 value, got 0',
    );
  });

  it('refuses an invalid context', () => {
    expect(
      compileErrors(() =>
        compile([c('name', 'is_empty')], {
          now: Number.NaN,
          timeZone: 'Mars/Olympus',
          weekStartDay: 8,
        }),
      ),
    ).toEqual([
      'context.now: must be a finite number of epoch milliseconds',
      'context.timeZone: "Mars/Olympus" is not an IANA time zone Intl knows',
      'context.weekStartDay: must be an integer 0-7 (0 or 7 = Sunday, 1 = Monday ... 6 = Saturday), got 8',
    ]);
  });

  it('lists the fields it reads, by key, and which need the closed flag', () => {
    const compiled = compile(
      [c('name', 'contains', 'a'), c('tasklist.name', 'is', 'b'), c('status', 'all_open')],
      CONTEXT,
      '1 OR (2 AND 3)',
    );
    expect(compiled.fields).toEqual({ name: 'text', 'tasklist.name': 'text', status: 'status' });
    expect(compiled.closedFields).toEqual(['status']);
    expect(JSON.parse(JSON.stringify(compiled))).toEqual(compiled);
  });

  it('folds text needles once, at compile time', () => {
    const compiled = compile([c('name', 'contains', 'ÄRGER')]);
    expect(compiled.root).toEqual({
      op: 'text',
      field: 'name',
      match: 'contains',
      values: ['ärger'],
    });
    expect(matching(compiled, ['Großer Ärger', 'ärgerlich', 'Arger', null, 7])).toEqual([
      'Großer Ärger',
      'ärgerlich',
    ]);
  });
});

describe('user conditions', () => {
  const owners = ['u1', 'u2', 'u3', 'u4', 'u7', 'u8', 'u9', null, ''];

  it('resolves the presets to the context lists', () => {
    const cases: Record<string, string[]> = {
      deactivated_users: ['u9'],
      deleted_users: ['u8'],
      is_team_lead_only: ['u1', 'u2'],
      pending: ['u7'],
      accepted: ['u1', 'u2', 'u3', 'u4'],
    };
    for (const [condition, expected] of Object.entries(cases)) {
      const compiled = compile([c('owner', condition)]);
      expect([condition, compiled.root]).toEqual([
        condition,
        { op: 'equals', field: 'owner', type: 'text', values: expected },
      ]);
      expect(matching(compiled, owners)).toEqual(expected);
    }
  });

  it('resolves direct_reports_of and subordinates_of (derived from directReports, cycles included)', () => {
    expect(matching(compile([c('owner', 'direct_reports_of', 'u1')]), owners)).toEqual([
      'u2',
      'u3',
    ]);
    expect(matching(compile([c('owner', 'subordinates_of', 'u1')]), owners)).toEqual([
      'u2',
      'u3',
      'u4',
    ]);
    expect(matching(compile([c('owner', 'subordinates_of', 'u3')]), owners)).toEqual([]);
    expect(compile([c('owner', 'direct_reports_of', 'nobody')]).root).toEqual({
      op: 'const',
      value: false,
    });
    const explicit = { ...CONTEXT, users: { subordinates: { u3: ['u7'] } } };
    expect(matching(compile([c('owner', 'subordinates_of', 'u3')], explicit), owners)).toEqual([
      'u7',
    ]);
  });

  it('refuses a user condition whose list the context does not give', () => {
    const bare = { now: 0, timeZone: 'UTC' };
    expect(
      compileErrors(() =>
        compile([c('owner', 'pending'), c('owner', 'subordinates_of', 'u1')], bare),
      ),
    ).toEqual([
      'criteria[0].criteria_condition: "pending" needs context.users.pending, which was not given',
      'criteria[1].criteria_condition: "subordinates_of" needs context.users.subordinates (or directReports), which was not given',
    ]);
  });

  it('is and is_not compare ZPUIDs exactly, is_not excluding all values', () => {
    expect(matching(compile([c('owner', 'is', 'u1', 'u3')]), owners)).toEqual(['u1', 'u3']);
    expect(matching(compile([c('owner', 'is_not', 'u1', 'u3')]), owners)).toEqual([
      'u2',
      'u4',
      'u7',
      'u8',
      'u9',
      null,
      '',
    ]);
  });
});

describe('status conditions', () => {
  const records = [
    { id: 'open1', status: '11', closed: false },
    { id: 'done', status: '12', closed: true },
    { id: 'none', status: null, closed: false },
  ];
  function ids(compiled: CompiledFilter): string[] {
    return records
      .filter((r) =>
        evaluate(
          compiled,
          () => r.status,
          () => r.closed,
        ),
      )
      .map((r) => r.id);
  }

  it('all_open/all_closed and their custom_condition forms compile alike', () => {
    const open = compile([c('status', 'all_open')]);
    const closed = compile([c('status', 'all_closed')]);
    expect(open.root).toEqual({ op: 'not', item: { op: 'closed', field: 'status' } });
    expect(closed.root).toEqual({ op: 'closed', field: 'status' });
    expect(compile([c('status', 'custom_condition', '${ALL_OPEN}')])).toEqual(open);
    expect(compile([c('status', 'custom_condition', '${ALL_CLOSED}')])).toEqual(closed);
    expect(ids(open)).toEqual(['open1', 'none']);
    expect(ids(closed)).toEqual(['done']);
  });

  it('a specific status goes by id with is/is_not', () => {
    expect(ids(compile([c('status', 'is', '12')]))).toEqual(['done']);
    expect(ids(compile([c('status', 'is_not', '12')]))).toEqual(['open1', 'none']);
  });

  it('evaluate asks for closed() only when a status preset needs it', () => {
    expect(() => evaluate(compile([c('status', 'all_open')]), () => '11')).toThrow(
      /closed\(fieldKey\)/,
    );
    expect(evaluate(compile([c('status', 'is', '11')]), () => '11')).toBe(true);
  });
});

describe('NULL and type semantics (both back ends)', () => {
  it('empty is NULL, undefined or "" (and [] for multi pick lists)', () => {
    const values = [null, undefined, '', ' ', 0, '[]', '["1"]', []];
    expect(matching(compile([c('name', 'is_empty')]), values)).toEqual([null, undefined, '']);
    expect(matching(compile([c('tag', 'is_empty')]), values)).toEqual([
      null,
      undefined,
      '',
      ' ',
      0,
      '[]',
      [],
    ]);
    expect(matching(compile([c('due_date', 'unscheduled')]), values)).toEqual([
      null,
      undefined,
      '',
    ]);
  });

  it('a negation is the complement of its condition, so it matches empty values', () => {
    const values = [null, '', 'x', 'X', 'y'];
    expect(matching(compile([c('name', 'is_not', 'x')]), values)).toEqual([null, '', 'y']);
    expect(matching(compile([c('name', 'not_contains', 'x')]), values)).toEqual([null, '', 'y']);
    expect(matching(compile([c('cf_budget', 'not_between', '1', '2')]), [null, 0, 1, 2.5])).toEqual(
      [null, 0, 2.5],
    );
  });

  it('comparisons never match empty values or values of another type', () => {
    expect(
      matching(compile([c('cf_budget', 'less_than', '10')]), [null, '', '5', 5, true]),
    ).toEqual([5, true]);
    expect(
      matching(compile([c('due_date', 'before', '2026-01-01')]), [
        null,
        '',
        20251231,
        '2025-12-31',
      ]),
    ).toEqual(['2025-12-31']);
  });

  it('check boxes store 1/0; JavaScript booleans read as 1/0', () => {
    expect(
      matching(compile([c('has_parents', 'is', 'true')]), [1, 0, true, false, '1', null]),
    ).toEqual([1, true]);
    expect(matching(compile([c('has_parents', 'is_not', '1')]), [1, 0, true, false, null])).toEqual(
      [0, false, null],
    );
  });

  it('multi pick lists match by option id, from JSON text or an array', () => {
    const compiled = compile([c('tag', 'is', '101', '103')]);
    expect(
      matching(compiled, [
        '["101","102"]',
        ['103'],
        '[101]',
        '["1010"]',
        '{"a":"101"}',
        'oops',
        null,
      ]),
    ).toEqual(['["101","102"]', ['103']]);
  });
});
