import { isFilterGroup, type FilterGroup } from '../../../shared/ipc/areas/router';
import { compareValue, type CompareContext } from './compareValue';
import { readPath } from './readPath';

/**
 * Whether an event's data meets a rule's filter: the routing path, which stops at the first
 * condition that decides (explainFilter gives the full account when someone asks for it).
 */
export function filterMatches(
  filter: FilterGroup,
  data: unknown,
  context: CompareContext,
): boolean {
  const test = (node: FilterGroup['conditions'][number]): boolean =>
    isFilterGroup(node)
      ? filterMatches(node, data, context)
      : compareValue(node.type, node.comparator, readPath(data, node.path), node.value, context)
          .matched;
  return filter.operator === 'AND' ? filter.conditions.every(test) : filter.conditions.some(test);
}
