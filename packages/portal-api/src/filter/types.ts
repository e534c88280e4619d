/**
 * The API's `filter` query parameter (spec 001, "Filter guide"), as data.
 *
 * The wire shape (`Filter`, `FilterCriterion`) is exactly what clients send; everything derived
 * from it (the pattern's syntax tree, the compiled predicate) lives in its own module.
 */

/** One criterion: which field, which condition, and its values (always strings on the wire). */
export interface FilterCriterion {
  /** API name; custom fields by `api_name`. */
  field_name: string;
  criteria_condition: string;
  /** Required for most conditions, omitted for presets (spec: "value (array of strings)"). */
  value?: string[];
  /** A related module (e.g. `tasklist`) whose field `field_name` names. */
  module_name?: string;
}

export interface Filter {
  criteria: FilterCriterion[];
  /** Criteria by 1-based index combined with AND, OR and parentheses, e.g. `(1 AND 2) OR 3`. */
  pattern: string;
}

/**
 * What a field's values are, which decides its conditions and value formats (spec: "Value
 * formats" and the condition groups).
 */
export type FieldKind =
  | 'text'
  | 'number'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'status'
  | 'user'
  | 'picklist'
  | 'multipicklist';

export const FIELD_KINDS: readonly FieldKind[] = [
  'text',
  'number',
  'date',
  'datetime',
  'boolean',
  'status',
  'user',
  'picklist',
  'multipicklist',
];

/** A filterable field. `module` is set for fields of a related module (addressed by module_name). */
export interface FilterField {
  name: string;
  kind: FieldKind;
  module?: string;
  /** Shown in explanations and the filter builder; `name` when absent. */
  label?: string;
}

/** One problem, written for a user: what is wrong and what is allowed. */
export interface FilterError {
  /** Where in the filter: `pattern`, `criteria[0].value[1]` (array positions are 0-based). */
  path: string;
  message: string;
}

/** Users the user conditions resolve against (all ids are ZPUIDs). */
export interface FilterUsers {
  deactivated?: string[];
  deleted?: string[];
  teamLeads?: string[];
  /** Invited users who have not accepted yet. */
  pending?: string[];
  accepted?: string[];
  /** ZPUID -> the users who report to them directly. */
  directReports?: Record<string, string[]>;
  /** ZPUID -> every user below them; derived from directReports when absent. */
  subordinates?: Record<string, string[]>;
}

/** Everything a filter's meaning depends on besides the filter itself. */
export interface FilterContext {
  /** The current instant, epoch milliseconds. */
  now: number;
  /** The portal's IANA time zone (portal details `timezone`): "today" is a day there. */
  timeZone: string;
  /**
   * First day of the week for this_week/last_week/next_week: 0 = Sunday, 1 = Monday ... 6 =
   * Saturday (`Date.prototype.getDay` numbering); 7 is also accepted as Sunday so ISO 8601
   * numbering (1 = Monday ... 7 = Sunday) means the same. The spec gives business_details
   * .week_start_day as an integer without its numbering. Default: 1 (Monday, as ISO 8601).
   */
  weekStartDay?: number;
  users?: FilterUsers;
}

/**
 * The key a field is bound and looked up by: `name` for the module's own fields, `module.name` for
 * a related module's field.
 */
export function fieldKey(field: { name: string; module?: string }): string {
  return field.module === undefined ? field.name : `${field.module}.${field.name}`;
}

/** The field key a criterion addresses. */
export function criterionFieldKey(criterion: FilterCriterion): string {
  return fieldKey({ name: criterion.field_name, module: criterion.module_name });
}
