/**
 * A window of a module's records in status order without sorting the module: the rows of one
 * status are a range of the `records_by_status` index in id order, so a window is read segment
 * by segment (one per status position, in workflow order, and one for rows whose status is empty
 * or unknown: last, or first when the order is read from its far end), skipping whole segments by
 * their counts. Gives exactly the order of `recordSortPlan`'s status key, `(position, id)`. Pure.
 */
import type { SortPlan } from './recordSort';

export interface StatusPosition {
  id: string;
  position: number;
}

/** One segment: its condition on a row aliased `r`, and that condition's parameters. */
export interface StatusSegment {
  condition: string;
  params: string[];
}

/** The segments of the status order, in the order `order` reads them. */
export function statusSegments(
  statuses: readonly StatusPosition[],
  order: Pick<SortPlan, 'descending' | 'nullsFirst'>,
): StatusSegment[] {
  const groups = new Map<number, string[]>();
  for (const status of [...statuses].sort((a, b) => a.position - b.position)) {
    const ids = groups.get(status.position) ?? [];
    ids.push(status.id);
    groups.set(status.position, ids);
  }
  const positions = [...groups.keys()];
  if (order.descending) positions.reverse();
  const inList = (ids: readonly string[]) => ids.map(() => '?').join(', ');
  const segments: StatusSegment[] = positions.map((position) => {
    const ids = groups.get(position)!;
    // `= ?` keeps the range in id order; an IN list (statuses sharing a position) is sorted.
    const condition = ids.length === 1 ? 'r.status_id = ?' : `r.status_id IN (${inList(ids)})`;
    return { condition, params: ids };
  });
  const known = statuses.map((status) => status.id);
  const unknown: StatusSegment =
    known.length === 0
      ? { condition: '1', params: [] }
      : {
          condition: `(r.status_id IS NULL OR r.status_id NOT IN (${inList(known)}))`,
          params: known,
        };
  if (order.nullsFirst) segments.unshift(unknown);
  else segments.push(unknown);
  return segments;
}

/**
 * Which part of each segment a window takes: `skip` rows of the segment, then `take`. `size`
 * gives a segment's row count (segments in reading order); it is asked only until the window is
 * full, so the segments after it are never counted.
 */
export function windowParts(
  size: (segment: number) => number,
  segments: number,
  offset: number,
  limit: number,
): { segment: number; skip: number; take: number }[] {
  const parts: { segment: number; skip: number; take: number }[] = [];
  let skip = offset;
  let need = limit;
  for (let segment = 0; segment < segments && need > 0; segment++) {
    const rows = size(segment);
    if (skip >= rows) {
      skip -= rows;
      continue;
    }
    const take = Math.min(need, rows - skip);
    parts.push({ segment, skip, take });
    need -= take;
    skip = 0;
  }
  return parts;
}
