import { describe, expect, it } from 'vitest';
import {
  checkFilter,
  conditionsFor,
  FIELD_KINDS,
  formatFilterErrors,
  type FilterCriterion,
} from '@portaldesk/portal-api/filter';
import { c, FIELDS, filterOf } from './fixtures';

function problems(...criteria: FilterCriterion[]): string[] {
  return formatFilterErrors(checkFilter(filterOf(criteria), FIELDS));
}

function accepts(...criteria: FilterCriterion[]): void {
  expect(problems(...criteria)).toEqual([]);
}

describe('checkFilter: fields', () => {
  it('finds fields of the module and of related modules by module_name', () => {
    accepts(c('name', 'contains', 'x'), c('tasklist.name', 'is', 'Sprint 1'));
    expect(problems(c('nme', 'is', 'x'))).toEqual([
      'criteria[0].field_name: "nme" is not a filterable field; fields: name, cf_budget, due_date, created_time, has_parents, status, owner, priority, tag',
    ]);
    expect(problems(c('tasklist.owner', 'is', '1'))).toEqual([
      'criteria[0].field_name: "owner" is not a field of module "tasklist"; its fields: name',
    ]);
    expect(problems(c('milestone.name', 'is', 'x'))).toEqual([
      'criteria[0].module_name: "milestone" is not a related module; related modules: tasklist',
    ]);
  });

  it('does not find inherited object keys', () => {
    expect(problems(c('constructor', 'is', 'x'))[0]).toMatch(
      /"constructor" is not a filterable field/,
    );
  });

  it('reads conditions named like object members as unknown conditions, not as hints', () => {
    for (const condition of ['constructor', 'toString', '__proto__']) {
      expect(problems(c('due_date', condition))).toEqual([
        `criteria[0].criteria_condition: "${condition}" is not a condition; date fields take: is, is_not, less_than, less_than_or_equal, greater_than, greater_than_or_equal, before, after, between, not_between, today, yesterday, tomorrow, till_yesterday, overdue, today_overdue, this_week, last_week, next_week, next_7_days, ...`,
      ]);
    }
  });
});

describe('checkFilter: conditions', () => {
  it('takes each listed condition for each kind', () => {
    for (const kind of FIELD_KINDS) {
      const field = FIELDS.find((f) => f.kind === kind && f.module === undefined);
      expect(field).toBeDefined();
      for (const condition of conditionsFor(kind)) {
        const values = {
          none: [],
          one: [condition.choices?.[0] ?? sampleValue(kind)],
          many: [sampleValue(kind), sampleValue(kind)],
          two: [sampleValue(kind), sampleValue(kind)],
        }[condition.values];
        accepts(c(field?.name ?? '', condition.name, ...values));
      }
    }
  });

  it('says which conditions a kind takes', () => {
    expect(problems(c('due_date', 'contains', 'x'))).toEqual([
      'criteria[0].criteria_condition: "contains" does not apply to date fields; allowed: is, is_not, less_than, less_than_or_equal, greater_than, greater_than_or_equal, before, after, between, not_between, today, yesterday, tomorrow, till_yesterday, overdue, today_overdue, this_week, last_week, next_week, next_7_days, ...',
    ]);
    expect(problems(c('name', 'like', 'x'))).toEqual([
      'criteria[0].criteria_condition: "like" is not a condition; text fields take: is, is_not, contains, not_contains, starts_with, ends_with, is_empty, is_not_empty',
    ]);
    expect(problems(c('cf_budget', 'today'))[0]).toMatch(/"today" does not apply to number fields/);
    expect(problems(c('status', 'deleted_users'))[0]).toMatch(/does not apply to status fields/);
    expect(problems(c('owner', 'all_open'))[0]).toMatch(/does not apply to user fields/);
  });

  it('points dates from is_empty to unscheduled', () => {
    expect(problems(c('due_date', 'is_empty'), c('created_time', 'is_empty'))).toEqual([
      'criteria[0].criteria_condition: "is_empty" does not apply to date fields; for dates use "unscheduled"',
      'criteria[1].criteria_condition: "is_empty" does not apply to date-time fields; for dates use "unscheduled"',
    ]);
    accepts(c('due_date', 'unscheduled'), c('due_date', 'is_not_empty'));
  });
});

describe('checkFilter: value counts', () => {
  it('only is and is_not take several values', () => {
    accepts(c('name', 'is', 'a', 'b', 'c'), c('name', 'is_not', 'a', 'b'));
    expect(problems(c('name', 'contains', 'a', 'b'))).toEqual([
      'criteria[0].value: "contains" needs exactly 1 value, got 2',
    ]);
    expect(problems(c('name', 'is'))).toEqual([
      'criteria[0].value: "is" needs at least 1 value, got 0',
    ]);
  });

  it('between and not_between need exactly 2 values, smaller first', () => {
    expect(problems(c('due_date', 'between', '2026-01-01'))).toEqual([
      'criteria[0].value: "between" needs exactly 2 values, got 1',
    ]);
    expect(problems(c('cf_budget', 'not_between', '1', '2', '3'))).toEqual([
      'criteria[0].value: "not_between" needs exactly 2 values, got 3',
    ]);
    expect(problems(c('cf_budget', 'between', '10', '9.5'))).toEqual([
      'criteria[0].value: "between" needs the smaller value first, got 10 then 9.5',
    ]);
    accepts(
      c('cf_budget', 'between', '-2', '-2'),
      c('due_date', 'between', '2026-01-31', '2026-02-01'),
    );
  });

  it('presets take no value', () => {
    expect(problems(c('due_date', 'today', '2026-01-01'))).toEqual([
      'criteria[0].value: "today" takes no value, got 1',
    ]);
    accepts({ field_name: 'status', criteria_condition: 'all_open', value: [] });
  });
});

describe('checkFilter: value formats per kind', () => {
  it('text and pick list: any non-empty text', () => {
    accepts(c('name', 'is', "'; DROP TABLE r; --"), c('priority', 'is', 'High'));
    expect(problems(c('name', 'contains', ''))).toEqual([
      'criteria[0].value[0]: is empty; to find empty fields use "is_empty"',
    ]);
    expect(problems(c('name', 'contains', 'a\u0000b'), c('priority', 'is', '\ud800'))).toEqual([
      'criteria[0].value[0]: contains a NUL character or a broken surrogate pair',
      'criteria[1].value[0]: contains a NUL character or a broken surrogate pair',
    ]);
  });

  it('number: a numeric string', () => {
    accepts(c('cf_budget', 'is', '0', '-1', '3.25', '.5', '12345678901234567'));
    expect(problems(c('cf_budget', 'is', '1e3', ' 1', '0x10', 'NaN', '1,5'))).toEqual(
      ['1e3', ' 1', '0x10', 'NaN', '1,5'].map(
        (v, i) =>
          `criteria[0].value[${i}]: ${JSON.stringify(v)} is not a number; use digits, e.g. "42" or "-3.5"`,
      ),
    );
    expect(problems(c('cf_budget', 'less_than', '9'.repeat(400)))[0]).toMatch(/is not a number/);
  });

  it('an empty value is "empty" whatever the kind, not a wrong number, date or id', () => {
    for (const field of ['cf_budget', 'due_date', 'status', 'owner', 'name']) {
      expect(problems(c(field, 'is', ''))).toEqual([
        'criteria[0].value[0]: is empty; to find empty fields use "is_empty"',
      ]);
    }
  });

  it('date and date-time: a real YYYY-MM-DD date', () => {
    accepts(c('due_date', 'is', '2024-02-29'), c('created_time', 'before', '0001-01-01'));
    expect(
      problems(
        c(
          'due_date',
          'is',
          '2026-02-29',
          '2026-13-01',
          '0000-01-01',
          '2026-1-5',
          '2026-01-05T00:00:00Z',
        ),
      ),
    ).toEqual([
      'criteria[0].value[0]: "2026-02-29" is not a real calendar date (years 0001-9999)',
      'criteria[0].value[1]: "2026-13-01" is not a real calendar date (years 0001-9999)',
      'criteria[0].value[2]: "0000-01-01" is not a real calendar date (years 0001-9999)',
      'criteria[0].value[3]: "2026-1-5" is not a date; use YYYY-MM-DD, e.g. "2026-01-31"',
      'criteria[0].value[4]: "2026-01-05T00:00:00Z" is not a date; use YYYY-MM-DD, e.g. "2026-01-31"',
    ]);
  });

  it('check box: true, false, 1 or 0', () => {
    accepts(c('has_parents', 'is', 'true'), c('has_parents', 'is_not', '0', '1', 'false'));
    expect(problems(c('has_parents', 'is', 'yes', 'TRUE'))).toEqual([
      'criteria[0].value[0]: "yes" is not a check box value; use true, false, 1 or 0',
      'criteria[0].value[1]: "TRUE" is not a check box value; use true, false, 1 or 0',
    ]);
  });

  it('status: numeric status id, or the preset tokens for custom_condition', () => {
    accepts(
      c('status', 'is', '1752000000000012'),
      c('status', 'custom_condition', '${ALL_OPEN}'),
      c('status', 'custom_condition', '${ALL_CLOSED}'),
    );
    expect(problems(c('status', 'is', 'Open'))).toEqual([
      'criteria[0].value[0]: "Open" is not a status id; use the status\'s numeric id',
    ]);
    expect(problems(c('status', 'custom_condition', 'ALL_OPEN'))).toEqual([
      'criteria[0].value[0]: "ALL_OPEN" is not allowed for "custom_condition"; use "${ALL_OPEN}" or "${ALL_CLOSED}"',
    ]);
  });

  it('user: a ZPUID', () => {
    accepts(c('owner', 'is', '60012345', 'u-7'), c('owner', 'subordinates_of', '60012345'));
    expect(
      problems(c('owner', 'is', 'Jane Doe'), c('owner', 'direct_reports_of', '1', '2')),
    ).toEqual([
      'criteria[0].value[0]: "Jane Doe" is not a ZPUID; use the user\'s ZPUID (no spaces, at most 64 characters)',
      'criteria[1].value: "direct_reports_of" needs exactly 1 value, got 2',
    ]);
  });

  it('multi pick list: numeric option ids', () => {
    accepts(c('tag', 'is', '101', '102'));
    expect(problems(c('tag', 'is', 'urgent'))).toEqual([
      'criteria[0].value[0]: "urgent" is not an option id; multi pick lists are filtered by numeric option id',
    ]);
  });
});

function sampleValue(kind: string): string {
  switch (kind) {
    case 'number':
      return '5';
    case 'date':
    case 'datetime':
      return '2026-01-01';
    case 'boolean':
      return 'true';
    case 'status':
    case 'user':
    case 'multipicklist':
      return '42';
    default:
      return 'x';
  }
}
