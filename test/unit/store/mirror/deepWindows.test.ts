/**
 * Deep windows of a virtual list: a window past the middle is read from the far end of the
 * reversed order, and an unfiltered total may be counted as "all rows minus the others". Both
 * must give exactly what the plain order and a plain count give.
 */
import { describe, expect, it } from 'vitest';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { nearerEnd } from '../../../../src/main/store/mirror/windowKeys';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';

const COUNT = 300;
const RECORDS: MirrorRecord[] = Array.from({ length: COUNT }, (_, i) => makeRecord(i));
const OTHER = '2000000000009';

function session() {
  const { mirror, store } = mirroredPortal();
  mirror.records.upsertRecords(RECORDS);
  const list = (
    sort: { field: string; descending: boolean },
    offset: number,
    limit: number,
    filter?: object,
  ) =>
    mirror.query.queryRecords({
      portalId: PORTAL,
      moduleId: MODULE,
      sort,
      offset,
      limit,
      ...(filter ? { filter: JSON.stringify(filter) } : {}),
    });
  return { mirror, store, list };
}

describe('nearerEnd', () => {
  const plan = { key: 'r.name_fold', nullable: true, descending: false };

  it('reads a window in the first half as it is', () => {
    expect(nearerEnd(plan, 100, 50, 300)).toEqual({
      order: plan,
      from: 100,
      rows: 50,
      reversed: false,
    });
  });

  it('reads a window past the middle from the far end, empty values first', () => {
    expect(nearerEnd(plan, 280, 50, 300)).toEqual({
      order: { ...plan, descending: true, nullsFirst: true },
      from: 0,
      rows: 20,
      reversed: true,
    });
    expect(nearerEnd(plan, 200, 50, 300)).toMatchObject({ from: 50, rows: 50, reversed: true });
  });
});

describe('deep windows', () => {
  const sorts = [
    { field: 'name', descending: false },
    { field: 'name', descending: true },
    { field: 'last_updated_time', descending: true },
    // Nullable: empty values last in both directions, also when read from the far end.
    { field: 'cf_quantity', descending: false },
    { field: 'cf_quantity', descending: true },
    { field: 'cf_category', descending: true },
  ];
  const filters = [
    undefined,
    {
      criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['#1'] }],
      pattern: '1',
    },
  ];

  it('give the same rows as the whole order, at every offset', () => {
    const { list } = session();
    for (const filter of filters) {
      for (const sort of sorts) {
        const whole = list(sort, 0, 1000, filter);
        const ids = whole.rows.map((r) => r.id);
        expect(ids.length).toBe(whole.total);
        for (const offset of [0, 1, whole.total / 2 - 3, whole.total - 40, whole.total - 1]) {
          const from = Math.max(0, Math.floor(offset));
          const window = list(sort, from, 25, filter);
          expect(window.total).toBe(whole.total);
          expect(window.rows.map((r) => r.id)).toEqual(ids.slice(from, from + 25));
        }
      }
    }
  });

  it('count a name filter from its first window only when the window holds every match', () => {
    const { mirror, list } = session();
    const byName = { field: 'name', descending: false };
    const filter = (needle: string) => ({
      criteria: [{ field_name: 'name', criteria_condition: 'contains', value: [needle] }],
      pattern: '1',
    });
    const matches = (needle: string) => RECORDS.filter((r) => r.name.includes(needle)).length;
    const few = '#12';
    expect(matches(few)).toBeGreaterThan(1);
    expect(matches(few)).toBeLessThan(25);
    expect(list(byName, 0, 25, filter(few)).total).toBe(matches(few));
    // Exactly as many matches as the window holds, and more: counted, not guessed.
    const many = '#1';
    const total = matches(many);
    expect(total).toBeGreaterThan(30);
    expect(list(byName, 0, 30, filter(many)).total).toBe(total);
    mirror.records.writeCursor({ portalId: PORTAL, moduleId: MODULE, scanIndex: 2 });
    expect(list(byName, 0, total, filter(many)).total).toBe(total);
  });

  it('keep the total right through additions, trash, edits and deletions, beside another module', () => {
    const { mirror, store, list } = session();
    const module = (id: string, apiName: string) => ({
      id,
      apiName,
      singularName: apiName,
      pluralName: apiName,
      iconClass: null,
      isActive: true,
      isDefault: false,
      createdTime: null,
      details: {},
    });
    mirror.metadata.replaceModules(PORTAL, [module(MODULE, 'assets'), module(OTHER, 'vendors')]);
    const direct = () =>
      store.db
        .prepare(
          `SELECT count(*) FROM records r JOIN modules m ON m.module_key = r.module_key
           WHERE m.id = ? AND r.list_state IN (0, 1)`,
        )
        .pluck()
        .get(MODULE) as number;
    const byName = { field: 'name', descending: false };
    const check = () => {
      const { total, rows } = list(byName, 0, 1);
      expect(total).toBe(direct());
      expect(rows).toHaveLength(1);
      return total;
    };
    expect(check()).toBe(COUNT);
    mirror.records.upsertRecords(
      Array.from({ length: 40 }, (_, i) => ({ ...makeRecord(COUNT + i), moduleId: OTHER })),
    );
    expect(check()).toBe(COUNT);
    mirror.records.upsertRecords([
      {
        ...RECORDS[5]!,
        trashedTime: '2026-03-05T09:00:00.000Z',
        lastUpdatedTime: '2026-03-05T09:00:00.000Z',
      },
    ]);
    expect(check()).toBe(COUNT - 1);
    store.db
      .prepare(
        `INSERT INTO record_edits (portal_id, record_id, field, value, edited_at)
         VALUES (?, ?, 'name', '"Renamed"', '2026-03-05T09:00:00.000Z')`,
      )
      .run(PORTAL, RECORDS[9]!.id);
    // The edited row is listed from its overlay, not from the index: the total still counts it.
    expect(check()).toBe(COUNT - 1);
    store.db.prepare('DELETE FROM record_edits').run();
    mirror.records.deleteRecords(PORTAL, [RECORDS[20]!.id, RECORDS[21]!.id]);
    mirror.records.upsertRecords([makeRecord(COUNT + 100), makeRecord(COUNT + 101)]);
    expect(check()).toBe(COUNT - 1);
  });
});
