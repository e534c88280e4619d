/**
 * The API's filter language (spec 001, "Filter guide"), shared by the REST API emulator and the
 * desktop app's offline mirror: parse -> check -> compile once, then run the compiled filter as
 * SQL (toSql) or in memory (evaluate) with the same meaning.
 *
 *   const parsed = parseFilter(req.query.filter);            // structure, pattern
 *   if (!parsed.ok) return badRequest(parsed.errors);
 *   const errors = checkFilter(parsed.filter, fields);       // fields, conditions, values
 *   if (errors.length) return badRequest(errors);
 *   const compiled = compileFilter(parsed.filter, fields, { now, timeZone, weekStartDay, users });
 *   const { sql, params } = toSql(compiled, bindings);       // WHERE ${sql}, after registering
 *   db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
 */
export type {
  FieldKind,
  Filter,
  FilterContext,
  FilterCriterion,
  FilterError,
  FilterField,
  FilterUsers,
} from './types';
export { FIELD_KINDS, criterionFieldKey, fieldKey } from './types';
export type { ConditionSpec, DatePreset, UserPreset, ValueArity } from './conditions';
export {
  ALL_CLOSED_TOKEN,
  ALL_OPEN_TOKEN,
  DATE_PRESETS,
  USER_PRESETS,
  conditionsFor,
  findCondition,
} from './conditions';
export { FilterCompileError, formatFilterErrors } from './errors';
export {
  MAX_CRITERIA,
  MAX_PATTERN_DEPTH,
  MAX_PATTERN_LENGTH,
  MAX_VALUES_PER_CRITERION,
} from './limits';
export type { PatternNode, PatternResult } from './pattern';
export { formatPattern, parsePattern } from './pattern';
export type { ParseFilterResult } from './parseFilter';
export { parseFilter } from './parseFilter';
export { checkFilter } from './checkFilter';
export type { Bound, CompiledFilter, Predicate, TextMatch } from './predicate';
export { DEFAULT_WEEK_START_DAY } from './datePresets';
export { compileFilter } from './compileFilter';
export { FOLD_SQL_FUNCTION, foldSqlValue, foldText } from './fold';
export type { SqlBinding, SqlFragment } from './toSql';
export { instantSql, toSql } from './toSql';
export { evaluate } from './evaluate';
export { explainFilter, type ValueLabel } from './explain';
