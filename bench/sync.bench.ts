/**
 * The sync engine at the rate limit's ceiling (`npm run bench:sync`, through bench/sync.mjs,
 * which runs this file with vitest because the mirror imports its SQL with Vite's `?raw`).
 *
 * Spawns the built emulator (out/main/emulator.js) with SYNC_BENCH_RECORDS records (in
 * SYNC_BENCH_PORTALS portals of SYNC_BENCH_MODULES modules, when set) and its rate limit on (200
 * calls per 2 minutes per endpoint key, every duration shortened by SYNC_BENCH_TIME_SCALE), signs
 * in through its Self Client, then runs a full sync and an incremental sync of the account into a
 * fresh mirror, every request through the real RequestScheduler. Writes one JSON object to
 * SYNC_BENCH_OUT (or prints it):
 *
 * - `records`: records in the mirror afterwards; `calls`: API calls the emulator answered
 * - `keys`: record-list endpoint keys called (one per portal: bench/syncFigures.ts), `key_windows_min`
 *   the windows of 200 calls the least used of them needed
 * - `throttled`: 429s the emulator sent (target 0)
 * - `wall_s`: the two syncs, in real seconds
 * - `ceiling_s`: the earliest the rate limit lets the last call of the busiest endpoint key go,
 *   (⌈calls ÷ 200⌉ − 1) × (120 s ÷ time scale); `ratio` = ceiling_s ÷ wall_s (target ≥ 0.9)
 * - `client_cpu_us_per_record`: this process's CPU time (user + system) over the two syncs ÷
 *   `records` (reading, parsing, mapping and storing); `client_cpu_s` the total
 * - `emulator_cpu_s`: the emulator process's CPU time over the same syncs (null off Linux): it
 *   shares the machine's cores, so the reader can tell whose time the wall time was
 *
 * The comment backfill (not part of a sync's "done") is off; each run reads the comments of up to
 * COMMENTS_PER_RUN changed records per portal, as the app does.
 *
 * For looking into a result: SYNC_BENCH_TRACE=1 prints, once a second, each records key's budget
 * and this process's CPU use to stderr (and adds `peak_rss_mb`); SYNC_BENCH_PROFILE=FILE writes a
 * CPU profile of the two syncs (.cpuprofile, for Chrome's DevTools).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { rateCeilingSeconds } from '../src/main/api/rateCeiling';
import { SPEC_RATE_LIMIT } from '../src/main/api/rateBudget';
import { RequestScheduler } from '../src/main/api/requestScheduler';
import { systemClock } from '../src/main/api/schedulerClock';
import { Store } from '../src/main/store/store';
import type { SyncResult } from '../src/main/sync/syncTypes';
import { startCpuProfile } from './cpuProfile';
import { benchSyncEngine } from './benchSyncEngine';
import { startBenchEmulator } from './startBenchEmulator';
import { cpuMicrosSince, recordKeyFigures } from './syncFigures';

const RECORDS = Number(process.env.SYNC_BENCH_RECORDS ?? 100_000);
const TIME_SCALE = Number(process.env.SYNC_BENCH_TIME_SCALE ?? 10);
/** The emulator's --portals and --modules; unset or empty: its demo layout. */
const PORTALS = process.env.SYNC_BENCH_PORTALS ? Number(process.env.SYNC_BENCH_PORTALS) : undefined;
const MODULES = process.env.SYNC_BENCH_MODULES ? Number(process.env.SYNC_BENCH_MODULES) : undefined;
const OUT = process.env.SYNC_BENCH_OUT;
const SCOPES = 'PMS.portals.ALL,PMS.custom_fields.ALL';

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

it('syncs an account at the rate limit ceiling', async () => {
  const emulator = await startBenchEmulator({
    records: RECORDS,
    timeScale: TIME_SCALE,
    ...(PORTALS === undefined ? {} : { portals: PORTALS }),
    ...(MODULES === undefined ? {} : { modules: MODULES }),
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-sync-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  const scheduler = new RequestScheduler({ clock: systemClock });
  let bench: Awaited<ReturnType<typeof benchSyncEngine>> | undefined;
  try {
    bench = await benchSyncEngine({ emulator, store, scheduler, scopes: SCOPES });
    const { engine, warnings } = bench;
    const { account } = bench;
    // SYNC_BENCH_TRACE=1: once a second, each records key's budget and this process's CPU use.
    const trace: string[] = [];
    let cpu = process.cpuUsage();
    let peakRss = 0;
    const t0 = performance.now();
    const tracer = process.env.SYNC_BENCH_TRACE
      ? setInterval(() => {
          const used = process.cpuUsage(cpu);
          cpu = process.cpuUsage();
          const keys = scheduler
            .report()
            .filter((r) => r.key.endsWith('/entities' + r.key.slice(r.key.lastIndexOf(' '))))
            .map(
              (r) =>
                `${r.key.slice(-4)} spent=${r.spent} left=${r.remaining} q=${r.queued} fly=${r.inFlight}`,
            );
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          trace.push(
            `${((performance.now() - t0) / 1000).toFixed(1)}s cpu=${Math.round((used.user + used.system) / 10_000)}% ${keys.join(' | ')}`,
          );
        }, 1000)
      : null;
    const profile = await startCpuProfile(process.env.SYNC_BENCH_PROFILE);
    const cpuBefore = process.cpuUsage();
    const emulatorCpuBefore = emulator.cpuSeconds();
    const began = performance.now();
    const full: SyncResult = await engine.syncAccount(account).done;
    const fullS = (performance.now() - began) / 1000;
    const incremental: SyncResult = await engine.syncAccount(account).done;
    const wallS = (performance.now() - began) / 1000;
    const clientCpuUs = cpuMicrosSince(cpuBefore);
    const emulatorCpuAfter = emulator.cpuSeconds();
    await profile.stop();

    const stats = await emulator.stats();
    const apiKeys = Object.entries(stats.apiCallsPerKey);
    const [busiestKey, busiestCalls] = apiKeys.reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0]);
    const windowS = SPEC_RATE_LIMIT.windowMs / 1000 / TIME_SCALE;
    const ceilingS = rateCeilingSeconds(
      apiKeys.map(([, calls]) => calls),
      SPEC_RATE_LIMIT.calls,
      windowS,
    );
    const records = store.db.prepare('SELECT count(*) FROM records').pluck().get() as number;
    const result = {
      benchmark: 'sync',
      records,
      calls: apiKeys.reduce((sum, [, calls]) => sum + calls, 0),
      ...recordKeyFigures(stats.apiCallsPerKey, SPEC_RATE_LIMIT.calls),
      throttled: stats.throttled,
      wall_s: round(wallS),
      ceiling_s: round(ceilingS),
      ratio: round(ceilingS / wallS),
      client_cpu_us_per_record: records === 0 ? null : round(clientCpuUs / records, 1),
      client_cpu_s: round(clientCpuUs / 1e6, 2),
      emulator_cpu_s:
        emulatorCpuBefore === null || emulatorCpuAfter === null
          ? null
          : round(emulatorCpuAfter - emulatorCpuBefore, 2),
      time_scale: TIME_SCALE,
      page_writer: bench.pageWriter,
      window_s: windowS,
      busiest_key: busiestKey,
      busiest_calls: busiestCalls,
      full_s: round(fullS),
      incremental_s: round(wallS - fullS),
      full: { state: full.state, calls: full.calls, records_read: full.records },
      incremental: {
        state: incremental.state,
        calls: incremental.calls,
        records_read: incremental.records,
      },
      comments_mirrored: store.db.prepare('SELECT count(*) FROM comment_sync').pluck().get(),
      emulator_startup_ms: Math.round(emulator.startupMs),
      warnings: warnings.length,
      ...(peakRss > 0 ? { peak_rss_mb: Math.round(peakRss / 1e6) } : {}),
    };
    if (tracer) clearInterval(tracer);
    if (trace.length > 0) console.error(trace.join('\n'));
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
  } finally {
    scheduler.close();
    bench?.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    emulator.stop();
  }
});
