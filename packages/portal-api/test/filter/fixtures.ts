import type { Filter, FilterCriterion, FilterField } from '@portaldesk/portal-api/filter';

/** One field of every kind, plus a related module's field with the same name as a main one. */
export const FIELDS: FilterField[] = [
  { name: 'name', kind: 'text', label: 'Name' },
  { name: 'cf_budget', kind: 'number', label: 'Budget' },
  { name: 'due_date', kind: 'date', label: 'Due date' },
  { name: 'created_time', kind: 'datetime', label: 'Created' },
  { name: 'has_parents', kind: 'boolean' },
  { name: 'status', kind: 'status', label: 'Status' },
  { name: 'owner', kind: 'user', label: 'Owner' },
  { name: 'priority', kind: 'picklist', label: 'Priority' },
  { name: 'tag', kind: 'multipicklist', label: 'Tags' },
  { name: 'name', kind: 'text', module: 'tasklist', label: 'Task list' },
];

/** A filter of these criteria, all ANDed unless a pattern is given. */
export function filterOf(criteria: FilterCriterion[], pattern?: string): Filter {
  return { criteria, pattern: pattern ?? criteria.map((_, i) => String(i + 1)).join(' AND ') };
}

/** A criterion: field, condition, values (`module.field` names a related module's field). */
export function c(field: string, condition: string, ...value: string[]): FilterCriterion {
  const dot = field.indexOf('.');
  const criterion: FilterCriterion =
    dot === -1
      ? { field_name: field, criteria_condition: condition }
      : {
          module_name: field.slice(0, dot),
          field_name: field.slice(dot + 1),
          criteria_condition: condition,
        };
  if (value.length > 0) criterion.value = value;
  return criterion;
}

/** Epoch ms of an ISO instant. */
export function at(iso: string): number {
  return Date.parse(iso);
}
