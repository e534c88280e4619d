import { describe, expect, it } from 'vitest';
import type { FilterField } from '@portaldesk/portal-api/filter';
import {
  addCriterion,
  checkDraft,
  draftFromFilter,
  draftToFilter,
  EMPTY_DRAFT,
  filterText,
  newCriterion,
  removeCriterion,
  setPattern,
  updateCriterion,
  valuesFor,
  type FilterDraft,
} from '../../../../src/renderer/src/features/filters/filterDraft';
import { filterPresets } from '../../../../src/renderer/src/features/filters/filterPresets';

export const FIELDS: FilterField[] = [
  { name: 'name', kind: 'text', label: 'Name' },
  { name: 'status', kind: 'status', label: 'Status' },
  { name: 'owner', kind: 'user', label: 'Owner' },
  { name: 'last_updated_time', kind: 'datetime', label: 'Last updated' },
  { name: 'cf_cost', kind: 'number', label: 'Cost' },
  { name: 'cf_due', kind: 'date', label: 'Due' },
  { name: 'cf_insured', kind: 'boolean', label: 'Insured' },
  { name: 'cf_category', kind: 'picklist', label: 'Category' },
  { name: 'cf_tags', kind: 'multipicklist', label: 'Tags' },
];

const draftOf = (...criteria: FilterDraft['criteria']): FilterDraft =>
  criteria.reduce((draft, c) => addCriterion(draft, c), EMPTY_DRAFT);

describe('filter draft', () => {
  it('ANDs new criteria until the pattern is edited, then appends to it', () => {
    let draft = draftOf(
      { field: 'name', condition: 'contains', values: ['dell'] },
      { field: 'status', condition: 'all_open', values: [] },
    );
    expect(draft.pattern).toBe('1 AND 2');
    draft = setPattern(draft, '1 OR 2');
    draft = addCriterion(draft, { field: 'cf_cost', condition: 'greater_than', values: ['5'] });
    expect(draft.pattern).toBe('(1 OR 2) AND 3');
    expect(checkDraft(draft, FIELDS).ok).toBe(true);
  });

  it('renumbers an edited pattern when a criterion is removed', () => {
    const draft = setPattern(
      draftOf(
        { field: 'name', condition: 'contains', values: ['a'] },
        { field: 'name', condition: 'contains', values: ['b'] },
        { field: 'name', condition: 'contains', values: ['c'] },
      ),
      '(1 AND 2) OR 3',
    );
    expect(removeCriterion(draft, 1).pattern).toBe('1 OR 2');
    expect(removeCriterion(draft, 2).pattern).toBe('1 AND 2');
    expect(removeCriterion(removeCriterion(removeCriterion(draft, 0), 0), 0)).toEqual(EMPTY_DRAFT);
    // A pattern that does not parse cannot be renumbered: it starts again from AND.
    expect(removeCriterion(setPattern(draft, '(1 AND'), 0).pattern).toBe('1 AND 2');
  });

  it('gives each condition the number of values it takes', () => {
    expect(valuesFor('number', 'between', ['3'])).toEqual(['3', '']);
    expect(valuesFor('date', 'today', ['2026-01-01'])).toEqual([]);
    expect(valuesFor('text', 'contains', ['a', 'b'])).toEqual(['a']);
    expect(valuesFor('status', 'is', [])).toEqual(['']);
    expect(valuesFor('status', 'custom_condition', [])).toEqual(['${ALL_OPEN}']);
  });

  it('starts over when the field changes and keeps values that fit a new condition', () => {
    const draft = draftOf({ field: 'cf_cost', condition: 'greater_than', values: ['5'] });
    const between = updateCriterion(draft, 0, { condition: 'between' }, FIELDS);
    expect(between.criteria[0]).toEqual({
      field: 'cf_cost',
      condition: 'between',
      values: ['5', ''],
    });
    const status = updateCriterion(draft, 0, { field: 'status' }, FIELDS);
    expect(status.criteria[0]).toEqual(newCriterion(FIELDS[1]!));
  });

  it("writes the API's filter value: presets without a value array", () => {
    const draft = draftOf(
      { field: 'status', condition: 'all_open', values: [] },
      { field: 'cf_due', condition: 'between', values: ['2026-01-01', '2026-01-31'] },
    );
    expect(draftToFilter(draft, FIELDS)).toEqual({
      criteria: [
        { field_name: 'status', criteria_condition: 'all_open' },
        {
          field_name: 'cf_due',
          criteria_condition: 'between',
          value: ['2026-01-01', '2026-01-31'],
        },
      ],
      pattern: '1 AND 2',
    });
    expect(filterText(EMPTY_DRAFT, FIELDS)).toBeUndefined();
    expect(draftFromFilter(draftToFilter(draft, FIELDS)!)).toEqual(draft);
  });

  it('places each problem at its criterion, value or pattern, in words', () => {
    const draft = setPattern(
      draftOf(
        { field: 'cf_cost', condition: 'between', values: ['10', 'x'] },
        { field: 'cf_due', condition: 'is', values: ['31-01-2026'] },
      ),
      '1 AND 3',
    );
    let problems = checkDraft(draft, FIELDS);
    expect(problems.ok).toBe(false);
    expect(problems.pattern.join(' ')).toMatch(/3/);

    problems = checkDraft(setPattern(draft, '1 AND 2'), FIELDS);
    expect(problems.pattern).toEqual([]);
    expect(problems.criteria.get(0)?.join(' ')).toMatch(/^Second value "x" is not a number/);
    expect(problems.criteria.get(1)?.join(' ')).toMatch(/not a date; use YYYY-MM-DD/);

    const reversed = draftOf({ field: 'cf_cost', condition: 'between', values: ['9', '1'] });
    expect(checkDraft(reversed, FIELDS).criteria.get(0)?.join(' ')).toMatch(/smaller value first/);
    const empty = draftOf({ field: 'name', condition: 'is', values: [''] });
    expect(checkDraft(empty, FIELDS).criteria.get(0)?.join(' ')).toMatch(/is empty/);
  });

  it.each([
    ['(1 AND 2', /parenthes|the end/i],
    ['1 AND', /the end/],
    ['1 XOR 2', /unknown word "XOR"/],
    ['1', /criterion 2|every criterion|2/i],
    ['1 AND 2 AND 3', /3/],
  ])('explains the pattern %s in place', (pattern, message) => {
    const draft = setPattern(
      draftOf(
        { field: 'name', condition: 'contains', values: ['a'] },
        { field: 'name', condition: 'contains', values: ['b'] },
      ),
      pattern,
    );
    const problems = checkDraft(draft, FIELDS);
    expect(problems.ok).toBe(false);
    expect(problems.pattern.join(' ')).toMatch(message);
  });

  it('offers status and date presets as ordinary criteria', () => {
    const presets = filterPresets(FIELDS);
    const labels = presets.map((p) => p.label);
    expect(labels).toContain('Status is open');
    expect(labels).toContain('Due overdue');
    expect(labels).toContain('Last updated this week');
    expect(labels).not.toContain('Last updated overdue');
    for (const preset of presets) {
      expect(checkDraft(addCriterion(EMPTY_DRAFT, preset.criterion), FIELDS).ok).toBe(true);
    }
  });
});
