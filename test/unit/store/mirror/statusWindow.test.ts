/**
 * The status order read status by status (statusWindow.ts) gives exactly the order of the status
 * position with ties by id, empty values last, at every offset, both directions, with a filter,
 * and with statuses sharing a position; and it walks the status index instead of sorting.
 */
import { describe, expect, it } from 'vitest';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { statusSegments, windowParts } from '../../../../src/main/store/mirror/statusWindow';
import { makeRecord, mirroredPortal, MODULE, PORTAL, STATUSES } from './fixture';

const COUNT = 260;

function records(): MirrorRecord[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const record = makeRecord(i);
    // Some rows without a status, and some with one the module does not list.
    if (i % 23 === 0) return { ...record, statusId: null };
    if (i % 29 === 0) return { ...record, statusId: '9999' };
    return record;
  });
}

function session(statuses = STATUSES) {
  const { mirror, store } = mirroredPortal();
  mirror.metadata.replaceStatuses(PORTAL, MODULE, statuses);
  mirror.records.upsertRecords(records());
  const list = (descending: boolean, offset: number, limit: number, filter?: object) =>
    mirror.query.queryRecords({
      portalId: PORTAL,
      moduleId: MODULE,
      sort: { field: 'status', descending },
      offset,
      limit,
      ...(filter ? { filter: JSON.stringify(filter) } : {}),
    });
  /** The order by its definition: the status position, empty last, ties by id. */
  const reference = (descending: boolean, nameContains?: string): string[] => {
    const direction = descending ? 'DESC' : 'ASC';
    return store.db
      .prepare(
        `SELECT r.id FROM records r JOIN modules m ON m.module_key = r.module_key
         WHERE m.id = ? AND r.list_state = 0 AND (? IS NULL OR instr(r.name, ?) > 0)
         ORDER BY (SELECT s.position FROM statuses s
                   WHERE s.portal_id = r.portal_id AND s.id = r.status_id) ${direction} NULLS LAST,
                  r.id ${direction}`,
      )
      .pluck()
      .all(MODULE, nameContains ?? null, nameContains ?? null) as string[];
  };
  return { store, list, reference };
}

const nameFilter = (needle: string) => ({
  criteria: [{ field_name: 'name', criteria_condition: 'contains', value: [needle] }],
  pattern: '1',
});

describe('the status order', () => {
  it('matches its definition at every offset, in both directions, with and without a filter', () => {
    const { list, reference } = session();
    for (const descending of [false, true]) {
      for (const needle of [undefined, '#1']) {
        const ids = reference(descending, needle);
        const filter = needle ? nameFilter(needle) : undefined;
        expect(list(descending, 0, 500, filter).rows.map((r) => r.id)).toEqual(ids);
        for (const offset of [0, 7, Math.floor(ids.length / 2), ids.length - 30, ids.length - 1]) {
          const window = list(descending, offset, 25, filter);
          expect(window.total).toBe(ids.length);
          expect(window.rows.map((r) => r.id)).toEqual(ids.slice(offset, offset + 25));
        }
      }
    }
  });

  it('keeps ties by id when two statuses share a position', () => {
    const shared = STATUSES.map((s) => (s.position === 3 ? { ...s, position: 2 } : s));
    const { list, reference } = session(shared);
    for (const descending of [false, true]) {
      const ids = reference(descending);
      expect(list(descending, 0, 500).rows.map((r) => r.id)).toEqual(ids);
      expect(list(descending, ids.length - 40, 25).rows.map((r) => r.id)).toEqual(
        ids.slice(ids.length - 40, ids.length - 15),
      );
    }
  });

  it('reads one status range in index order instead of sorting the module', () => {
    const { store } = session();
    const [first] = statusSegments(
      STATUSES.map((s) => ({ id: s.id, position: s.position })),
      { descending: false },
    );
    const plan = (
      store.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT r.row_key FROM records r WHERE r.module_key = ? AND
           r.list_state = 0 AND ${first!.condition} AND (1) ORDER BY r.id ASC LIMIT ? OFFSET ?`,
        )
        .all(1, ...first!.params, 25, 0) as { detail: string }[]
    ).map((row) => row.detail);
    expect(plan.join('\n')).toMatch(/records_by_status/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('takes whole segments by their counts and only what the window needs', () => {
    const sizes = [10, 0, 5, 30];
    const asked: number[] = [];
    const size = (segment: number) => {
      asked.push(segment);
      return sizes[segment]!;
    };
    expect(windowParts(size, 4, 12, 10)).toEqual([
      { segment: 2, skip: 2, take: 3 },
      { segment: 3, skip: 0, take: 7 },
    ]);
    asked.length = 0;
    expect(windowParts(size, 4, 0, 4)).toEqual([{ segment: 0, skip: 0, take: 4 }]);
    // A window inside the first segment never counts the others.
    expect(asked).toEqual([0]);
    expect(windowParts(size, 4, 45, 10)).toEqual([]);
  });
});
