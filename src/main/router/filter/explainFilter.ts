import {
  isFilterGroup,
  type ConditionExplanation,
  type FilterCondition,
  type FilterGroup,
  type GroupExplanation,
} from '../../../shared/ipc/areas/router';
import { compareValue, type CompareContext } from './compareValue';
import { readPath } from './readPath';

function explainCondition(
  condition: FilterCondition,
  data: unknown,
  context: CompareContext,
): ConditionExplanation {
  const actual = readPath(data, condition.path);
  const result = compareValue(
    condition.type,
    condition.comparator,
    actual,
    condition.value,
    context,
  );
  return {
    path: condition.path,
    type: condition.type,
    comparator: condition.comparator,
    expected: condition.value ?? null,
    actual: actual === undefined ? null : actual,
    matched: result.matched,
    note: actual === undefined ? 'the data has no such key' : result.note,
  };
}

/**
 * Evaluates a rule's filter against an event's data and says, for every condition, which value was
 * compared with which and whether it matched. Every condition is evaluated (no short cut), so the
 * explanation is complete even where the first one already decided.
 */
export function explainFilter(
  filter: FilterGroup,
  data: unknown,
  context: CompareContext,
): GroupExplanation {
  const conditions = filter.conditions.map((node) =>
    isFilterGroup(node)
      ? explainFilter(node, data, context)
      : explainCondition(node, data, context),
  );
  const matched =
    filter.operator === 'AND'
      ? conditions.every((node) => node.matched)
      : conditions.some((node) => node.matched);
  return { operator: filter.operator, matched, conditions };
}
