/**
 * Compiles a filter into a Predicate (see predicate.ts), resolving everything that depends on the
 * context: date presets to concrete ranges in the portal's time zone, user presets and
 * direct_reports_of/subordinates_of to explicit ZPUID sets, status presets to the closed flag,
 * text needles to their folded form.
 *
 * Throws FilterCompileError when parseFilter or checkFilter would refuse the filter, or when the
 * context is invalid or lacks a user list the filter needs (see errors.ts for why it throws).
 */
import { checkFilter, FieldCatalog } from './checkFilter';
import { DAY_MS, daysFromCivil, formatDate, parseDate } from './civilDate';
import { ALL_CLOSED_TOKEN, DATE_PRESETS, USER_PRESETS } from './conditions';
import type { DatePreset, UserPreset } from './conditions';
import { DEFAULT_WEEK_START_DAY, presetDays, type DayRange } from './datePresets';
import { FilterCompileError } from './errors';
import { foldText } from './fold';
import { parseFilter } from './parseFilter';
import { parsePattern, type PatternNode } from './pattern';
import type { CompiledFilter, Predicate } from './predicate';
import { isValidTimeZone, localDay, startOfDay } from './timeZone';
import { fieldKey } from './types';
import type {
  Filter,
  FilterContext,
  FilterCriterion,
  FilterError,
  FilterField,
  FilterUsers,
} from './types';
import { parseBoolean, parseNumeric } from './values';

/** The last instant a stored 'YYYY-MM-DDTHH:mm:ss.SSSZ' can name (4-digit years). */
const LAST_ISO_INSTANT = daysFromCivil(10_000, 1, 1) * DAY_MS - 1;

const USER_PRESET_LISTS: Record<UserPreset, keyof FilterUsers> = {
  deactivated_users: 'deactivated',
  deleted_users: 'deleted',
  is_team_lead_only: 'teamLeads',
  pending: 'pending',
  accepted: 'accepted',
};

/** A fresh node each time: callers own the compiled tree and may rewrite it. */
function never(): Predicate {
  return { op: 'const', value: false };
}

function not(item: Predicate): Predicate {
  return { op: 'not', item };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function equalsText(field: string, values: string[]): Predicate {
  return values.length === 0
    ? never()
    : { op: 'equals', field, type: 'text', values: unique(values) };
}

function isDatePreset(name: string): name is Exclude<DatePreset, 'unscheduled'> {
  return name !== 'unscheduled' && (DATE_PRESETS as readonly string[]).includes(name);
}

function isUserPreset(name: string): name is UserPreset {
  return (USER_PRESETS as readonly string[]).includes(name);
}

/** Every user below `root`, following directReports (cycles and repeats are harmless). */
function subordinatesFrom(directReports: Record<string, string[]>, root: string): string[] {
  const seen = new Set<string>();
  const queue = [...(Object.hasOwn(directReports, root) ? (directReports[root] ?? []) : [])];
  while (queue.length > 0) {
    const user = queue.shift() as string;
    if (seen.has(user) || user === root) continue;
    seen.add(user);
    if (Object.hasOwn(directReports, user)) queue.push(...(directReports[user] ?? []));
  }
  return [...seen];
}

function lookup(map: Record<string, string[]>, key: string): string[] {
  return Object.hasOwn(map, key) ? (map[key] ?? []) : [];
}

interface Resolved {
  today: number;
  weekStartDay: number;
  timeZone: string;
  now: number;
  users: FilterUsers;
}

function checkContext(context: FilterContext): { resolved?: Resolved; errors: FilterError[] } {
  const errors: FilterError[] = [];
  // 8.64e15 ms is the ECMAScript Date range; beyond it no time zone can be asked about the date.
  if (typeof context.now !== 'number' || !(Math.abs(context.now) <= 8.64e15)) {
    errors.push({ path: 'context.now', message: 'must be a finite number of epoch milliseconds' });
  }
  if (typeof context.timeZone !== 'string' || !isValidTimeZone(context.timeZone)) {
    errors.push({
      path: 'context.timeZone',
      message: `${JSON.stringify(context.timeZone)} is not an IANA time zone Intl knows`,
    });
  }
  const weekStartDay = context.weekStartDay ?? DEFAULT_WEEK_START_DAY;
  if (!Number.isInteger(weekStartDay) || weekStartDay < 0 || weekStartDay > 7) {
    errors.push({
      path: 'context.weekStartDay',
      message: `must be an integer 0-7 (0 or 7 = Sunday, 1 = Monday ... 6 = Saturday), got ${String(weekStartDay)}`,
    });
  }
  if (errors.length > 0) return { errors };
  return {
    errors,
    resolved: {
      today: localDay(context.now, context.timeZone),
      weekStartDay,
      timeZone: context.timeZone,
      now: context.now,
      users: context.users ?? {},
    },
  };
}

class Compiler {
  readonly errors: FilterError[] = [];
  readonly fields = new Map<string, FilterField['kind']>();
  readonly closedFields = new Set<string>();

  constructor(private readonly context: Resolved) {}

  /** The instant a local day starts, as a stored date-time string (null past year 9999). */
  private dayStartIso(days: number): string | null {
    const instant = startOfDay(days, this.context.timeZone);
    return instant > LAST_ISO_INSTANT ? null : new Date(instant).toISOString();
  }

  /** Date-time range covering whole local days `range.from` .. `range.to`. */
  private instantRange(field: string, range: DayRange): Predicate {
    const predicate: Predicate = { op: 'range', field, type: 'text' };
    if (range.from !== undefined) {
      const start = this.dayStartIso(range.from);
      if (start === null) return never();
      predicate.min = { value: start, inclusive: true };
    }
    if (range.to !== undefined) {
      const end = this.dayStartIso(range.to + 1);
      if (end !== null) predicate.max = { value: end, inclusive: false };
    }
    return predicate;
  }

  private dayRange(field: string, range: DayRange): Predicate {
    const predicate: Predicate = { op: 'range', field, type: 'text' };
    if (range.from !== undefined)
      predicate.min = { value: formatDate(range.from), inclusive: true };
    if (range.to !== undefined) predicate.max = { value: formatDate(range.to), inclusive: true };
    return predicate;
  }

  private dates(field: FilterField, key: string, condition: string, values: string[]): Predicate {
    const datetime = field.kind === 'datetime';
    const days = values.map((value) => parseDate(value) as number);
    const [a, b] = [days[0] as number, days[1] as number];
    const span = (range: DayRange): Predicate =>
      datetime ? this.instantRange(key, range) : this.dayRange(key, range);
    switch (condition) {
      case 'is':
        if (!datetime) return equalsText(key, days.map(formatDate));
        return days.length === 1
          ? span({ from: a, to: a })
          : { op: 'or', items: unique(days).map((d) => span({ from: d, to: d })) };
      case 'is_not':
        return not(this.dates(field, key, 'is', values));
      case 'less_than':
      case 'before':
        return span({ to: a - 1 });
      case 'less_than_or_equal':
        return span({ to: a });
      case 'greater_than':
      case 'after':
        return span({ from: a + 1 });
      case 'greater_than_or_equal':
        return span({ from: a });
      case 'between':
        return span({ from: a, to: b });
      case 'not_between':
        return not(span({ from: a, to: b }));
      case 'unscheduled':
        return { op: 'empty', field: key, list: false };
      case 'overdue':
        if (datetime) {
          // A date-time is overdue once its instant has passed, not only from the next day on.
          const predicate: Predicate = { op: 'range', field: key, type: 'text' };
          if (this.context.now <= LAST_ISO_INSTANT) {
            predicate.max = { value: new Date(this.context.now).toISOString(), inclusive: false };
          }
          return predicate;
        }
        return span(presetDays('overdue', this.context.today, this.context.weekStartDay));
      default:
        if (isDatePreset(condition)) {
          return span(presetDays(condition, this.context.today, this.context.weekStartDay));
        }
        throw new Error(`No date compilation for "${condition}"`);
    }
  }

  private users(criterion: FilterCriterion, key: string, path: string): Predicate {
    const condition = criterion.criteria_condition;
    const values = criterion.value ?? [];
    const users = this.context.users;
    const missing = (list: string): Predicate => {
      this.errors.push({
        path: `${path}.criteria_condition`,
        message: `"${condition}" needs context.users.${list}, which was not given`,
      });
      return never();
    };
    switch (condition) {
      case 'is':
        return equalsText(key, values);
      case 'is_not':
        return not(equalsText(key, values));
      case 'direct_reports_of':
        if (!users.directReports) return missing('directReports');
        return equalsText(key, lookup(users.directReports, values[0] as string));
      case 'subordinates_of':
        if (users.subordinates) {
          return equalsText(key, lookup(users.subordinates, values[0] as string));
        }
        if (!users.directReports) return missing('subordinates (or directReports)');
        return equalsText(key, subordinatesFrom(users.directReports, values[0] as string));
      default: {
        if (!isUserPreset(condition)) throw new Error(`No user compilation for "${condition}"`);
        const list = USER_PRESET_LISTS[condition];
        const ids = users[list];
        if (!Array.isArray(ids)) return missing(list);
        return equalsText(key, ids);
      }
    }
  }

  private closed(key: string): Predicate {
    this.closedFields.add(key);
    return { op: 'closed', field: key };
  }

  criterion(criterion: FilterCriterion, field: FilterField, path: string): Predicate {
    const key = fieldKey(field);
    this.fields.set(key, field.kind);
    const condition = criterion.criteria_condition;
    const values = criterion.value ?? [];
    const empty: Predicate = { op: 'empty', field: key, list: field.kind === 'multipicklist' };
    if (condition === 'is_empty') return empty;
    if (condition === 'is_not_empty') return not(empty);

    switch (field.kind) {
      case 'text':
      case 'picklist': {
        const folded = values.map(foldText);
        const match = (m: 'equals' | 'contains' | 'starts_with' | 'ends_with'): Predicate => ({
          op: 'text',
          field: key,
          match: m,
          values: unique(folded),
        });
        switch (condition) {
          case 'is':
            return match('equals');
          case 'is_not':
            return not(match('equals'));
          case 'contains':
            return match('contains');
          case 'not_contains':
            return not(match('contains'));
          case 'starts_with':
            return match('starts_with');
          case 'ends_with':
            return match('ends_with');
        }
        break;
      }
      case 'number': {
        const numbers = values.map((value) => parseNumeric(value) as number);
        const [a, b] = [numbers[0] as number, numbers[1] as number];
        const range = (min?: number, minIn = true, max?: number, maxIn = true): Predicate => ({
          op: 'range',
          field: key,
          type: 'number',
          ...(min === undefined ? {} : { min: { value: min, inclusive: minIn } }),
          ...(max === undefined ? {} : { max: { value: max, inclusive: maxIn } }),
        });
        const is: Predicate = { op: 'equals', field: key, type: 'number', values: unique(numbers) };
        switch (condition) {
          case 'is':
            return is;
          case 'is_not':
            return not(is);
          case 'less_than':
            return range(undefined, true, a, false);
          case 'less_than_or_equal':
            return range(undefined, true, a, true);
          case 'greater_than':
            return range(a, false);
          case 'greater_than_or_equal':
            return range(a, true);
          case 'between':
            return range(a, true, b, true);
          case 'not_between':
            return not(range(a, true, b, true));
        }
        break;
      }
      case 'boolean': {
        const flags = unique(values.map((value) => parseBoolean(value) as number));
        const is: Predicate = { op: 'equals', field: key, type: 'number', values: flags };
        if (condition === 'is') return is;
        if (condition === 'is_not') return not(is);
        break;
      }
      case 'date':
      case 'datetime':
        return this.dates(field, key, condition, values);
      case 'status':
        switch (condition) {
          case 'is':
            return equalsText(key, values);
          case 'is_not':
            return not(equalsText(key, values));
          case 'all_closed':
            return this.closed(key);
          case 'all_open':
            // Open is "not of a closed type", so a record with no status counts as open.
            return not(this.closed(key));
          case 'custom_condition':
            return values[0] === ALL_CLOSED_TOKEN ? this.closed(key) : not(this.closed(key));
        }
        break;
      case 'user':
        return this.users(criterion, key, path);
      case 'multipicklist': {
        const has: Predicate = { op: 'has_any', field: key, values: unique(values) };
        if (condition === 'is') return has;
        if (condition === 'is_not') return not(has);
        break;
      }
    }
    throw new Error(`No compilation for "${condition}" on a ${field.kind} field`);
  }
}

function build(tree: PatternNode, leaves: Predicate[]): Predicate {
  if (tree.type === 'criterion') return leaves[tree.index - 1] as Predicate;
  return { op: tree.type, items: tree.items.map((item) => build(item, leaves)) };
}

export function compileFilter(
  filter: Filter,
  fields: readonly FilterField[],
  context: FilterContext,
): CompiledFilter {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new FilterCompileError(parsed.errors);
  const problems = checkFilter(parsed.filter, fields);
  const { resolved, errors: contextErrors } = checkContext(context);
  problems.push(...contextErrors);
  if (problems.length > 0 || !resolved) throw new FilterCompileError(problems);

  const catalog = new FieldCatalog(fields);
  const compiler = new Compiler(resolved);
  const leaves = parsed.filter.criteria.map((criterion, i) =>
    compiler.criterion(criterion, catalog.get(criterion) as FilterField, `criteria[${i}]`),
  );
  if (compiler.errors.length > 0) throw new FilterCompileError(compiler.errors);

  const pattern = parsePattern(parsed.filter.pattern, leaves.length);
  if (!pattern.ok) throw new FilterCompileError(pattern.errors);
  return {
    root: build(pattern.tree, leaves),
    // fromEntries defines own properties, so even a field named "__proto__" stays a plain key.
    fields: Object.fromEntries(compiler.fields),
    closedFields: [...compiler.closedFields],
  };
}
