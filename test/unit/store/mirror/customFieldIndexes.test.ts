/**
 * Custom-field indexes: a list that filters or sorts on a custom field is answered at once (the
 * slow way), its index is built by the worker thread, and from then on the same list gives the
 * same rows through the index (EXPLAIN QUERY PLAN says so), with the sort semantics unchanged.
 */
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FilterCriterion } from '@portaldesk/portal-api/filter';
import {
  NATURAL_SORT_SQL_FUNCTION,
  naturalCompare,
  naturalSortSqlValue,
} from '@portaldesk/portal-api/domain/naturalOrder';
import {
  BUILD_WRITE_WAIT_MS,
  CustomFieldIndexer,
} from '../../../../src/main/store/mirror/customFieldIndexer';
import { customFieldIndexDefinition } from '../../../../src/main/store/mirror/customFieldIndexDefinition';
import type { Mirror } from '../../../../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import {
  RecordQuery,
  type RecordQueryInput,
  type RecordWindow,
} from '../../../../src/main/store/mirror/recordQuery';
import type { RecordSort } from '../../../../src/main/store/mirror/recordSort';
import type { Store } from '../../../../src/main/store/store';
import {
  customFieldIndexWorkerScript,
  removeCustomFieldIndexWorkerBuild,
} from './customFieldIndexWorkerBuild';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';

const COUNT = 1500;
const RECORDS: MirrorRecord[] = Array.from({ length: COUNT }, (_, i) => makeRecord(i, 3));
let workerScript: string;
const indexers: CustomFieldIndexer[] = [];

beforeAll(async () => {
  workerScript = await customFieldIndexWorkerScript();
});

afterEach(() => {
  for (const indexer of indexers.splice(0)) indexer.close();
});

afterAll(removeCustomFieldIndexWorkerBuild);

function indexerFor(
  store: Store,
  mirror: Mirror,
  options: Partial<ConstructorParameters<typeof CustomFieldIndexer>[0]> = {},
): CustomFieldIndexer {
  const indexer = CustomFieldIndexer.attach(mirror.query, {
    db: store.db,
    file: store.file,
    workerScript,
    quietMs: 0,
    ...options,
  });
  indexers.push(indexer);
  return indexer;
}

/** One window of the fixture's module: from 0, 1,000 rows unless given; `filter` as JSON. */
function listOf(
  mirror: Mirror,
  input: { filter?: object; sort?: RecordSort; offset?: number; limit?: number },
): RecordWindow {
  return mirror.query.queryRecords({
    portalId: PORTAL,
    moduleId: MODULE,
    offset: input.offset ?? 0,
    limit: input.limit ?? 1000,
    ...(input.filter ? { filter: JSON.stringify(input.filter) } : {}),
    ...(input.sort ? { sort: input.sort } : {}),
  });
}

const c = (field_name: string, criteria_condition: string, value?: string[]): FilterCriterion => ({
  field_name,
  criteria_condition,
  ...(value ? { value } : {}),
});

function customIndexes(db: Database.Database): string[] {
  return db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'records_cf_%'")
    .pluck()
    .all() as string[];
}

interface Ran {
  sql: string;
  params: unknown[];
}

/**
 * Every statement `run` executes on `db`, with its parameters: the lists' SQL as it really is,
 * for EXPLAIN QUERY PLAN. Statements prepared before are not seen, so `run` uses a fresh query.
 */
function executed(db: Database.Database, run: () => void): Ran[] {
  const ran: Ran[] = [];
  const prepare = db.prepare.bind(db);
  const wrap = (statement: Database.Statement, sql: string): Database.Statement => {
    const proxy: Database.Statement = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        if (key === 'all' || key === 'get' || key === 'iterate' || key === 'run') {
          return (...params: unknown[]) => {
            ran.push({ sql, params });
            return (value as (...a: unknown[]) => unknown).apply(target, params);
          };
        }
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  db.prepare = ((sql: string) => wrap(prepare(sql), sql)) as typeof db.prepare;
  try {
    run();
  } finally {
    db.prepare = prepare as typeof db.prepare;
  }
  return ran;
}

function plans(db: Database.Database, ran: readonly Ran[], reading = 'r.custom'): string[] {
  return ran
    .filter((r) => r.sql.includes(reading) && !r.sql.startsWith('EXPLAIN'))
    .map((r) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${r.sql}`).all(...r.params) as { detail: string }[])
        .map((step) => step.detail)
        .join(' | '),
    );
}

/** The plans of the statements a list runs that read custom fields (a fresh query: no cache). */
function planned(
  store: Store,
  mirror: Mirror,
  input: Omit<RecordQueryInput, 'portalId' | 'moduleId'>,
  reading = 'r.custom',
): string {
  const fresh = new RecordQuery(store.db, mirror.metadata);
  const ran = executed(store.db, () =>
    fresh.queryRecords({ portalId: PORTAL, moduleId: MODULE, ...input }),
  );
  return plans(store.db, ran, reading).join('\n');
}

const FILTERS: [string, FilterCriterion[], string][] = [
  ['pick list is (folded)', [c('cf_category', 'is', ['network', 'HARDWARE'])], '1'],
  ['pick list is not', [c('cf_category', 'is_not', ['Network'])], '1'],
  ['single line contains', [c('cf_serial', 'contains', ['sn-1'])], '1'],
  ['single line starts with', [c('cf_serial', 'starts_with', ['SN-2'])], '1'],
  ['single line is empty', [c('cf_serial', 'is_empty')], '1'],
  ['currency between', [c('cf_cost', 'between', ['1000', '2500'])], '1'],
  ['number greater than', [c('cf_quantity', 'greater_than', ['5'])], '1'],
  ['number is', [c('cf_quantity', 'is', ['3', '4'])], '1'],
  ['check box', [c('cf_insured', 'is', ['true'])], '1'],
  ['date is', [c('cf_purchase', 'is', ['2026-02-12'])], '1'],
  ['date after', [c('cf_purchase', 'after', ['2026-03-01'])], '1'],
  ['date-time last week', [c('cf_audit', 'last_week')], '1'],
  ['user pick list', [c('cf_custodian', 'is', ['5001', '5003'])], '1'],
  ['multi-select holds', [c('cf_tags', 'is', ['3001'])], '1'],
  ['multi-select is empty', [c('cf_tags', 'is_empty')], '1'],
  ['multi-user holds', [c('cf_watchers', 'is', ['5002'])], '1'],
  ['multi-user is not', [c('cf_watchers', 'is_not', ['5001'])], '1'],
  [
    'custom and system fields together',
    [c('cf_category', 'is', ['Network']), c('status', 'is', ['2001', '2003'])],
    '1 AND 2',
  ],
];

const SORTS = [
  'cf_serial',
  'cf_category',
  'cf_custodian',
  'cf_purchase',
  'cf_audit',
  'cf_insured',
  'cf_cost',
  'cf_quantity',
];

/** Filters answered from record_multi_values (listLookups.ts), which need no expression index. */
const LOOKED_UP = new Set(['multi-select holds']);

/** Filters whose every comparison an index can serve as a range (not only as a scan). */
const SEEKS = new Set([
  'pick list is (folded)',
  'currency between',
  'number greater than',
  'number is',
  'check box',
  'date is',
  'date after',
  'date-time last week',
  'user pick list',
]);

describe('custom-field indexes', () => {
  let store: Store;
  let mirror: Mirror;

  const list = (input: Parameters<typeof listOf>[1]) => listOf(mirror, input);

  /** Every row of a sorted list, read in windows the way a virtual list scrolls (both ends). */
  const wholeOrder = (sort: RecordSort, filter?: object) => {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 400) {
      const { rows, total } = list({ sort, offset, limit: 400, ...(filter ? { filter } : {}) });
      ids.push(...rows.map((r) => r.id));
      if (offset + 400 >= total) return ids;
    }
  };

  beforeAll(() => {
    ({ store, mirror } = mirroredPortal({ forFile: true }));
    mirror.records.upsertRecords(RECORDS);
  });

  it('answers at once, builds the index in the background, then uses it', async () => {
    const filter = { criteria: [c('cf_category', 'is', ['Network'])], pattern: '1' };
    const indexer = indexerFor(store, mirror);
    const before = list({ filter });
    expect(before.total).toBeGreaterThan(0);
    // The list did not wait for the index. While it builds, a write of the engine would wait
    // for it (up to BUILD_WRITE_WAIT_MS) instead of failing after the store's 5 s.
    expect(customIndexes(store.db)).toEqual([]);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(BUILD_WRITE_WAIT_MS);
    await indexer.whenIdle();
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    const built = indexer.builds().map((b) => b.name);
    expect(built).toHaveLength(1);
    expect(customIndexes(store.db)).toEqual(built);

    expect(list({ filter })).toEqual(before);
    expect(
      planned(store, mirror, { offset: 0, limit: 1000, filter: JSON.stringify(filter) }),
    ).toMatch(/USING COVERING INDEX records_cf_\d+_cf_category/);
  });

  it('gives the same rows with and without the indexes, for every kind of field and order', async () => {
    const { store: s, mirror: m } = mirroredPortal();
    const n = 800;
    m.records.upsertRecords(RECORDS.slice(0, n));
    // Pending local edits: those rows are merged and joined in (UNION ALL) beside the index.
    const edit = s.db.prepare(
      `INSERT INTO record_edits (portal_id, record_id, field, value, edited_at)
       VALUES (?, ?, ?, ?, '2026-03-05T09:00:00.000Z')`,
    );
    edit.run(PORTAL, RECORDS[5]!.id, 'cf_quantity', '9999');
    edit.run(PORTAL, RECORDS[6]!.id, 'cf_category', '"Network"');
    edit.run(PORTAL, RECORDS[7]!.id, 'cf_serial', 'null');
    const query = (filter?: object, sort?: RecordSort, offset = 0, limit = 1000) =>
      listOf(m, { filter, sort, offset, limit });
    const ask = () => ({
      filters: FILTERS.map(([, criteria, pattern]) => {
        const { rows, total } = query({ criteria, pattern });
        return { total, ids: rows.map((r) => r.id).sort() };
      }),
      sorts: SORTS.flatMap((field) =>
        [false, true].map((descending) => {
          const ids: string[] = [];
          for (let offset = 0; offset < n; offset += 300) {
            ids.push(...query(undefined, { field, descending }, offset, 300).rows.map((r) => r.id));
          }
          return ids;
        }),
      ),
    });
    const unindexed = ask();
    expect(customIndexes(s.db)).toEqual([]);

    const indexer = indexerFor(s, m, { maxPerModule: 100 });
    ask();
    await indexer.whenIdle();
    expect(customIndexes(s.db).length).toBeGreaterThanOrEqual(SORTS.length + 3);
    expect(ask()).toEqual(unindexed);
  });

  it('filters use their index: a range where the condition is one, else a scan of the index', async () => {
    const indexer = indexerFor(store, mirror, { maxPerModule: 100 });
    for (const [, criteria, pattern] of FILTERS) list({ filter: { criteria, pattern } });
    await indexer.whenIdle();
    for (const [name, criteria, pattern] of FILTERS.filter(([name]) => !LOOKED_UP.has(name))) {
      const plan = planned(store, mirror, {
        offset: 0,
        limit: 100,
        filter: JSON.stringify({ criteria, pattern }),
      });
      expect({ name, plan }).toEqual({ name, plan: expect.stringMatching(/INDEX records_cf_/) });
      if (SEEKS.has(name)) {
        expect({ name, plan }).toEqual({ name, plan: expect.stringMatching(/<expr>/) });
      }
    }
  });

  it("a multi-select's includes reads its option's rows, never an index of the records' JSON", async () => {
    const indexer = indexerFor(store, mirror, { maxPerModule: 100 });
    for (const [name, criteria, pattern] of FILTERS.filter(([name]) => LOOKED_UP.has(name))) {
      const input = { offset: 0, limit: 100, filter: JSON.stringify({ criteria, pattern }) };
      list({ filter: { criteria, pattern } });
      await indexer.whenIdle();
      // Nothing asked for: the list compared no custom-field expression.
      expect({ name, built: indexer.builds() }).toEqual({ name, built: [] });
      const plan = planned(store, mirror, input, 'record_multi_values');
      expect({ name, plan }).toEqual({
        name,
        plan: expect.stringMatching(
          /SEARCH v USING PRIMARY KEY \(module_key=\? AND field=\? AND value=\?/,
        ),
      });
      // No statement of the list reads the records' JSON to filter.
      const fresh = new RecordQuery(store.db, mirror.metadata);
      const ran = executed(store.db, () =>
        fresh.queryRecords({ portalId: PORTAL, moduleId: MODULE, ...input }),
      );
      const readsJson = ran.filter((r) => /json_extract\(r\.custom|r\.custom ->/.test(r.sql));
      expect({ name, readsJson }).toEqual({ name, readsJson: [] });
    }
  });

  it('sorts walk their index in both directions, empty values last, no sort of the module', async () => {
    const indexer = indexerFor(store, mirror, { maxPerModule: 100 });
    for (const field of SORTS) list({ sort: { field, descending: false }, limit: 10 });
    await indexer.whenIdle();
    for (const field of SORTS) {
      for (const descending of [false, true]) {
        for (const offset of [0, COUNT - 50]) {
          const plan = planned(store, mirror, { offset, limit: 50, sort: { field, descending } });
          const where = { field, descending, offset };
          expect({ ...where, plan }).toEqual({
            ...where,
            plan: expect.stringMatching(/COVERING INDEX records_cf_/),
          });
          expect({ ...where, plan }).toEqual({
            ...where,
            plan: expect.not.stringMatching(/TEMP B-TREE/),
          });
        }
      }
    }
    // The semantics the index must keep: folded text in natural order, ties by id, empty values
    // last both ways.
    const serial = (r: MirrorRecord) => r.custom.cf_serial as string | undefined;
    const want = (descending: boolean) =>
      [...RECORDS]
        .sort((a, b) => {
          const [x, y] = [serial(a), serial(b)];
          if (x === undefined || y === undefined) {
            if (x !== y) return x === undefined ? 1 : -1;
          } else if (naturalCompare(x, y) !== 0) {
            return naturalCompare(x, y) * (descending ? -1 : 1);
          }
          return (a.id < b.id ? -1 : 1) * (descending ? -1 : 1);
        })
        .map((r) => r.id);
    expect(wholeOrder({ field: 'cf_serial', descending: false })).toEqual(want(false));
    expect(wholeOrder({ field: 'cf_serial', descending: true })).toEqual(want(true));
    // A currency: by code, then amount (issue 19), from its two-column index.
    const cost = (r: MirrorRecord) =>
      r.custom.cf_cost as { currency_code: string; amount: number } | undefined;
    const byCost = (descending: boolean) =>
      [...RECORDS]
        .sort((a, b) => {
          const [x, y] = [cost(a), cost(b)];
          if (x === undefined || y === undefined) {
            if (x !== y) return x === undefined ? 1 : -1;
          } else if (x.currency_code !== y.currency_code || x.amount !== y.amount) {
            const order =
              x.currency_code !== y.currency_code
                ? x.currency_code < y.currency_code
                  ? -1
                  : 1
                : x.amount - y.amount;
            return order * (descending ? -1 : 1);
          }
          return (a.id < b.id ? -1 : 1) * (descending ? -1 : 1);
        })
        .map((r) => r.id);
    expect(new Set(RECORDS.map((r) => cost(r)?.currency_code)).size).toBe(4);
    expect(wholeOrder({ field: 'cf_cost', descending: false })).toEqual(byCost(false));
    expect(wholeOrder({ field: 'cf_cost', descending: true })).toEqual(byCost(true));
  });

  it('leaves the plans of lists on system fields as they were (counts may take a narrower index)', async () => {
    const { store: s, mirror: m } = mirroredPortal();
    m.records.upsertRecords(RECORDS);
    const lists: { filter?: object; sort?: RecordSort; offset?: number }[] = [
      { filter: { criteria: [c('status', 'is', ['2001'])], pattern: '1' } },
      { filter: { criteria: [c('name', 'contains', ['laptop'])], pattern: '1' } },
      { sort: { field: 'name', descending: false }, offset: 900 },
      { sort: { field: 'last_updated_time', descending: true } },
      { sort: { field: 'status', descending: false }, offset: 300 },
      {},
    ];
    const planOf = (input: (typeof lists)[number]) => {
      const fresh = new RecordQuery(s.db, m.metadata);
      const ran = executed(s.db, () =>
        fresh.queryRecords({
          portalId: PORTAL,
          moduleId: MODULE,
          offset: input.offset ?? 0,
          limit: 100,
          ...(input.filter ? { filter: JSON.stringify(input.filter) } : {}),
          ...(input.sort ? { sort: input.sort } : {}),
        }),
      );
      return ran
        .filter((r) => r.sql.includes('FROM records r') && !r.sql.startsWith('EXPLAIN'))
        .map((r) => {
          const plan = (
            s.db.prepare(`EXPLAIN QUERY PLAN ${r.sql}`).all(...r.params) as { detail: string }[]
          )
            .map((step) => step.detail)
            .join(' | ');
          // Counting a whole range, SQLite reads the narrowest covering index: any will do.
          return r.sql.startsWith('SELECT count(*)') &&
            /^SEARCH r USING COVERING INDEX \S+ \(module_key=\? AND list_state=\?\)$/.test(plan)
            ? 'a count over a covering index'
            : plan;
        });
    };
    const before = lists.map(planOf);
    const indexer = indexerFor(s, m, { maxPerModule: 100 });
    for (const field of SORTS) {
      listOf(m, { limit: 1, sort: { field, descending: false } });
    }
    await indexer.whenIdle();
    expect(customIndexes(s.db)).toHaveLength(SORTS.length);
    expect(lists.map(planOf)).toEqual(before);
  });
});

describe('which indexes a module keeps', () => {
  it('keeps at most the cap, dropping the least recently used, never one in use', async () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(RECORDS.slice(0, 200));
    let now = Date.parse('2026-03-05T10:00:00Z');
    const indexer = indexerFor(store, mirror, { maxPerModule: 2, now: () => now });
    const sortBy = async (field: string) => {
      listOf(mirror, { limit: 5, sort: { field, descending: false } });
      await indexer.whenIdle();
    };
    const fields = () =>
      customIndexes(store.db)
        .map((name) => /^records_cf_\d+_(cf_[a-z]+)_/.exec(name)?.[1])
        .sort();
    await sortBy('cf_quantity');
    now += 60_000;
    await sortBy('cf_cost');
    expect(fields()).toEqual(['cf_cost', 'cf_quantity']);
    // Both were used within the last ten minutes: the third waits, unindexed but correct.
    now += 60_000;
    await sortBy('cf_purchase');
    expect(fields()).toEqual(['cf_cost', 'cf_quantity']);
    // Later, quantity is the one not used for longest: it makes room.
    now += 11 * 60_000;
    await sortBy('cf_cost');
    now += 1000;
    await sortBy('cf_purchase');
    expect(fields()).toEqual(['cf_cost', 'cf_purchase']);
  });

  it('drops at start-up the indexes of modules no longer mirrored', async () => {
    const { store, mirror } = mirroredPortal();
    const gone = customFieldIndexDefinition(987_654, "json_extract(r.custom, '$.cf_old')");
    store.db.exec(gone.sql);
    expect(customIndexes(store.db)).toEqual([gone.name]);
    const indexer = indexerFor(store, mirror);
    await indexer.whenIdle();
    expect(customIndexes(store.db)).toEqual([]);
  });

  it('drops at start-up, before any list runs, the indexes of the earlier definition', () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(RECORDS.slice(0, 200));
    const moduleKey = mirror.metadata.moduleKey(PORTAL, MODULE) as number;
    // As the first version built them: `WHERE module_key = k`, which a statement binding the
    // module key could be re-prepared onto.
    const current = customFieldIndexDefinition(
      moduleKey,
      "json_extract(r.custom, '$.cf_cost.amount')",
    );
    const earlier = `${current.name.slice(0, -10)}0123456789`;
    store.db.exec(
      current.sql
        .replace(current.name, earlier)
        .replace(`WHERE +module_key = ${moduleKey}`, `WHERE module_key = ${moduleKey}`),
    );
    const warnings: string[] = [];
    // No worker: the drop must not wait for one.
    const indexer = CustomFieldIndexer.attach(mirror.query, {
      db: store.db,
      file: store.file,
      log: { warn: (message) => warnings.push(message) },
    });
    indexers.push(indexer);
    expect(customIndexes(store.db)).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^Dropped 1 custom field index/)]);
  });

  it('waits for the engine to stop writing before it builds', async () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(RECORDS.slice(0, 200));
    const indexer = indexerFor(store, mirror, { quietMs: 150 });
    const write = () =>
      mirror.records.writeCursor({ portalId: PORTAL, moduleId: MODULE, scanIndex: 2 });
    const started = Date.now();
    listOf(mirror, { limit: 5, sort: { field: 'cf_quantity', descending: false } });
    const writing = setInterval(write, 40);
    let stoppedAt = 0;
    setTimeout(() => {
      clearInterval(writing);
      stoppedAt = Date.now();
    }, 500);
    await indexer.whenIdle();
    expect(stoppedAt).toBeGreaterThan(0);
    expect(Date.now()).toBeGreaterThanOrEqual(stoppedAt + 150);
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(customIndexes(store.db)).toHaveLength(1);
  });

  it('waits while the engine says it is busy (a sync run)', async () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(RECORDS.slice(0, 200));
    let syncing = true;
    const indexer = indexerFor(store, mirror, { busy: () => syncing });
    listOf(mirror, { limit: 5, sort: { field: 'cf_cost', descending: false } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(customIndexes(store.db)).toEqual([]);
    syncing = false;
    await indexer.whenIdle();
    expect(customIndexes(store.db)).toHaveLength(1);
  });

  it('without a working worker, says so once and lists stay correct', async () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(RECORDS.slice(0, 200));
    const warnings: string[] = [];
    const indexer = indexerFor(store, mirror, {
      workerScript: `${workerScript}.missing.cjs`,
      log: { warn: (message) => warnings.push(message) },
    });
    const sort = { field: 'cf_quantity', descending: false };
    const first = listOf(mirror, { limit: 50, sort });
    await indexer.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warnings).toEqual([expect.stringMatching(/index worker stopped.*stay correct/)]);
    expect(customIndexes(store.db)).toEqual([]);
    const again = listOf(mirror, { limit: 50, sort });
    expect(again).toEqual(first);
    expect(warnings).toHaveLength(1);
  });
});

describe('before an index exists', () => {
  it('sorts once for the first windows of a scroll, and again after a write', () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(RECORDS.slice(0, 600));
    let calls = 0;
    store.db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, (value: unknown) => {
      calls++;
      return naturalSortSqlValue(value);
    });
    const window = (offset: number) =>
      listOf(mirror, {
        offset,
        limit: 100,
        sort: { field: 'cf_serial', descending: false },
      }).rows.map((r) => r.id);
    const first = window(0);
    expect(calls).toBeGreaterThanOrEqual(480);
    calls = 0;
    const second = window(100);
    expect(calls).toBe(0);
    expect(new Set([...first, ...second]).size).toBe(200);
    mirror.records.writeCursor({ portalId: PORTAL, moduleId: MODULE, scanIndex: 2 });
    expect(window(100)).toEqual(second);
    expect(calls).toBeGreaterThanOrEqual(480);
  });
});
