import { describe, expect, it } from 'vitest';
import { explainFilter } from '@portaldesk/portal-api/filter';
import { c, FIELDS, filterOf } from './fixtures';

describe('explainFilter', () => {
  it('reads like the filter, with labels and the pattern grouping', () => {
    expect(
      explainFilter(
        filterOf(
          [
            c('name', 'contains', 'foo'),
            c('status', 'all_open'),
            c('due_date', 'between', '2026-01-01', '2026-01-31'),
          ],
          '1 AND (2 OR 3)',
        ),
        FIELDS,
      ),
    ).toBe(
      'Name contains "foo" AND (Status is all open OR Due date is between 2026-01-01 and 2026-01-31)',
    );
  });

  it('parenthesises AND groups inside OR, as precedence reads them', () => {
    expect(
      explainFilter(
        filterOf(
          [c('cf_budget', 'less_than', '5'), c('has_parents', 'is', '1'), c('tag', 'is_empty')],
          '1 and 2 or 3',
        ),
        FIELDS,
      ),
    ).toBe('(Budget is less than 5 AND has_parents is true) OR Tags is empty');
  });

  it('phrases several values, presets and the custom_condition form', () => {
    const explain = (...criteria: Parameters<typeof c>) =>
      explainFilter(filterOf([c(...criteria)]), FIELDS);
    expect(explain('priority', 'is', 'High', 'Low')).toBe('Priority is any of "High", "Low"');
    expect(explain('priority', 'is_not', 'High', 'Low')).toBe('Priority is none of "High", "Low"');
    expect(explain('tag', 'is', '101', '102')).toBe('Tags includes any of 101, 102');
    expect(explain('tag', 'is_not', '101', '102')).toBe('Tags includes none of 101, 102');
    expect(explain('tag', 'is_not', '101')).toBe('Tags does not include 101');
    expect(explain('status', 'custom_condition', '${ALL_CLOSED}')).toBe('Status is all closed');
    expect(explain('created_time', 'next_7_days')).toBe('Created is in the next 7 days');
    expect(explain('created_time', 'before', '2026-02-01')).toBe('Created is before 2026-02-01');
    expect(explain('owner', 'subordinates_of', '6001')).toBe('Owner is a subordinate of 6001');
    expect(explain('owner', 'is_team_lead_only')).toBe('Owner is a team lead');
    expect(explain('due_date', 'unscheduled')).toBe('Due date is unscheduled');
    expect(explain('tasklist.name', 'starts_with', 'Sprint "7"')).toBe(
      'Task list starts with "Sprint \\"7\\""',
    );
  });

  it('names ids (statuses, people, options) when told their names, and keeps unknown ids', () => {
    const names: Record<string, string> = { '101': 'Critical', '6001': 'Maya Raman' };
    const explain = (...criteria: Parameters<typeof c>) =>
      explainFilter(filterOf([c(...criteria)]), FIELDS, (_field, value) => names[value]);
    expect(explain('tag', 'is_not', '101', '102')).toBe('Tags includes none of "Critical", 102');
    expect(explain('owner', 'subordinates_of', '6001')).toBe(
      'Owner is a subordinate of "Maya Raman"',
    );
    // Text is never looked up: a name that looks like an id stays the text it is.
    expect(explain('name', 'contains', '101')).toBe('Name contains "101"');
  });

  it('never throws while a filter is being edited', () => {
    expect(explainFilter(filterOf([c('milestone.title', 'sounds_like', 'x')]), FIELDS)).toBe(
      'milestone.title sounds like "x"',
    );
    expect(
      explainFilter(filterOf([c('name', 'is_empty'), c('owner', 'pending')], '1 AND ('), FIELDS),
    ).toBe('1: Name is empty; 2: Owner is a pending user');
  });
});
