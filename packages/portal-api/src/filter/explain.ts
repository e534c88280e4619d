/**
 * A filter in words, for people: `Name contains "foo" AND (Status is all open OR Due date is
 * between 2026-01-01 and 2026-01-31)`. Uses field labels when the catalog gives them.
 *
 * It never throws, so a filter builder can show it while the filter is still being edited:
 * unknown fields and conditions are shown by name, and a pattern that does not parse yields the
 * criteria one by one (`1: ...; 2: ...`) instead of a combination.
 *
 * Statuses, people and multi-select options are ids in the filter; `valueLabel` names them
 * (quoted, like text) when the caller knows them.
 */
import { FieldCatalog } from './checkFilter';
import { ALL_CLOSED_TOKEN, ALL_OPEN_TOKEN, findCondition } from './conditions';
import { formatGroup, parsePattern } from './pattern';
import type { Filter, FilterCriterion, FilterField } from './types';
import { parseBoolean } from './values';

const NEGATED_LIST: Record<string, string> = {
  'is not': 'is none of',
  'does not include': 'includes none of',
};

const STATUS_TOKENS: Record<string, string> = {
  [ALL_OPEN_TOKEN]: 'is all open',
  [ALL_CLOSED_TOKEN]: 'is all closed',
};

/** The display name of a value that is an id (a status, a person, an option), if known. */
export type ValueLabel = (field: FilterField, value: string) => string | undefined;

function formatValue(
  field: FilterField | undefined,
  value: string,
  valueLabel: ValueLabel | undefined,
): string {
  switch (field?.kind) {
    case 'status':
    case 'user':
    case 'multipicklist': {
      const label = valueLabel?.(field, value);
      return label === undefined ? value : JSON.stringify(label);
    }
    case 'number':
    case 'date':
    case 'datetime':
      return value;
    case 'boolean': {
      const flag = parseBoolean(value);
      return flag === null ? JSON.stringify(value) : flag === 1 ? 'true' : 'false';
    }
    default:
      return JSON.stringify(value);
  }
}

function explainCriterion(
  criterion: FilterCriterion,
  catalog: FieldCatalog,
  valueLabel: ValueLabel | undefined,
): string {
  const field = catalog.get(criterion);
  const name =
    field?.label ??
    (criterion.module_name === undefined
      ? criterion.field_name
      : `${criterion.module_name}.${criterion.field_name}`);
  const conditionName = criterion.criteria_condition;
  const condition = field ? findCondition(field.kind, conditionName) : undefined;
  const label = condition?.label ?? conditionName.replaceAll('_', ' ');
  const values = (criterion.value ?? []).map((value) => formatValue(field, value, valueLabel));

  if (conditionName === 'custom_condition' && field?.kind === 'status') {
    const token = criterion.value?.[0] ?? '';
    return `${name} ${STATUS_TOKENS[token] ?? `is ${JSON.stringify(token)}`}`;
  }
  if (values.length === 0) return `${name} ${label}`;
  if (condition?.values === 'two' && values.length === 2) {
    return `${name} ${label} ${values[0]} and ${values[1]}`;
  }
  if (values.length > 1 && conditionName === 'is') {
    return `${name} ${label} any of ${values.join(', ')}`;
  }
  if (values.length > 1 && conditionName === 'is_not') {
    return `${name} ${NEGATED_LIST[label] ?? `${label} any of`} ${values.join(', ')}`;
  }
  return `${name} ${label} ${values.join(', ')}`;
}

export function explainFilter(
  filter: Filter,
  fields: readonly FilterField[],
  valueLabel?: ValueLabel,
): string {
  const catalog = new FieldCatalog(fields);
  const criteria = Array.isArray(filter.criteria) ? filter.criteria : [];
  const parts = criteria.map((criterion) => explainCriterion(criterion, catalog, valueLabel));
  const pattern =
    typeof filter.pattern === 'string' ? parsePattern(filter.pattern, parts.length) : undefined;
  if (pattern?.ok) return formatGroup(pattern.tree, (index) => parts[index - 1] as string);
  return parts.map((part, i) => `${i + 1}: ${part}`).join('; ');
}
