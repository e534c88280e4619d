import { isFilterGroup, type FilterGroup } from '../../../shared/ipc/areas/router';

/** How deeply a filter nests groups (1 for a flat list) and how many conditions it holds. */
export function filterSize(filter: FilterGroup): { depth: number; conditions: number } {
  let depth = 1;
  let conditions = 0;
  for (const node of filter.conditions) {
    if (isFilterGroup(node)) {
      const inner = filterSize(node);
      depth = Math.max(depth, inner.depth + 1);
      conditions += inner.conditions;
    } else {
      conditions += 1;
    }
  }
  return { depth, conditions };
}
