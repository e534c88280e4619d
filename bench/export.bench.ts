/**
 * The records export on a million records (`npm run bench:export`, through bench/export.mjs,
 * which runs this file with vitest because the mirror imports its SQL with Vite's `?raw`).
 *
 * In a fresh temporary data directory (the app's Store, every migration): one portal, the seed
 * catalog's `assets` module (every custom field type) and EXPORT_BENCH_ROWS records (default
 * 1,000,000, bench/syntheticRecords.ts). Then the whole module, sorted by name, exported through
 * the engine's RecordsExports service as the table shows it (the default columns: name, status,
 * owner, last updated and six custom fields), once to CSV and once to XLSX. The heap is sampled
 * every 20 ms while each runs; `heap_growth_mb` is the peak over the heap just before the first
 * export (the engine thread's heap; `rss_growth_mb` counts the export's threads too, and the store's
 * file pages they map; `rss_anon_growth_mb` leaves those out; `threads_cpu` is each thread's CPU
 * time, the engine's and the busiest others: the export thread and its helpers). The engine
 * thread's event loop is watched meanwhile: `loop_max_ms` is the longest it was held, which a
 * `records.query` would have waited. EXPORT_BENCH_WHERE: `thread` (the built app's way, the
 * worker bundled from its sources; default) or `engine` (on the engine's thread, as under
 * vitest). EXPORT_BENCH_SORT: the field sorted by (default `name`). EXPORT_BENCH_HELPERS: the
 * export thread's helper threads (default: the app's choice for this machine, exportHelperCount;
 * 0: the export thread reads and encodes every batch itself). Writes one JSON object to
 * EXPORT_BENCH_OUT (or prints it); asserts nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { EventHub } from '../src/main/bridge/eventHub';
import { EXPORTS_FOLDER } from '../src/main/recordsExport/exportFiles';
import { exportHelperCount } from '../src/main/recordsExport/exportHelpers';
import { threadExportStarter } from '../src/main/recordsExport/exportThread';
import { RecordsExports } from '../src/main/recordsExport/recordsExports';
import { RecordsReader } from '../src/main/records/recordsReader';
import { Mirror } from '../src/main/store/mirror/mirror';
import { Store } from '../src/main/store/store';
import type { ExportFormat } from '../src/shared/ipc/areas/recordsExport';
import { workerBundle } from '../test/support/workerBundle';
import { startCpuProfile } from './cpuProfile';
import { threadCpuSeconds, threadCpuSince, type ThreadTime } from './threadCpu';
import { MODULE, PORTAL, record, writeMetadata } from './syntheticRecords';

const ROWS = Number(process.env.EXPORT_BENCH_ROWS ?? 1_000_000);
const OUT = process.env.EXPORT_BENCH_OUT;
const WHERE = process.env.EXPORT_BENCH_WHERE === 'engine' ? 'engine' : 'thread';
const SORT = process.env.EXPORT_BENCH_SORT ?? 'name';
/** Helper threads per export (`thread` only; default: as the app chooses for this machine). */
const HELPERS =
  process.env.EXPORT_BENCH_HELPERS === undefined || process.env.EXPORT_BENCH_HELPERS === ''
    ? exportHelperCount(os.availableParallelism())
    : Number(process.env.EXPORT_BENCH_HELPERS);
/** In a kept mirror's folder once it holds its records (EXPORT_BENCH_MIRROR). */
const FILLED_MARK = 'bench-filled';
/** Records upserted per transaction while filling the mirror (not measured). */
const FILL_PAGE = 1000;
const MB = 1024 * 1024;

/**
 * The process's anonymous resident memory (Linux's RssAnon: what it allocated, heaps and page
 * caches), apart from the file pages it maps (the export's connections map the store's file,
 * pages the OS shares and takes back); 0 off Linux.
 */
function anonResidentBytes(): number {
  try {
    const match = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

it('export benchmark', async () => {
  // EXPORT_BENCH_MIRROR=DIR: the mirror filled once into DIR and kept for the next runs (two
  // versions of the code compared one after the other meet the same file); else a fresh one.
  const kept = process.env.EXPORT_BENCH_MIRROR;
  const dir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-export-'));
  const filled = kept !== undefined && existsSync(path.join(dir, FILLED_MARK));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  try {
    const mirror = new Mirror(store.db);
    const fillStarted = performance.now();
    if (!filled) {
      writeMetadata(mirror, { accountId: 'bench' });
      for (let first = 1; first <= ROWS; first += FILL_PAGE) {
        const count = Math.min(FILL_PAGE, ROWS - first + 1);
        mirror.records.upsertRecords(Array.from({ length: count }, (_, i) => record(first + i)));
      }
      if (kept !== undefined) writeFileSync(path.join(dir, FILLED_MARK), String(ROWS));
    }
    const fillMs = performance.now() - fillStarted;

    const fields = new RecordsReader(store.db, mirror).columns(PORTAL, MODULE).fields;
    const columns = [
      'name',
      'status',
      'owner',
      'last_updated_time',
      ...fields.filter((f) => !f.system).map((f) => f.key),
    ].slice(0, 10);
    const bundle = workerBundle('src/main/recordsExport/exportWorker.ts');
    const exports = new RecordsExports({
      db: store.db,
      mirror,
      dataDir: dir,
      events: new EventHub(),
      ...(WHERE === 'thread'
        ? {
            starter: threadExportStarter({
              script: await bundle.script(),
              file: store.file,
              helpers: HELPERS,
            }),
          }
        : {}),
    });

    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    let peakHeap = heapBefore;
    let peakRss = rssBefore;
    /** The peak of the run under way (each run's own `rss_growth_mb`). */
    let runPeakRss = rssBefore;
    let runPeakAnon = anonResidentBytes();
    const sampler = setInterval(() => {
      const memory = process.memoryUsage();
      peakHeap = Math.max(peakHeap, memory.heapUsed);
      peakRss = Math.max(peakRss, memory.rss);
      runPeakRss = Math.max(runPeakRss, memory.rss);
      runPeakAnon = Math.max(runPeakAnon, anonResidentBytes());
    }, 20);

    const run = async (format: ExportFormat) => {
      // EXPORT_BENCH_PROFILE=FILE: a CPU profile of this thread over each export (FILE.csv, …).
      const profileTo = process.env.EXPORT_BENCH_PROFILE;
      const profile = await startCpuProfile(profileTo ? `${profileTo}.${format}` : undefined);
      const loadBefore = os.loadavg()[0]!;
      const cpuBefore = process.cpuUsage();
      const runRssBefore = process.memoryUsage().rss;
      runPeakRss = runRssBefore;
      const runAnonBefore = anonResidentBytes();
      runPeakAnon = runAnonBefore;
      // Each thread's CPU, read every 100 ms: the export's threads end with it, and a thread's
      // time is in /proc only while it runs (the last 100 ms of each may be missed).
      const threadsBefore = threadCpuSeconds();
      const threadsSeen = new Map<number, ThreadTime>(threadsBefore);
      const threadSampler = setInterval(() => {
        for (const [id, time] of threadCpuSeconds()) threadsSeen.set(id, time);
      }, 100);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const started = performance.now();
      const first = await exports.start({
        portalId: PORTAL,
        moduleId: MODULE,
        sort: { field: SORT, descending: false },
        columns,
        format,
        values: 'shown',
        locale: 'en-US',
      });
      const keysMs = performance.now() - started;
      await exports.idle();
      const ms = performance.now() - started;
      loop.disable();
      clearInterval(threadSampler);
      for (const [id, time] of threadCpuSeconds()) threadsSeen.set(id, time);
      await profile.stop();
      // Process CPU: both threads when the export has its own.
      const cpu = process.cpuUsage(cpuBefore);
      const file = path.join(exports.folder, first.fileName);
      return {
        rows: first.total,
        ms: Math.round(ms),
        keys_ms: Math.round(keysMs),
        cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
        bytes: statSync(file).size,
        rows_per_s: Math.round(first.total / (ms / 1000)),
        loop_max_ms: Math.round(loop.max / 1e6),
        threads_cpu: threadCpuSince(threadsBefore, threadsSeen, 4),
        rss_growth_mb: Math.round((runPeakRss - runRssBefore) / MB),
        rss_anon_growth_mb: Math.round((runPeakAnon - runAnonBefore) / MB),
        load_before: Number(loadBefore.toFixed(2)),
      };
    };

    const csv = await run('csv');
    const xlsx = await run('xlsx');
    clearInterval(sampler);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);

    const result = {
      rows: ROWS,
      csv_rows_per_s: csv.rows_per_s,
      xlsx_rows_per_s: xlsx.rows_per_s,
      peak_heap_mb: Math.round(peakHeap / MB),
      heap_growth_mb: Math.round((peakHeap - heapBefore) / MB),
      rss_growth_mb: Math.round((peakRss - rssBefore) / MB),
      where: WHERE,
      helpers: WHERE === 'thread' ? HELPERS : 0,
      sort: SORT,
      columns: columns.length,
      fill_ms: Math.round(fillMs),
      csv,
      xlsx,
      cpus: os.cpus().length,
      load_after: Number(os.loadavg()[0]!.toFixed(2)),
    };
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
    bundle.remove();
  } finally {
    store.close();
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
    else rmSync(path.join(dir, EXPORTS_FOLDER), { recursive: true, force: true });
  }
});
