/**
 * Where the mirror's upsert time goes (`npm run bench:store:breakdown`, through
 * bench/storeBreakdown.mjs): the same pull as bench/store.bench.ts (pages of 200 synthetic records,
 * each upserted with its cursor by the app's RecordRepository) into a fresh store per variant,
 * each variant taking one cost away from the schema the app ships. What a variant gains over
 * `as_built` is what that part costs; `no_list_indexes_no_full_text` is the floor of the row
 * itself (the table, its unique (portal_id, id) key and the binding of one row), which bounds any
 * redesign that keeps one row per record in SQLite. Writes one JSON object to BREAKDOWN_BENCH_OUT
 * (or prints it); asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { Mirror } from '../src/main/store/mirror/mirror';
import { Store } from '../src/main/store/store';
import { recordId, writeMetadata } from './syntheticRecords';
import { pullPages, timedPages } from './timedPages';

const RECORDS = Number(process.env.BREAKDOWN_BENCH_RECORDS ?? 300_000);
const OUT = process.env.BREAKDOWN_BENCH_OUT;
/** Comma-separated variant names to run (default: all), e.g. to profile one. */
const ONLY = process.env.BREAKDOWN_BENCH_ONLY?.split(',');
/** What the sync engine upserts at once (spec: per_page up to 200). */
const PAGE = 200;

interface Variant {
  /** Indexes dropped from the app's schema before the pull. */
  drop: readonly string[];
  /** Indexes created before the pull (ones the app no longer has, to tell what they cost). */
  create?: readonly string[];
  /** Records per transaction. */
  page: number;
  fullText: boolean;
}

const LIST_INDEXES = [
  'records_by_id',
  'records_by_name_sort',
  'records_by_created',
  'records_by_updated',
  'records_by_status',
];

const VARIANTS: Record<string, Variant> = {
  as_built: { drop: [], page: PAGE, fullText: true },
  pages_of_1000: { drop: [], page: 1_000, fullText: true },
  pages_of_2000: { drop: [], page: 2_000, fullText: true },
  no_name_updated_orders: {
    drop: ['records_by_name_sort', 'records_by_updated'],
    page: PAGE,
    fullText: true,
  },
  // The name index migration 0029 dropped (an `is` filter seeks records_by_name_sort since).
  with_records_by_name: {
    drop: [],
    create: ['records_by_name ON records (module_key, list_state, name_fold, id)'],
    page: PAGE,
    fullText: true,
  },
  // One list index each, to tell what each costs the upsert.
  no_records_by_name_sort: { drop: ['records_by_name_sort'], page: PAGE, fullText: true },
  no_records_by_created: { drop: ['records_by_created'], page: PAGE, fullText: true },
  no_records_by_updated: { drop: ['records_by_updated'], page: PAGE, fullText: true },
  no_list_indexes: { drop: LIST_INDEXES, page: PAGE, fullText: true },
  no_list_indexes_no_full_text: { drop: LIST_INDEXES, page: PAGE, fullText: false },
};

/** Records per second of wall time and of this process's CPU time for one variant's pull. */
function pull(variant: Variant): { rps: number; cpu_rps: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-breakdown-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  try {
    const mirror = new Mirror(store.db);
    writeMetadata(mirror, { accountId: 'bench' });
    for (const index of variant.drop) store.db.exec(`DROP INDEX ${index}`);
    for (const index of variant.create ?? []) store.db.exec(`CREATE INDEX ${index}`);
    if (!variant.fullText) mirror.fullText.flushIfDue = () => undefined;
    const pull = timedPages(mirror, pullPages(RECORDS, variant.page), (i) => ({
      scanIndex: (i + 1) * variant.page,
      scanAfter: recordId((i + 1) * variant.page),
    }));
    // A pull indexes the text still waiting when it ends (syncModuleRecords): part of the upsert.
    if (variant.fullText) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      mirror.fullText.flush();
      pull.wallMs += performance.now() - started;
      const used = process.cpuUsage(cpu);
      pull.cpuUs += used.user + used.system;
    }
    const { wallMs, cpuUs } = pull;
    return {
      rps: Math.round(RECORDS / (wallMs / 1000)),
      cpu_rps: Math.round(RECORDS / (cpuUs / 1_000_000)),
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

it('store upsert breakdown', () => {
  const loadBefore = os.loadavg()[0]!;
  const variants = Object.fromEntries(
    Object.entries(VARIANTS)
      .filter(([name]) => !ONLY || ONLY.includes(name))
      .map(([name, variant]) => [name, pull(variant)]),
  );
  const result = {
    benchmark: 'store_breakdown',
    node: process.version,
    cpus: os.cpus().length,
    records: RECORDS,
    load_average: Number(loadBefore.toFixed(2)),
    variants,
  };
  const line = JSON.stringify(result);
  if (OUT) writeFileSync(OUT, line);
  else console.log(line);
});
