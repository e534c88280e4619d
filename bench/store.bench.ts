/**
 * The mirror's store on a million records (`npm run bench:store`, through bench/store.mjs, which
 * runs this file with vitest because the mirror imports its SQL with Vite's `?raw`).
 *
 * In a fresh temporary data directory (the app's Store, every migration): one portal, the seed
 * catalog's `assets` module (every custom field type), and STORE_BENCH_RECORDS records (default
 * 1,000,000) in the API's shapes, upserted as the sync engine does: pages of 200, each in one
 * transaction with its cursor. Then query latencies, each query right after a write (so no
 * cached count helps it): an indexed filter, `contains` on the name, full-text search and a
 * sorted window of 100 rows at a deep offset. Writes one JSON object to STORE_BENCH_OUT (or
 * prints it when that is not set); asserts nothing.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import type { CustomFieldType } from '../src/shared/domain/customFieldTypes';
import {
  COMMENT_LINES,
  CURRENCIES,
  MODULES,
  PEOPLE,
  SENTENCES,
  type SeedField,
} from '../src/emulator/model/seedCatalog';
import { Mirror } from '../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../src/main/store/mirror/mirrorTypes';
import { Store } from '../src/main/store/store';

const RECORDS = Number(process.env.STORE_BENCH_RECORDS ?? 1_000_000);
const OUT = process.env.STORE_BENCH_OUT;
/** The API's largest page (spec: per_page up to 200): what the sync engine upserts at once. */
const PAGE = 200;
/** Every Nth record gets 1-3 comments (the emulator's seed gives 45% of records some). */
const COMMENTED_EVERY = 20;
const ITERATIONS = Number(process.env.STORE_BENCH_ITERATIONS ?? 40);
const PORTAL = '1000000000001';
const MODULE = '1000000000002';
const DAY_MS = 86_400_000;
const ANCHOR = Date.parse('2026-03-05T00:00:00.000Z');

const ASSETS = MODULES[0]!;
const ZPUIDS = PEOPLE.map((_, i) => String(4_000_000_000 + i));
const STATUS_IDS = ASSETS.statuses.map((_, i) => String(2_000_000_000 + i));
const optionIds = new Map<string, string[]>();

/** Deterministic numbers (mulberry32), so every run measures the same data. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

type Random = ReturnType<typeof generator>;

/** A value in the shape the API shows (as the emulator's seed makes them, then shows them). */
function value(random: Random, field: SeedField, created: number): unknown {
  const type: CustomFieldType = field.type;
  const user = () => {
    const i = random.int(0, PEOPLE.length - 1);
    return { zpuid: ZPUIDS[i], name: PEOPLE[i]!.join(' ') };
  };
  switch (type) {
    case 'single_line':
      return `SN-${random.int(10_000_000, 99_999_999).toString(36).toUpperCase()}`;
    case 'multi_line':
      return Array.from({ length: random.int(1, 3) }, () => random.pick(SENTENCES)).join('\n');
    case 'pick_list':
      return random.pick(field.options ?? []);
    case 'multi_select':
      return (field.options ?? []).filter(() => random.chance(0.3));
    case 'user_pick_list':
      return user();
    case 'multi_user':
      return Array.from({ length: random.int(1, 3) }, user);
    case 'date':
      return new Date(created + random.int(-200, 400) * DAY_MS).toISOString().slice(0, 10);
    case 'time':
      return `${String(random.int(7, 19)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45'])}`;
    case 'timestamp':
      return new Date(created + random.int(0, 120) * DAY_MS).toISOString();
    case 'check_box':
      return random.chance(0.5);
    case 'currency': {
      const amount = random.int(2_000, 5_000_000) / 100;
      const code = random.pick(CURRENCIES);
      return { currency_code: code, formatted_amount: `${code} ${amount.toFixed(2)}`, amount };
    }
    case 'percentage':
      return random.int(0, 100);
    case 'number':
      return random.int(1, 500);
    case 'decimal':
      return random.int(10, 50_000) / 100;
    case 'email':
      return `${random.pick(['sales', 'support', 'billing'])}@${random.pick(['bluefin', 'redwood'])}.example`;
    case 'phone':
      return `+1 555 ${random.int(100, 999)} ${random.int(1000, 9999)}`;
    case 'url':
      return `https://docs.example.com/${field.apiName.replace('cf_', '')}/${random.int(100, 999)}`;
  }
}

/** Record `ordinal`, the same on every call (a repeated pull sees the same data). */
function record(ordinal: number): MirrorRecord {
  const random = generator(ordinal);
  const created = ANCHOR - random.int(0, 730 * DAY_MS);
  const status = random.int(0, STATUS_IDS.length - 1);
  const custom: Record<string, unknown> = {};
  for (const field of ASSETS.fields) {
    custom[field.apiName] =
      !field.mandatory && random.chance(0.15) ? null : value(random, field, created);
  }
  return {
    portalId: PORTAL,
    moduleId: MODULE,
    id: String(1_100_000_000_000 + ordinal),
    name: `${random.pick(ASSETS.adjectives)} ${random.pick(ASSETS.nouns)} #${ordinal}`,
    description: Array.from({ length: random.int(0, 3) }, () => random.pick(SENTENCES)).join(' '),
    statusId: STATUS_IDS[status]!,
    layoutId: '1000000000003',
    projectId: random.chance(0.8) ? '1000000000004' : null,
    projectName: 'Warehouse Automation',
    ownerZpuid: random.pick(ZPUIDS),
    isClosed: ASSETS.statuses[status]!.closed,
    isExternal: random.chance(0.05),
    createdTime: new Date(created).toISOString(),
    lastUpdatedTime: new Date(Math.min(ANCHOR, created + random.int(0, 90) * DAY_MS)).toISOString(),
    trashedTime: null,
    custom,
  };
}

function mirrorMetadata(mirror: Mirror): void {
  mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'bench',
      dc: 'us',
      name: 'northwind',
      orgName: 'Northwind Traders',
      timeZone: 'Asia/Kolkata',
      weekStartDay: 1,
      isDefault: true,
      details: {},
    },
  ]);
  mirror.metadata.upsertUsers(
    PORTAL,
    PEOPLE.map(([first, last], i) => ({
      zpuid: ZPUIDS[i]!,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}@portaldesk.demo`,
    })),
  );
  mirror.metadata.replaceModules(PORTAL, [
    {
      id: MODULE,
      apiName: ASSETS.apiName,
      singularName: ASSETS.singular,
      pluralName: ASSETS.plural,
      iconClass: ASSETS.icon,
      isActive: true,
      isDefault: false,
      createdTime: null,
      details: {},
    },
  ]);
  mirror.metadata.replaceFields(
    PORTAL,
    MODULE,
    ASSETS.fields.map((field, i) => ({
      id: String(1_000_000_100 + i),
      apiName: field.apiName,
      displayName: field.label,
      fieldType: field.type,
      dataType: field.type,
      isDefault: false,
      isMandatory: field.mandatory === true,
      fieldProperty: {},
      createdTime: null,
    })),
  );
  mirror.metadata.replaceStatuses(
    PORTAL,
    MODULE,
    ASSETS.statuses.map((status, i) => ({
      id: STATUS_IDS[i]!,
      name: status.name,
      color: status.color,
      isClosedType: status.closed,
      isDefault: i === 0,
      position: i + 1,
      transitions: STATUS_IDS.filter((_, j) => j !== i),
    })),
  );
  ASSETS.fields.forEach((field, i) => {
    if (!field.options) return;
    const ids = field.options.map((_, j) => String(1_000_001_000 + i * 100 + j));
    optionIds.set(field.apiName, ids);
    mirror.metadata.replaceFieldOptions(
      PORTAL,
      String(1_000_000_100 + i),
      field.options.map((option, j) => ({
        kind: 'custom_option' as const,
        valueId: ids[j]!,
        value: option,
        layoutId: null,
        position: j + 1,
      })),
    );
  });
}

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

it('store benchmark', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-store-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  try {
    const mirror = new Mirror(store.db);
    mirrorMetadata(mirror);

    // Upserts: what a full pull does, page by page with its cursor. Only the upsert is timed.
    // CPU time too: on a shared machine the wall time also holds other processes' turns.
    let upsertMs = 0;
    let upsertCpuUs = 0;
    const loadBefore = os.loadavg()[0]!;
    for (let first = 0, page = 1; first < RECORDS; first += PAGE, page++) {
      const batch: MirrorRecord[] = [];
      for (let i = first; i < Math.min(RECORDS, first + PAGE); i++) batch.push(record(i + 1));
      const cpu = process.cpuUsage();
      const started = performance.now();
      mirror.records.upsertRecordPage(batch, {
        portalId: PORTAL,
        moduleId: MODULE,
        nextPage: page + 1,
      });
      upsertMs += performance.now() - started;
      const used = process.cpuUsage(cpu);
      upsertCpuUs += used.user + used.system;
    }
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
    let changedMs = 0;
    for (const batch of newer) {
      const started = performance.now();
      mirror.records.upsertRecordPage(batch, {
        portalId: PORTAL,
        moduleId: MODULE,
        highWater: '2026-03-06T00:00:00.000Z',
      });
      changedMs += performance.now() - started;
    }
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
      mirror.comments.replaceRecordComments(PORTAL, String(1_100_000_000_000 + ordinal), list);
      commentMs += performance.now() - started;
    }

    // Each query right after a write, as during a sync: no cached count.
    let bump = 0;
    const write = () => {
      mirror.records.writeCursor({ portalId: PORTAL, moduleId: MODULE, nextPage: ++bump + 1 });
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

    // Reconciliation: the server lists every id but ten.
    const listed = Array.from({ length: RECORDS }, (_, i) => String(1_100_000_000_000 + i + 1));
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
    };
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
