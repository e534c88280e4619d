import { describe, expect, it } from 'vitest';
import { formatFilterErrors, parseFilter } from '@portaldesk/portal-api/filter';

function errorsOf(input: unknown): string[] {
  const result = parseFilter(input);
  if (result.ok) throw new Error('expected the filter to be refused');
  return formatFilterErrors(result.errors);
}

describe('parseFilter', () => {
  const valid = {
    criteria: [
      { field_name: 'name', criteria_condition: 'contains', value: ['foo'] },
      { field_name: 'status', criteria_condition: 'all_open' },
      { field_name: 'name', criteria_condition: 'is', value: ['x'], module_name: 'tasklist' },
    ],
    pattern: '(1 AND 2) OR 3',
  };

  it('accepts the query parameter as JSON text or as an object, and returns a clean copy', () => {
    const fromText = parseFilter(JSON.stringify(valid));
    const fromObject = parseFilter(valid);
    expect(fromText).toEqual({ ok: true, filter: valid });
    expect(fromObject).toEqual(fromText);
    if (fromObject.ok) {
      expect(fromObject.filter.criteria[0]?.value).not.toBe(valid.criteria[0]?.value);
    }
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(errorsOf('{criteria:')[0]).toMatch(/^filter: is not valid JSON \(/);
    expect(errorsOf('[1]')).toEqual([
      'filter: must be a JSON object with "criteria" and "pattern", got an array',
    ]);
    expect(errorsOf(null)).toEqual([
      'filter: must be a JSON object with "criteria" and "pattern", got null',
    ]);
    expect(errorsOf(42)).toEqual([
      'filter: must be a JSON object with "criteria" and "pattern", got a number',
    ]);
  });

  it('requires criteria and pattern', () => {
    expect(errorsOf({})).toEqual([
      'criteria: is required',
      'pattern: is required; write e.g. "1" or "(1 AND 2) OR 3"',
    ]);
    expect(errorsOf({ criteria: [], pattern: '1' })).toEqual([
      'criteria: needs at least one criterion',
    ]);
    expect(errorsOf({ criteria: {}, pattern: 1 })).toEqual([
      'criteria: must be an array, got an object',
      'pattern: must be a string, got a number',
    ]);
  });

  it('reports every problem of every criterion with its path', () => {
    const errors = errorsOf({
      criteria: [
        { field_name: '', criteria_condition: 'is', value: 'x' },
        { criteria_condition: 7, value: [1, true, 'ok'], module_name: null },
        'name contains foo',
        { field_name: 'name', criteria_condition: 'is', values: ['x'] },
      ],
      pattern: '1 AND 2 AND 3 AND 4',
      sort: 'name',
    });
    expect(errors).toEqual([
      'sort: is not a filter property; allowed: criteria, pattern',
      'criteria[0].field_name: must not be empty',
      'criteria[0].value: must be an array of strings, got a string',
      'criteria[1].field_name: is required',
      'criteria[1].criteria_condition: must be a string, got a number',
      'criteria[1].module_name: must be a string, got null',
      'criteria[1].value[0]: must be a string, got a number (write "1")',
      'criteria[1].value[1]: must be a string, got a boolean (write "true")',
      'criteria[2]: must be an object with field_name and criteria_condition, got a string',
      'criteria[3].values: is not a filter property; allowed: field_name, criteria_condition, value, module_name',
    ]);
  });

  it('checks the pattern against the number of criteria', () => {
    expect(errorsOf({ ...valid, pattern: '1 AND 4' })).toEqual([
      'pattern: criterion 4 does not exist; there are 3 criteria (use 1 to 3)',
      'pattern: criterion 2 is not used; every criterion must appear in the pattern',
      'pattern: criterion 3 is not used; every criterion must appear in the pattern',
    ]);
    expect(errorsOf({ ...valid, pattern: '1 AND' })).toEqual([
      'pattern: expected a criterion number or "(", found the end',
    ]);
  });

  it('enforces the limits on criteria and values', () => {
    const many = Array.from({ length: 101 }, () => ({
      field_name: 'name',
      criteria_condition: 'is_empty',
    }));
    expect(errorsOf({ criteria: many, pattern: '1' })[0]).toBe(
      'criteria: has 101 criteria; at most 100 are allowed',
    );
    const values = Array.from({ length: 501 }, (_, i) => String(i));
    expect(
      errorsOf({
        criteria: [{ field_name: 'owner', criteria_condition: 'is', value: values }],
        pattern: '1',
      }),
    ).toEqual(['criteria[0].value: has 501 values; at most 500 are allowed']);
  });
});
