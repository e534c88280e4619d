/**
 * A window of the status order read segment by segment (statusWindow.ts plans it): no index holds
 * a row's workflow position, but the rows of one status are an index range in id order, so whole
 * segments are skipped by their counts (cached with the filter's) and only the rows shown are read.
 */
import type { StatementCache } from './listStatements';
import type { ModuleContext } from './moduleContext';
import type { RecordCounts } from './recordCounts';
import type { RecordFilterSql } from './recordFilterSql';
import type { SortPlan } from './recordSort';
import { statusSegments, windowParts, type StatusSegment } from './statusWindow';

export function statusWindowKeys(
  statements: StatementCache,
  counts: RecordCounts,
  context: ModuleContext,
  where: RecordFilterSql,
  order: SortPlan,
  offset: number,
  limit: number,
): number[] {
  const segments = statusSegments([...context.statuses.values()], order);
  // A segment is counted whole (the filter read once per statement) and walked in id order for
  // the window's rows (the filter asked per row: the walk stops after them).
  const from = (segment: StatusSegment, filter: string) =>
    `FROM records r WHERE ${context.listed} AND ${segment.condition} ` + `AND (${filter})`;
  const params = (segment: StatusSegment) => [
    context.moduleKey,
    ...segment.params,
    ...where.params,
  ];
  const size = (index: number): number => {
    const segment = segments[index]!;
    return counts.part(
      context,
      where,
      `status\u0000${segment.condition}\u0000${segment.params.join(',')}`,
      () =>
        statements
          .get(`SELECT count(*) ${from(segment, where.sql)}`)
          .pluck()
          .get(...params(segment)) as number,
    );
  };
  const direction = order.descending ? 'DESC' : 'ASC';
  return windowParts(size, segments.length, offset, limit).flatMap(({ segment, skip, take }) => {
    const chosen = segments[segment]!;
    return statements
      .get(
        `SELECT r.row_key ${from(chosen, where.probe)} ORDER BY r.id ${direction} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(...params(chosen), take, skip) as number[];
  });
}
