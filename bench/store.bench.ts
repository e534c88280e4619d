/**
 * The mirror's store on a million records (`npm run bench:store`, through bench/store.mjs, which
 * runs this file with vitest because the mirror imports its SQL with Vite's `?raw`).
 *
 * In a fresh temporary data directory (the app's Store, every migration): one portal, the seed
 * catalog's `assets` module (every custom field type), and STORE_BENCH_RECORDS records (default
 * 1,000,000) in the API's shapes, upserted as the sync engine does: pages of 200, each in one
 * transaction with its cursor. Then query latencies, each query right after a write (so no
 * cached count helps it): an indexed filter, `contains` on the name, a multi-select's "includes"
 * (before any custom-field index: it reads record_multi_values), full-text search and a sorted
 * window of 100 rows at a deep offset. Then custom fields (`custom_fields`): the first
 * filter and sort answered without an index, the indexes built by the worker thread (how long,
 * how long the engine's thread was blocked, how long a write made meanwhile waited), the same
 * lists through the indexes, and the upsert rate with them. Writes one JSON object to
 * STORE_BENCH_OUT (or prints it when that is not set); asserts nothing.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { COMMENT_LINES } from '@portaldesk/emulator/model/seedCatalog';
import { CustomFieldIndexer } from '../src/main/store/mirror/customFieldIndexer';
import { Mirror } from '../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../src/main/store/mirror/mirrorTypes';
import { SettingsRepository } from '../src/main/store/settingsRepository';
import { Store } from '../src/main/store/store';
import { pullPages, timedPages } from './timedPages';
import {
  customFieldIndexWorkerScript,
  removeCustomFieldIndexWorkerBuild,
} from '../test/unit/store/mirror/customFieldIndexWorkerBuild';
import {
  MODULE,
  PORTAL,
  STATUS_IDS,
  ZPUIDS,
  generator,
  record,
  recordId,
  writeMetadata,
} from './syntheticRecords';

const RECORDS = Number(process.env.STORE_BENCH_RECORDS ?? 1_000_000);
const OUT = process.env.STORE_BENCH_OUT;
/** The API's largest page (spec: per_page up to 200): what the sync engine upserts at once. */
const PAGE = 200;
/** Every Nth record gets 1-3 comments (the emulator's seed gives 45% of records some). */
const COMMENTED_EVERY = 20;
const ITERATIONS = Number(process.env.STORE_BENCH_ITERATIONS ?? 40);
/** Runs of a custom-field list without its index (each reads every record's JSON: seconds). */
const UNINDEXED_RUNS = Number(process.env.STORE_BENCH_UNINDEXED_RUNS ?? 3);

/** Milliseconds of each run of `fn` (argument: the run's index), as p50/p95/max. */
function latencies(runs: number, before: () => void, fn: (i: number) => unknown) {
  const times: number[] = [];
  let last: unknown;
  for (let i = 0; i < runs; i++) {
    before();
    const started = performance.now();
    last = fn(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Number((times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? 0).toFixed(2));
  return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1), runs, last };
}

function rate(count: number, ms: number): number {
  return Math.round(count / (ms / 1000));
}

it('store benchmark', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-store-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  try {
    const mirror = new Mirror(store.db);
    writeMetadata(mirror, { accountId: 'bench' });

    // Upserts: what a full pull does, page by page with its cursor. Only the upsert is timed.
    // CPU time too: on a shared machine the wall time also holds other processes' turns.
    const loadBefore = os.loadavg()[0]!;
    const pull = timedPages(mirror, pullPages(RECORDS, PAGE), (i) => ({
      scanIndex: (i + 1) * PAGE,
      scanAfter: recordId((i + 1) * PAGE),
    }));
    let upsertMs = pull.wallMs;
    const upsertCpuUs = pull.cpuUs;
    // A pull indexes the text still waiting when it ends (syncModuleRecords): part of the upsert.
    const flushStarted = performance.now();
    mirror.fullText.flush();
    const flushMs = performance.now() - flushStarted;
    upsertMs += flushMs;

    // A repeated pull (nothing changed) and an incremental one (every record changed).
    const again: MirrorRecord[][] = [];
    for (let first = 0; first < Math.min(RECORDS, 20_000); first += PAGE) {
      again.push(Array.from({ length: PAGE }, (_, i) => record(first + i + 1)));
    }
    let repeatMs = 0;
    for (const batch of again) {
      const started = performance.now();
      mirror.records.upsertRecords(batch);
      repeatMs += performance.now() - started;
    }
    const newer = again.map((batch) =>
      batch.map((r) => ({
        ...r,
        name: `${r.name} (v2)`,
        lastUpdatedTime: '2026-03-06T00:00:00.000Z',
      })),
    );
    const changedMs = timedPages(mirror, newer, () => ({
      highWater: '2026-03-06T00:00:00.000Z',
    })).wallMs;
    const againRecords = again.length * PAGE;

    // Comments, one record at a time as the API gives them.
    const random = generator(7);
    let commentMs = 0;
    let comments = 0;
    for (let ordinal = COMMENTED_EVERY; ordinal <= RECORDS; ordinal += COMMENTED_EVERY) {
      const list = Array.from({ length: random.int(1, 3) }, (_, k) => ({
        id: String(1_200_000_000_000 + ordinal * 4 + k),
        content: random.pick(COMMENT_LINES),
        attachmentIds: [],
        createdBy: random.pick(ZPUIDS),
        createdTime: '2026-01-01T00:00:00.000Z',
        lastUpdatedTime: '2026-01-01T00:00:00.000Z',
      }));
      comments += list.length;
      const started = performance.now();
      mirror.comments.replaceRecordComments(PORTAL, recordId(ordinal), list);
      commentMs += performance.now() - started;
    }

    // Each query right after a write, as during a sync: no cached count.
    let bump = 0;
    const write = () => {
      mirror.records.writeCursor({ portalId: PORTAL, moduleId: MODULE, scanIndex: ++bump + 1 });
    };
    const list = (input: Partial<Parameters<Mirror['query']['queryRecords']>[0]>) =>
      mirror.query.queryRecords({
        portalId: PORTAL,
        moduleId: MODULE,
        offset: 0,
        limit: 100,
        ...input,
      });
    const filter = (criteria: object[]) => JSON.stringify({ criteria, pattern: '1' });
    const needles = ['think', 'router', 'dell lat', '#4242', 'docking st', 'ubiquiti'];
    const words = ['laptop', 'thinkpad monitor', 'vendor delivery', 'münchen', 'smudged', 'phone'];
    const deep = (i: number) =>
      Math.floor(RECORDS * 0.4 + ((i * 7919) % Math.floor(RECORDS * 0.5)));

    const indexed = latencies(
      ITERATIONS,
      write,
      (i) =>
        list({
          filter: filter([
            {
              field_name: 'status',
              criteria_condition: 'is',
              value: [STATUS_IDS[i % STATUS_IDS.length]],
            },
          ]),
        }).total,
    );
    const contains = latencies(
      ITERATIONS,
      write,
      (i) =>
        list({
          filter: filter([
            {
              field_name: 'name',
              criteria_condition: 'contains',
              value: [needles[i % needles.length]],
            },
          ]),
        }).total,
    );
    // Tags includes one of four options (each on about a quarter of the records).
    const multiSelect = latencies(
      ITERATIONS,
      write,
      (i) =>
        list({
          filter: filter([
            {
              field_name: 'cf_tags',
              criteria_condition: 'is',
              value: [String(1_000_001_000 + 3 * 100 + (i % 4))],
            },
          ]),
        }).total,
    );
    const search = latencies(
      ITERATIONS,
      write,
      (i) =>
        mirror.search.search({ portalId: PORTAL, text: words[i % words.length]!, limit: 50 })
          .length,
    );
    const windowByName = latencies(
      ITERATIONS,
      write,
      (i) => list({ sort: { field: 'name', descending: false }, offset: deep(i) }).rows.length,
    );
    const windowByUpdated = latencies(
      ITERATIONS,
      write,
      (i) =>
        list({ sort: { field: 'last_updated_time', descending: true }, offset: deep(i) }).rows
          .length,
    );
    // Scrolling: the same list again, no write in between, so its count is cached.
    const warmWindow = latencies(
      ITERATIONS,
      () => undefined,
      (i) => list({ sort: { field: 'name', descending: false }, offset: deep(i) }).rows.length,
    );
    const warmContains = latencies(
      ITERATIONS,
      () => undefined,
      (i) =>
        list({
          filter: filter([
            {
              field_name: 'name',
              criteria_condition: 'contains',
              value: [needles[i % needles.length]],
            },
          ]),
          offset: 100,
        }).rows.length,
    );

    const customFields = await benchCustomFields(store, mirror, write, list, filter);

    // Reconciliation: the server lists every id but ten.
    const listed = Array.from({ length: RECORDS }, (_, i) => recordId(i + 1));
    const gone = new Set(listed.filter((_, i) => i % Math.floor(RECORDS / 10) === 5));
    const reconcileStarted = performance.now();
    const reconciled = mirror.records.deleteRecordsNotIn(
      PORTAL,
      MODULE,
      listed.filter((id) => !gone.has(id)),
    );
    const reconcileMs = performance.now() - reconcileStarted;

    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = statSync(store.file).size;
    const strip = ({ last: _last, ...figures }: ReturnType<typeof latencies>) => figures;
    const result = {
      benchmark: 'store',
      node: process.version,
      cpus: os.cpus().length,
      records: RECORDS,
      page_size: PAGE,
      upsert_rps: rate(RECORDS, upsertMs),
      upsert_s: Number((upsertMs / 1000).toFixed(1)),
      upsert_cpu_rps: rate(RECORDS, upsertCpuUs / 1000),
      load_average: Number(loadBefore.toFixed(2)),
      // The two list filters issue 18 names, right after a write: the p95s of the objects below.
      multi_select_p95_ms: multiSelect.p95_ms,
      contains_p95_ms: contains.p95_ms,
      final_text_flush_ms: Math.round(flushMs),
      upsert_unchanged_rps: rate(againRecords, repeatMs),
      upsert_changed_rps: rate(againRecords, changedMs),
      comments,
      comments_per_s: rate(comments, commentMs),
      database_mb: Math.round(bytes / 1_048_576),
      reconcile: {
        listed_ids: RECORDS - gone.size,
        deleted: reconciled.records?.deleted.length ?? 0,
        ms: Math.round(reconcileMs),
      },
      indexed_filter: {
        ...strip(indexed),
        query: 'status is X, first 100 rows + total',
        matches: indexed.last,
      },
      contains_name: {
        ...strip(contains),
        query: 'name contains X, first 100 rows + total',
        matches: contains.last,
      },
      contains_name_cached_count: { ...strip(warmContains), query: 'next window, same filter' },
      multi_select: {
        ...strip(multiSelect),
        query: 'tags include X, first 100 rows + total',
        matches: multiSelect.last,
      },
      fts_search: {
        ...strip(search),
        query: 'words in names, descriptions, comments; 50 hits',
        hits: search.last,
      },
      sorted_window_name: { ...strip(windowByName), query: 'by name, 100 rows at offset 40-90%' },
      sorted_window_name_cached_count: { ...strip(warmWindow), query: 'same, scrolling' },
      sorted_window_updated: {
        ...strip(windowByUpdated),
        query: 'by last_updated_time desc, 100 rows at offset 40-90%',
      },
      custom_fields: customFields,
    };
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

type List = (
  input: Partial<Parameters<Mirror['query']['queryRecords']>[0]>,
) => ReturnType<Mirror['query']['queryRecords']>;

/**
 * Custom-field lists before and after their indexes: what bench:ui's custom filter and sort do.
 * Each query right after a write (no cached count), as the others.
 */
async function benchCustomFields(
  store: Store,
  mirror: Mirror,
  write: () => void,
  list: List,
  filter: (criteria: object[]) => string,
) {
  const strip = ({ last: _last, ...figures }: ReturnType<typeof latencies>) => figures;
  const categories = ['Hardware', 'Peripheral', 'Network', 'Mobile', 'Furniture'];
  const filters: Record<string, (i: number) => string> = {
    pick_list_is: (i) =>
      filter([{ field_name: 'cf_category', criteria_condition: 'is', value: [categories[i % 5]] }]),
    currency_between: (i) =>
      filter([
        {
          field_name: 'cf_cost',
          criteria_condition: 'between',
          value: [String(1000 + (i % 7) * 5000), String(3000 + (i % 7) * 5000)],
        },
      ]),
    pick_list_and_status: (i) =>
      JSON.stringify({
        criteria: [
          { field_name: 'cf_category', criteria_condition: 'is', value: [categories[i % 5]] },
          { field_name: 'status', criteria_condition: 'is', value: [STATUS_IDS[i % 3]] },
        ],
        pattern: '1 AND 2',
      }),
    multi_select_holds: (i) =>
      filter([
        {
          field_name: 'cf_tags',
          criteria_condition: 'is',
          value: [String(1_000_001_000 + 3 * 100 + (i % 4))],
        },
      ]),
  };
  // Four expressions in all (the category folded, the cost, the tags, the serial folded): the
  // indexes a module keeps (MAX_CUSTOM_FIELD_INDEXES_PER_MODULE).
  const sorts: Record<string, string> = { currency: 'cf_cost', single_line: 'cf_serial_number' };
  const filtered = (name: string, runs: number) =>
    latencies(runs, write, (i) => list({ filter: filters[name]!(i) }).total);
  const sorted = (field: string, runs: number) =>
    latencies(runs, write, (i) => list({ sort: { field, descending: i % 2 === 1 } }).rows.length);

  // Without indexes: every record's JSON read on the engine's thread.
  const unindexed = {
    filter_pick_list_is: strip(filtered('pick_list_is', UNINDEXED_RUNS)),
    sort_currency: strip(sorted('cf_cost', UNINDEXED_RUNS)),
  };

  // Changed records upserted without custom indexes: the baseline for the rate with them.
  const changedUpsert = (version: number) => {
    const batches = Array.from({ length: 50 }, (_, b) =>
      Array.from({ length: PAGE }, (_, i) => {
        const r = record(b * PAGE + i + 1);
        const cost = r.custom.cf_cost as { amount: number } | null;
        return {
          ...r,
          name: `${r.name} (v${version})`,
          lastUpdatedTime: `2026-03-0${version}T00:00:00.000Z`,
          custom: { ...r.custom, cf_cost: cost && { ...cost, amount: cost.amount + version } },
        };
      }),
    );
    const { wallMs } = timedPages(mirror, batches, () => ({
      highWater: `2026-03-0${version}T00:00:00.000Z`,
    }));
    return rate(batches.length * PAGE, wallMs);
  };
  const upsertWithout = changedUpsert(7);

  // The indexes: requested by the lists' first runs (all already done above for two of them).
  const indexer = CustomFieldIndexer.attach(mirror.query, {
    db: store.db,
    file: store.file,
    workerScript: await customFieldIndexWorkerScript(),
  });
  const firstLists: Record<string, number> = {};
  const requested = performance.now();
  for (const name of Object.keys(filters)) {
    const started = performance.now();
    list({ filter: filters[name]!(0) });
    firstLists[`filter_${name}`] = Math.round(performance.now() - started);
  }
  for (const [name, field] of Object.entries(sorts)) {
    const started = performance.now();
    list({ sort: { field, descending: false } });
    firstLists[`sort_${name}`] = Math.round(performance.now() - started);
  }
  const listsMs = performance.now() - requested;
  // The engine's thread while the worker builds (the first lists above ran before: not counted).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // Two writes while the first index builds (after the quiet second the indexer waits for): a
  // cursor write, a transaction that reads first (SQLite refuses it at once while another
  // connection holds the write lock), then one that writes first (it waits for the commit).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const settings = new SettingsRepository(store.db);
  const probe = (fn: () => void) => {
    const started = performance.now();
    try {
      fn();
      return { ms: Math.round(performance.now() - started), error: null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ms: Math.round(performance.now() - started), error: message };
    }
  };
  const buildingAtWrite = indexer.building;
  const readThenWrite = probe(write);
  const writeFirst = probe(() => settings.write({ theme: 'dark' }));
  await indexer.whenIdle();
  loop.disable();
  const builds = indexer.builds();

  const indexed = {
    filter: Object.fromEntries(
      Object.keys(filters).map((name) => [name, strip(filtered(name, ITERATIONS))]),
    ),
    sort: Object.fromEntries(
      Object.entries(sorts).map(([name, field]) => [name, strip(sorted(field, ITERATIONS))]),
    ),
    sort_deep_window: strip(
      latencies(
        ITERATIONS,
        write,
        (i) =>
          list({
            sort: { field: 'cf_cost', descending: false },
            offset: Math.floor(RECORDS * 0.4 + ((i * 7919) % Math.floor(RECORDS * 0.5))),
          }).rows.length,
      ),
    ),
  };
  const upsertWith = changedUpsert(8);
  indexer.close();
  removeCustomFieldIndexWorkerBuild();
  const p95s = (group: Record<string, { p95_ms: number }>) =>
    Math.max(...Object.values(group).map((g) => g.p95_ms));
  return {
    // Single-valued fields (ranges of their index); multi-selects scan their index's JSON lists.
    custom_filter_p95_ms: p95s({
      a: indexed.filter.pick_list_is!,
      b: indexed.filter.currency_between!,
      c: indexed.filter.pick_list_and_status!,
    }),
    custom_multi_select_filter_p95_ms: indexed.filter.multi_select_holds!.p95_ms,
    custom_sort_p95_ms: p95s(indexed.sort),
    index_build_ms: builds.map((b) => Math.round(b.lockedMs)),
    index_build_total_ms: Math.round(Math.max(...builds.map((b) => b.totalMs))),
    indexes: builds.map((b) => b.expression),
    unindexed,
    first_lists_ms: firstLists,
    first_lists_total_ms: Math.round(listsMs),
    // The engine's thread while the worker built: its longest stall, the write's wait included.
    event_loop_max_ms_while_building: Number((loop.max / 1e6).toFixed(1)),
    writes_during_build: { while_building: buildingAtWrite, writeFirst, readThenWrite },
    indexed,
    upsert_changed_rps_without_custom_indexes: upsertWithout,
    upsert_changed_rps_with_custom_indexes: upsertWith,
  };
}
