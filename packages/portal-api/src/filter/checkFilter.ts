/**
 * Semantic checks of a structurally valid filter against the field catalog: the field exists
 * (within module_name's module when given), the condition applies to the field's kind, and the
 * values are there in the right number and format (spec, "Filter guide").
 */
import { ALL_CONDITION_NAMES, CONDITION_HINTS, findCondition, conditionsFor } from './conditions';
import type { ConditionSpec } from './conditions';
import { parseValue } from './values';
import { criterionFieldKey, fieldKey } from './types';
import type { Filter, FilterCriterion, FilterError, FilterField, FieldKind } from './types';

/** How many field names a message lists before it stops. */
const LISTED_NAMES = 20;

const KIND_NAMES: Record<FieldKind, string> = {
  text: 'text',
  number: 'number',
  date: 'date',
  datetime: 'date-time',
  boolean: 'check box',
  status: 'status',
  user: 'user',
  picklist: 'pick list',
  multipicklist: 'multi pick list',
};

function list(names: string[]): string {
  const shown = names.slice(0, LISTED_NAMES).join(', ');
  return names.length > LISTED_NAMES ? `${shown}, ...` : shown;
}

/** Looks fields up by key; also knows which related modules exist. */
export class FieldCatalog {
  private readonly byKey = new Map<string, FilterField>();

  constructor(readonly fields: readonly FilterField[]) {
    for (const field of fields) this.byKey.set(fieldKey(field), field);
  }

  get(criterion: FilterCriterion): FilterField | undefined {
    return this.byKey.get(criterionFieldKey(criterion));
  }

  namesIn(module: string | undefined): string[] {
    return this.fields.filter((f) => f.module === module).map((f) => f.name);
  }

  modules(): string[] {
    return [...new Set(this.fields.flatMap((f) => (f.module === undefined ? [] : [f.module])))];
  }
}

function fieldError(criterion: FilterCriterion, path: string, catalog: FieldCatalog): FilterError {
  const module = criterion.module_name;
  if (module !== undefined && !catalog.modules().includes(module)) {
    const modules = catalog.modules();
    return {
      path: `${path}.module_name`,
      message:
        modules.length === 0
          ? `"${module}" is not a related module; this module has no related-module fields`
          : `"${module}" is not a related module; related modules: ${list(modules)}`,
    };
  }
  const names = catalog.namesIn(module);
  return {
    path: `${path}.field_name`,
    message:
      module === undefined
        ? `"${criterion.field_name}" is not a filterable field; fields: ${list(names)}`
        : `"${criterion.field_name}" is not a field of module "${module}"; its fields: ${list(names)}`,
  };
}

function conditionError(field: FilterField, condition: string, path: string): FilterError {
  const kind = KIND_NAMES[field.kind];
  const allowed = list(conditionsFor(field.kind).map((c) => c.name));
  const hints = CONDITION_HINTS[field.kind];
  // Own keys only: `constructor` is a condition the user typed, not Object's.
  const hint = hints && Object.hasOwn(hints, condition) ? hints[condition] : undefined;
  const message = hint
    ? `"${condition}" does not apply to ${kind} fields; ${hint}`
    : ALL_CONDITION_NAMES.has(condition)
      ? `"${condition}" does not apply to ${kind} fields; allowed: ${allowed}`
      : `"${condition}" is not a condition; ${kind} fields take: ${allowed}`;
  return { path: `${path}.criteria_condition`, message };
}

function countError(condition: ConditionSpec, count: number): string | undefined {
  const name = `"${condition.name}"`;
  switch (condition.values) {
    case 'none':
      return count === 0 ? undefined : `${name} takes no value, got ${count}`;
    case 'one':
      return count === 1 ? undefined : `${name} needs exactly 1 value, got ${count}`;
    case 'two':
      return count === 2 ? undefined : `${name} needs exactly 2 values, got ${count}`;
    case 'many':
      return count >= 1 ? undefined : `${name} needs at least 1 value, got 0`;
  }
}

function checkValues(
  field: FilterField,
  condition: ConditionSpec,
  values: string[],
  path: string,
  errors: FilterError[],
): void {
  const countProblem = countError(condition, values.length);
  if (countProblem) {
    errors.push({ path: `${path}.value`, message: countProblem });
    return;
  }
  if (condition.choices) {
    values.forEach((value, i) => {
      if (!condition.choices?.includes(value)) {
        errors.push({
          path: `${path}.value[${i}]`,
          message: `${JSON.stringify(value)} is not allowed for "${condition.name}"; use ${condition.choices?.map((c) => `"${c}"`).join(' or ')}`,
        });
      }
    });
    return;
  }
  const parsed: (string | number)[] = [];
  values.forEach((value, i) => {
    const result = parseValue(field.kind, value);
    if (result.ok) parsed.push(result.value);
    else errors.push({ path: `${path}.value[${i}]`, message: result.message });
  });
  if (condition.values === 'two' && parsed.length === 2) {
    const [low, high] = parsed as [string | number, string | number];
    if (low > high) {
      errors.push({
        path: `${path}.value`,
        message: `"${condition.name}" needs the smaller value first, got ${values[0]} then ${values[1]}`,
      });
    }
  }
}

/**
 * Every semantic problem of `filter` against `fields`; empty when it can be compiled. Expects a
 * filter that passed parseFilter (it does not check the pattern).
 */
export function checkFilter(filter: Filter, fields: readonly FilterField[]): FilterError[] {
  const catalog = new FieldCatalog(fields);
  const errors: FilterError[] = [];
  filter.criteria.forEach((criterion, i) => {
    const path = `criteria[${i}]`;
    const field = catalog.get(criterion);
    if (!field) {
      errors.push(fieldError(criterion, path, catalog));
      return;
    }
    const condition = findCondition(field.kind, criterion.criteria_condition);
    if (!condition) {
      errors.push(conditionError(field, criterion.criteria_condition, path));
      return;
    }
    checkValues(field, condition, criterion.value ?? [], path, errors);
  });
  return errors;
}
