/**
 * Structural checks of a `filter` (spec, "Filter guide"): the shapes of criteria and pattern, the
 * pattern's syntax and its indexes. Whether the fields and conditions exist is checkFilter's job.
 *
 * Our choices where the spec is silent: unknown keys are refused (a misspelt `values` would
 * otherwise be ignored and the criterion would read as having no value); value items must be
 * strings as the spec says ("array of strings"), not numbers or booleans.
 */
import { MAX_CRITERIA, MAX_VALUES_PER_CRITERION } from './limits';
import { parsePattern } from './pattern';
import type { Filter, FilterCriterion, FilterError } from './types';

export type ParseFilterResult = { ok: true; filter: Filter } | { ok: false; errors: FilterError[] };

const FILTER_KEYS = ['criteria', 'pattern'];
const CRITERION_KEYS = ['field_name', 'criteria_condition', 'value', 'module_name'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function unknownKeys(
  value: Record<string, unknown>,
  allowed: string[],
  path: string,
  errors: FilterError[],
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      errors.push({
        path: path ? `${path}.${key}` : key,
        message: `is not a filter property; allowed: ${allowed.join(', ')}`,
      });
    }
  }
}

function requiredString(
  value: Record<string, unknown>,
  key: string,
  path: string,
  errors: FilterError[],
): string | undefined {
  const item = value[key];
  if (typeof item === 'string' && item.trim() !== '') return item;
  errors.push({
    path: `${path}.${key}`,
    message:
      item === undefined
        ? 'is required'
        : typeof item === 'string'
          ? 'must not be empty'
          : `must be a string, got ${typeName(item)}`,
  });
  return undefined;
}

function parseCriterion(
  input: unknown,
  path: string,
  errors: FilterError[],
): FilterCriterion | undefined {
  if (!isRecord(input)) {
    errors.push({
      path,
      message: `must be an object with field_name and criteria_condition, got ${typeName(input)}`,
    });
    return undefined;
  }
  const before = errors.length;
  unknownKeys(input, CRITERION_KEYS, path, errors);
  const fieldName = requiredString(input, 'field_name', path, errors);
  const condition = requiredString(input, 'criteria_condition', path, errors);
  const criterion: FilterCriterion = {
    field_name: fieldName ?? '',
    criteria_condition: condition ?? '',
  };

  if (input.module_name !== undefined) {
    const moduleName = requiredString(input, 'module_name', path, errors);
    if (moduleName !== undefined) criterion.module_name = moduleName;
  }

  if (input.value !== undefined) {
    const value = input.value;
    if (!Array.isArray(value)) {
      errors.push({
        path: `${path}.value`,
        message: `must be an array of strings, got ${typeName(value)}`,
      });
    } else if (value.length > MAX_VALUES_PER_CRITERION) {
      errors.push({
        path: `${path}.value`,
        message: `has ${value.length} values; at most ${MAX_VALUES_PER_CRITERION} are allowed`,
      });
    } else {
      value.forEach((item, i) => {
        if (typeof item !== 'string') {
          errors.push({
            path: `${path}.value[${i}]`,
            message: `must be a string, got ${typeName(item)}${typeof item === 'number' || typeof item === 'boolean' ? ` (write "${String(item)}")` : ''}`,
          });
        }
      });
      criterion.value = [...(value as string[])];
    }
  }
  return errors.length === before ? criterion : undefined;
}

/**
 * Reads a filter from the query parameter's JSON text or an already parsed object. Returns a
 * clean copy (only the known properties) or every structural problem found.
 */
export function parseFilter(input: unknown): ParseFilterResult {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      const detail = error instanceof Error ? ` (${error.message})` : '';
      return {
        ok: false,
        errors: [{ path: 'filter', message: `is not valid JSON${detail}` }],
      };
    }
  }
  if (!isRecord(value)) {
    return {
      ok: false,
      errors: [
        {
          path: 'filter',
          message: `must be a JSON object with "criteria" and "pattern", got ${typeName(value)}`,
        },
      ],
    };
  }

  const errors: FilterError[] = [];
  unknownKeys(value, FILTER_KEYS, '', errors);

  const criteria: FilterCriterion[] = [];
  let criteriaOk = false;
  if (value.criteria === undefined) {
    errors.push({ path: 'criteria', message: 'is required' });
  } else if (!Array.isArray(value.criteria)) {
    errors.push({ path: 'criteria', message: `must be an array, got ${typeName(value.criteria)}` });
  } else if (value.criteria.length === 0) {
    errors.push({ path: 'criteria', message: 'needs at least one criterion' });
  } else if (value.criteria.length > MAX_CRITERIA) {
    errors.push({
      path: 'criteria',
      message: `has ${value.criteria.length} criteria; at most ${MAX_CRITERIA} are allowed`,
    });
  } else {
    const before = errors.length;
    value.criteria.forEach((item: unknown, i: number) => {
      const criterion = parseCriterion(item, `criteria[${i}]`, errors);
      if (criterion) criteria.push(criterion);
    });
    criteriaOk = errors.length === before;
  }

  let pattern: string | undefined;
  if (value.pattern === undefined) {
    errors.push({ path: 'pattern', message: 'is required; write e.g. "1" or "(1 AND 2) OR 3"' });
  } else if (typeof value.pattern !== 'string') {
    errors.push({ path: 'pattern', message: `must be a string, got ${typeName(value.pattern)}` });
  } else {
    pattern = value.pattern;
    // Index checks need the number of criteria, which is only known when the array is valid.
    if (Array.isArray(value.criteria) && value.criteria.length > 0) {
      const result = parsePattern(pattern, value.criteria.length);
      if (!result.ok) errors.push(...result.errors);
    }
  }

  if (errors.length > 0 || !criteriaOk || pattern === undefined) return { ok: false, errors };
  return { ok: true, filter: { criteria, pattern } };
}
