/**
 * Which conditions each kind of field takes, and how many values each needs (spec, "Filter
 * guide": the condition groups, and "Only `is` and `is_not` accept several values").
 *
 * Our reading where the spec leaves room:
 * - `before`/`after` (from the overview list) apply to dates and date-times only, as aliases of
 *   `less_than`/`greater_than`.
 * - `is_empty` is refused on dates in favour of `unscheduled` ("for dates use unscheduled");
 *   `is_not_empty` is allowed everywhere, dates included, since nothing else says "has a date".
 * - `is_empty`/`is_not_empty` apply to every other kind.
 * - Pick lists (one option, by display name) and multi pick lists (option ids) take `is`/`is_not`
 *   and the empty checks; text matching (`contains` ...) is for text fields only.
 * - The restriction of date presets to some modules and status presets to others is the field
 *   catalog's business: a module that does not offer such a field simply has none in its catalog.
 */
import type { FieldKind } from './types';

/** How many values a condition takes: none (a preset), exactly one, one or more, exactly two. */
export type ValueArity = 'none' | 'one' | 'many' | 'two';

export interface ConditionSpec {
  /** As sent in `criteria_condition`. */
  readonly name: string;
  /** For people: the filter builder's menu and explainFilter. */
  readonly label: string;
  readonly values: ValueArity;
  /** Another name for the same condition (a builder may hide it). */
  readonly aliasOf?: string;
  /** The only values allowed, when there is a fixed set. */
  readonly choices?: readonly string[];
}

/** custom_condition values for the status presets (spec: `${ALL_OPEN}` or `${ALL_CLOSED}`). */
export const ALL_OPEN_TOKEN = '${ALL_OPEN}';
export const ALL_CLOSED_TOKEN = '${ALL_CLOSED}';

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'tomorrow',
  'till_yesterday',
  'overdue',
  'today_overdue',
  'this_week',
  'last_week',
  'next_week',
  'next_7_days',
  'this_month',
  'last_month',
  'next_month',
  'next_30_days',
  'unscheduled',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const USER_PRESETS = [
  'deactivated_users',
  'deleted_users',
  'is_team_lead_only',
  'pending',
  'accepted',
] as const;
export type UserPreset = (typeof USER_PRESETS)[number];

function spec(name: string, label: string, values: ValueArity, extra = {}): ConditionSpec {
  return Object.freeze({ name, label, values, ...extra });
}

const IS = spec('is', 'is', 'many');
const IS_NOT = spec('is_not', 'is not', 'many');
const IS_EMPTY = spec('is_empty', 'is empty', 'none');
const IS_NOT_EMPTY = spec('is_not_empty', 'is not empty', 'none');
const BETWEEN = spec('between', 'is between', 'two');
const NOT_BETWEEN = spec('not_between', 'is not between', 'two');

const TEXT: readonly ConditionSpec[] = [
  IS,
  IS_NOT,
  spec('contains', 'contains', 'one'),
  spec('not_contains', 'does not contain', 'one'),
  spec('starts_with', 'starts with', 'one'),
  spec('ends_with', 'ends with', 'one'),
  IS_EMPTY,
  IS_NOT_EMPTY,
];

const NUMBER: readonly ConditionSpec[] = [
  IS,
  IS_NOT,
  spec('less_than', 'is less than', 'one'),
  spec('less_than_or_equal', 'is at most', 'one'),
  spec('greater_than', 'is greater than', 'one'),
  spec('greater_than_or_equal', 'is at least', 'one'),
  BETWEEN,
  NOT_BETWEEN,
  IS_EMPTY,
  IS_NOT_EMPTY,
];

const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  today: 'is today',
  yesterday: 'is yesterday',
  tomorrow: 'is tomorrow',
  till_yesterday: 'is until yesterday',
  overdue: 'is overdue',
  today_overdue: 'is today or overdue',
  this_week: 'is this week',
  last_week: 'is last week',
  next_week: 'is next week',
  next_7_days: 'is in the next 7 days',
  this_month: 'is this month',
  last_month: 'is last month',
  next_month: 'is next month',
  next_30_days: 'is in the next 30 days',
  unscheduled: 'is unscheduled',
};

const DATE: readonly ConditionSpec[] = [
  IS,
  IS_NOT,
  spec('less_than', 'is before', 'one'),
  spec('less_than_or_equal', 'is on or before', 'one'),
  spec('greater_than', 'is after', 'one'),
  spec('greater_than_or_equal', 'is on or after', 'one'),
  spec('before', 'is before', 'one', { aliasOf: 'less_than' }),
  spec('after', 'is after', 'one', { aliasOf: 'greater_than' }),
  BETWEEN,
  NOT_BETWEEN,
  ...DATE_PRESETS.map((preset) => spec(preset, DATE_PRESET_LABELS[preset], 'none')),
  IS_NOT_EMPTY,
];

const BOOLEAN: readonly ConditionSpec[] = [IS, IS_NOT, IS_EMPTY, IS_NOT_EMPTY];

const STATUS: readonly ConditionSpec[] = [
  IS,
  IS_NOT,
  spec('all_open', 'is all open', 'none'),
  spec('all_closed', 'is all closed', 'none'),
  spec('custom_condition', 'is the preset', 'one', {
    choices: Object.freeze([ALL_OPEN_TOKEN, ALL_CLOSED_TOKEN]),
  }),
  IS_EMPTY,
  IS_NOT_EMPTY,
];

const USER_PRESET_LABELS: Record<UserPreset, string> = {
  deactivated_users: 'is a deactivated user',
  deleted_users: 'is a deleted user',
  is_team_lead_only: 'is a team lead',
  pending: 'is a pending user',
  accepted: 'is an accepted user',
};

const USER: readonly ConditionSpec[] = [
  IS,
  IS_NOT,
  spec('direct_reports_of', 'is a direct report of', 'one'),
  spec('subordinates_of', 'is a subordinate of', 'one'),
  ...USER_PRESETS.map((preset) => spec(preset, USER_PRESET_LABELS[preset], 'none')),
  IS_EMPTY,
  IS_NOT_EMPTY,
];

const PICKLIST: readonly ConditionSpec[] = [IS, IS_NOT, IS_EMPTY, IS_NOT_EMPTY];

const MULTIPICKLIST: readonly ConditionSpec[] = [
  spec('is', 'includes', 'many'),
  spec('is_not', 'does not include', 'many'),
  IS_EMPTY,
  IS_NOT_EMPTY,
];

const BY_KIND: Record<FieldKind, readonly ConditionSpec[]> = {
  text: Object.freeze(TEXT),
  number: Object.freeze(NUMBER),
  date: Object.freeze(DATE),
  datetime: Object.freeze(DATE),
  boolean: Object.freeze(BOOLEAN),
  status: Object.freeze(STATUS),
  user: Object.freeze(USER),
  picklist: Object.freeze(PICKLIST),
  multipicklist: Object.freeze(MULTIPICKLIST),
};

/** The conditions a field of this kind takes, in the order a filter builder lists them. */
export function conditionsFor(kind: FieldKind): readonly ConditionSpec[] {
  return BY_KIND[kind];
}

/** The condition named `name` for this kind, or undefined when the kind does not take it. */
export function findCondition(kind: FieldKind, name: string): ConditionSpec | undefined {
  return BY_KIND[kind].find((condition) => condition.name === name);
}

/** Every condition name of any kind (to tell "unknown" from "not for this kind"). */
export const ALL_CONDITION_NAMES: ReadonlySet<string> = new Set(
  Object.values(BY_KIND).flatMap((list) => list.map((condition) => condition.name)),
);

/** Conditions refused for a kind with a pointer to the one to use instead. */
export const CONDITION_HINTS: Partial<Record<FieldKind, Record<string, string>>> = {
  date: { is_empty: 'for dates use "unscheduled"' },
  datetime: { is_empty: 'for dates use "unscheduled"' },
};
