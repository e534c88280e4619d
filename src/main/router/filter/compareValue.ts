import {
  findComparator,
  parseDateOperand,
  type FilterCondition,
  type ValueType,
} from '../../../shared/ipc/areas/router';
import { daysFromCivil } from '@portaldesk/portal-api/filter/civilDate';
import {
  DEFAULT_WEEK_START_DAY,
  presetDays,
  type DayRange,
} from '@portaldesk/portal-api/filter/datePresets';
import { localDay, startOfDay } from '@portaldesk/portal-api/filter/timeZone';

/** What a date comparator needs to know about "now": the sandbox's (virtual) time and zone. */
export interface CompareContext {
  nowMs: number;
  timeZone: string;
}

export interface Comparison {
  matched: boolean;
  /** Why, when the value itself decided it (missing, wrong type); null otherwise. */
  note: string | null;
}

type Operand = string | number | boolean;

/** Negated comparators are the exact negation of their positive twin, missing values included. */
const NEGATIONS: Record<string, string> = {
  is_not: 'is',
  not_contains: 'contains',
  neq: 'eq',
  not_between: 'between',
  is_not_empty: 'is_empty',
};

const DATE_PRESET_FOR: Record<string, Parameters<typeof presetDays>[0] | 'tomorrow_onwards'> = {
  today: 'today',
  tomorrow: 'tomorrow',
  tomorrow_onwards: 'tomorrow_onwards',
  yesterday: 'yesterday',
  till_yesterday: 'till_yesterday',
  last_week: 'last_week',
  current_week: 'this_week',
  next_week: 'next_week',
  last_month: 'last_month',
  current_month: 'this_month',
  next_month: 'next_month',
};

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '';

const yes: Comparison = { matched: true, note: null };
const no: Comparison = { matched: false, note: null };
const noBecause = (note: string): Comparison => ({ matched: false, note });

/** Epoch ms of a data value that is a date-time (ISO 8601 text or epoch ms), or null. */
export function instantOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const parsed = parseDateOperand(value);
  if (!parsed) return null;
  return parsed.kind === 'instant'
    ? parsed.ms
    : daysFromCivil(parsed.year, parsed.month, parsed.day) * 86_400_000;
}

/**
 * A bound as a half-open instant range: a bare date covers its whole local day in the account's
 * zone, a date-time or epoch ms is that instant.
 */
function operandRange(operand: Operand, context: CompareContext): { from: number; to: number } {
  if (typeof operand === 'number') return { from: operand, to: operand + 1 };
  const parsed = parseDateOperand(String(operand));
  if (!parsed) throw new Error(`"${String(operand)}" is not a date`);
  if (parsed.kind === 'instant') return { from: parsed.ms, to: parsed.ms + 1 };
  const day = daysFromCivil(parsed.year, parsed.month, parsed.day);
  return { from: startOfDay(day, context.timeZone), to: startOfDay(day + 1, context.timeZone) };
}

function dayRangeInstants(range: DayRange, timeZone: string): { from: number; to: number } {
  return {
    from: range.from === undefined ? -Infinity : startOfDay(range.from, timeZone),
    to: range.to === undefined ? Infinity : startOfDay(range.to + 1, timeZone),
  };
}

function compareString(
  comparator: string,
  actual: unknown,
  operand: Operand | undefined,
): Comparison {
  if (comparator === 'is_empty') return isEmpty(actual) ? yes : no;
  if (isEmpty(actual)) return noBecause('the value is empty');
  if (typeof actual !== 'string') return noBecause(`the value is a ${typeof actual}, not text`);
  const expected = String(operand);
  switch (comparator) {
    case 'is':
      return actual === expected ? yes : no;
    case 'contains':
      return actual.includes(expected) ? yes : no;
    case 'starts_with':
      return actual.startsWith(expected) ? yes : no;
    case 'ends_with':
      return actual.endsWith(expected) ? yes : no;
  }
  throw new Error(`Unknown string comparator ${comparator}`);
}

function compareNumber(comparator: string, actual: unknown, operand: unknown): Comparison {
  if (comparator === 'is_empty') return isEmpty(actual) ? yes : no;
  if (isEmpty(actual)) return noBecause('the value is empty');
  if (typeof actual !== 'number' || !Number.isFinite(actual)) {
    return noBecause(`the value is a ${typeof actual}, not a number`);
  }
  const [a, b] = Array.isArray(operand) ? (operand as number[]) : [operand as number, NaN];
  switch (comparator) {
    case 'eq':
      return actual === a ? yes : no;
    case 'lt':
      return actual < (a as number) ? yes : no;
    case 'lte':
      return actual <= (a as number) ? yes : no;
    case 'gt':
      return actual > (a as number) ? yes : no;
    case 'gte':
      return actual >= (a as number) ? yes : no;
    case 'between': {
      const [low, high] = (a as number) <= (b as number) ? [a, b] : [b, a];
      return actual >= (low as number) && actual <= (high as number) ? yes : no;
    }
  }
  throw new Error(`Unknown number comparator ${comparator}`);
}

function compareBoolean(comparator: string, actual: unknown, operand: unknown): Comparison {
  if (comparator !== 'is') throw new Error(`Unknown boolean comparator ${comparator}`);
  if (isEmpty(actual)) return noBecause('the value is empty');
  if (typeof actual !== 'boolean')
    return noBecause(`the value is a ${typeof actual}, not true/false`);
  return actual === operand ? yes : no;
}

function compareDate(
  comparator: string,
  actual: unknown,
  operand: unknown,
  context: CompareContext,
): Comparison {
  if (comparator === 'is_empty') return isEmpty(actual) ? yes : no;
  if (isEmpty(actual)) return noBecause('the value is empty');
  const instant = instantOf(actual);
  if (instant === null) return noBecause('the value is not a date-time');
  const preset = DATE_PRESET_FOR[comparator];
  if (preset) {
    const today = localDay(context.nowMs, context.timeZone);
    const days =
      preset === 'tomorrow_onwards'
        ? { from: today + 1 }
        : presetDays(preset, today, DEFAULT_WEEK_START_DAY);
    const range = dayRangeInstants(days, context.timeZone);
    return instant >= range.from && instant < range.to ? yes : no;
  }
  switch (comparator) {
    case 'is': {
      const range = operandRange(operand as Operand, context);
      return instant >= range.from && instant < range.to ? yes : no;
    }
    case 'before':
      return instant < operandRange(operand as Operand, context).from ? yes : no;
    case 'after':
      return instant >= operandRange(operand as Operand, context).to ? yes : no;
    case 'between': {
      let [low, high] = (operand as Operand[]).map((bound) => operandRange(bound, context));
      if (low!.from > high!.from) [low, high] = [high, low];
      return instant >= low!.from && instant < high!.to ? yes : no;
    }
  }
  throw new Error(`Unknown date-time comparator ${comparator}`);
}

/**
 * Applies one condition's comparator to the value found in the data (spec: the comparators the
 * real service documents per type). Text comparisons are case-sensitive; a value of the wrong type
 * never matches a positive comparator.
 */
export function compareValue(
  type: ValueType,
  comparator: string,
  actual: unknown,
  operand: FilterCondition['value'],
  context: CompareContext,
): Comparison {
  if (!findComparator(type, comparator)) {
    throw new Error(`"${comparator}" is not a ${type} comparator.`);
  }
  const positive = NEGATIONS[comparator];
  if (positive && findComparator(type, positive)) {
    const result = compareValue(type, positive, actual, operand, context);
    return { matched: !result.matched, note: result.note };
  }
  switch (type) {
    case 'string':
      return compareString(comparator, actual, operand as Operand | undefined);
    case 'number':
      return compareNumber(comparator, actual, operand);
    case 'boolean':
      return compareBoolean(comparator, actual, operand);
    case 'datetime':
      return compareDate(comparator, actual, operand, context);
  }
}
