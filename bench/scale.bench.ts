/**
 * Many endpoint keys at once (issue 18, `npm run bench:scale`, through bench/scale.mjs, which runs
 * this file with vitest because the mirror imports its SQL with Vite's `?raw`).
 *
 * Spawns the built emulator with SCALE_BENCH_RECORDS records in SCALE_BENCH_PORTALS portals of
 * SCALE_BENCH_MODULES custom modules each, its rate limit on at SCALE_BENCH_TIME_SCALE (1: the
 * service's own 2-minute window). The rate limit counts per method, route template and portal, so
 * each portal's record list is one endpoint key with its own budget. Then two parts:
 *
 * 1. A full sync of the account into a fresh mirror through the real RequestScheduler and
 *    SyncEngine (as bench:sync's first sync), and meanwhile, every SCALE_BENCH_PROBE_MS, a
 *    window of 100 records of one module being synced (the first portal's first custom module;
 *    a portal's modules are pulled side by side, so it grows all along), sorted
 *    by name or by last update, at an offset that moves over the module: the call the
 *    `records.query` handler makes (mirror.query.queryRecords), on the engine's own thread,
 *    timed from when it was due (bench/queryProbe.ts).
 * 2. Unless SCALE_BENCH_UI_MIRROR is empty: the emulator's clock moved on two windows (fresh
 *    budgets, the same data), then web mode on a copy of bench:ui's million-record mirror syncs
 *    the same account while Chromium scrolls that module (bench/scaleUi.ts).
 *
 * Writes one JSON object to SCALE_BENCH_OUT (or prints it); the keys are in bench/README.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { it } from 'vitest';
import { rateCeilingSeconds } from '../src/main/api/rateCeiling';
import { SPEC_RATE_LIMIT } from '../src/main/api/rateBudget';
import { RequestScheduler } from '../src/main/api/requestScheduler';
import { systemClock } from '../src/main/api/schedulerClock';
import { Store } from '../src/main/store/store';
import { startCpuProfile } from './cpuProfile';
import { percentile, startQueryProbe } from './queryProbe';
import { scrollDuringSync, type ScrollDuringSync } from './scaleUi';
import { benchSyncEngine } from './benchSyncEngine';
import { startBenchEmulator } from './startBenchEmulator';
import { threadCpuSeconds, threadCpuSince } from './threadCpu';
import { cpuMicrosSince, recordKeyFigures } from './syncFigures';

const env = process.env;
const RECORDS = Number(env.SCALE_BENCH_RECORDS ?? 1_300_000);
const PORTALS = Number(env.SCALE_BENCH_PORTALS ?? 32);
const MODULES = Number(env.SCALE_BENCH_MODULES ?? 8);
const TIME_SCALE = Number(env.SCALE_BENCH_TIME_SCALE ?? 1);
const PROBE_MS = Number(env.SCALE_BENCH_PROBE_MS ?? 100);
const UI_MIRROR = env.SCALE_BENCH_UI_MIRROR ?? '';
const SCROLL_S = Number(env.SCALE_BENCH_SCROLL_S ?? 60);
const OUT = env.SCALE_BENCH_OUT;
const SCOPES = 'PMS.portals.ALL,PMS.custom_fields.ALL';
/** The probe's window, as the records table asks for one. */
const WINDOW_ROWS = 100;
/** Offsets spread over the module by the golden ratio: never the same place twice in a row. */
const GOLDEN = 0.6180339887;

const round = (value: number | null, digits = 3) =>
  value === null ? null : Number(value.toFixed(digits));
const log = (message: string) => console.error(`[bench:scale] ${message}`);
const loadAverage = () => os.loadavg().map((n) => round(n, 2));

it('syncs many endpoint keys at once and answers meanwhile', async () => {
  const loadAtStart = loadAverage();
  const emulator = await startBenchEmulator({
    records: RECORDS,
    timeScale: TIME_SCALE,
    portals: PORTALS,
    modules: MODULES,
  });
  log(`emulator up in ${Math.round(emulator.startupMs / 1000)} s`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-scale-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  const scheduler = new RequestScheduler({ clock: systemClock });
  let bench: Awaited<ReturnType<typeof benchSyncEngine>> | undefined;
  let ui: ScrollDuringSync | null = null;
  try {
    const { facts } = emulator;
    bench = await benchSyncEngine({ emulator, store, scheduler, scopes: SCOPES });
    const { mirror, engine, warnings } = bench;

    // The probe's module: the first portal's first module with records, once the sync stored some.
    const firstModule = store.db
      .prepare(
        `SELECT m.id FROM modules m WHERE m.portal_id = ?
           AND EXISTS (SELECT 1 FROM records r WHERE r.module_key = m.module_key)
         ORDER BY m.module_key LIMIT 1`,
      )
      .pluck();
    const probePortal = facts.portals[0]!;
    let probeModule: string | undefined;
    let total = 0;
    let firstAnsweredAt: number | undefined;
    const probe = () =>
      startQueryProbe({
        intervalMs: PROBE_MS,
        ask: (slot) => {
          probeModule ??= firstModule.get(probePortal) as string | undefined;
          if (probeModule === undefined) return false;
          const answer = mirror.query.queryRecords({
            portalId: probePortal,
            moduleId: probeModule,
            offset: Math.floor(((slot * GOLDEN) % 1) * Math.max(0, total - WINDOW_ROWS)),
            limit: WINDOW_ROWS,
            sort:
              slot % 2 === 0
                ? { field: 'name', descending: false }
                : { field: 'last_updated_time', descending: true },
          });
          total = answer.total;
          firstAnsweredAt ??= performance.now();
          return true;
        },
      });

    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    // Garbage collection on the engine's thread while the sync runs: a pause holds every answer.
    const gcPauses: number[] = [];
    const gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcPauses.push(entry.duration);
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    // SCALE_BENCH_PROFILE=FILE: a CPU profile of the engine's thread over the sync (part 1).
    const profile = await startCpuProfile(process.env.SCALE_BENCH_PROFILE);
    const emulatorCpuBefore = emulator.cpuSeconds();
    const cpuBefore = process.cpuUsage();
    const threadsBefore = threadCpuSeconds();
    const began = performance.now();
    const running = probe();
    loopDelay.enable();
    const result = await engine.syncAccount(bench.account).done;
    loopDelay.disable();
    gcObserver.disconnect();
    await profile.stop();
    const probed = running.stop();
    const wallS = (performance.now() - began) / 1000;
    const clientCpuUs = cpuMicrosSince(cpuBefore) - probed.cpuUs;
    const threads = threadCpuSince(threadsBefore);
    const emulatorCpuAfter = emulator.cpuSeconds();
    log(`sync ${result.state} in ${wallS.toFixed(1)} s; ${probed.samples.length} queries timed`);
    if (result.state !== 'done') {
      log(`the sync ended ${result.state}: ${result.message ?? ''}`);
      for (const outcome of result.outcomes.filter((o) => !o.ok)) log(JSON.stringify(outcome));
    }

    const stats = await emulator.stats();
    const callsPerKey = Object.values(stats.apiCallsPerKey);
    const windowS = SPEC_RATE_LIMIT.windowMs / 1000 / TIME_SCALE;
    const ceilingS = rateCeilingSeconds(callsPerKey, SPEC_RATE_LIMIT.calls, windowS);
    const keyFigures = recordKeyFigures(stats.apiCallsPerKey, SPEC_RATE_LIMIT.calls);
    const records = store.db.prepare('SELECT count(*) FROM records').pluck().get() as number;
    const probeModuleRecords =
      probeModule === undefined
        ? 0
        : mirror.query.queryRecords({
            portalId: probePortal,
            moduleId: probeModule,
            offset: 0,
            limit: 1,
          }).total;
    if (UI_MIRROR !== '') {
      // Fresh budgets for web mode's own sync: every window of the first sync is over.
      await emulator.advanceClock(2 * SPEC_RATE_LIMIT.windowMs);
      const throttledBefore = stats.throttled;
      ui = await scrollDuringSync({ emulator, mirrorDir: UI_MIRROR, scrollS: SCROLL_S, log });
      const throttledInUi = (await emulator.stats()).throttled - throttledBefore;
      if (throttledInUi > 0) log(`web mode's sync was throttled ${throttledInUi} times`);
    }

    const output = {
      benchmark: 'scale',
      keys: keyFigures.keys,
      records,
      throttled: stats.throttled,
      ratio: round(ceilingS / wallS),
      client_cpu_us_per_record: records === 0 ? null : round(clientCpuUs / records, 1),
      emulator_cpu_s:
        emulatorCpuBefore === null || emulatorCpuAfter === null
          ? null
          : round(emulatorCpuAfter - emulatorCpuBefore, 2),
      query_p99_ms_during_sync: round(percentile(probed.samples, 0.99), 1),
      longest_frame_ms_during_sync: ui?.longest_frame_ms ?? null,
      wall_s: round(wallS, 1),
      ceiling_s: round(ceilingS, 1),
      time_scale: TIME_SCALE,
      page_writer: bench.pageWriter,
      load_average: loadAverage(),
      load_average_at_start: loadAtStart,
      portals: PORTALS,
      modules: MODULES,
      key_calls_min: keyFigures.key_calls_min,
      key_windows_min: keyFigures.key_windows_min,
      calls: callsPerKey.reduce((sum, calls) => sum + calls, 0),
      client_cpu_s: round(clientCpuUs / 1e6, 2),
      // The client's CPU by thread (the probe's queries are in engine): the writer thread is
      // the busiest other; V8's collector helpers and libuv's pool share the rest.
      client_threads_cpu: threads,
      sync_state: result.state,
      query: {
        samples: probed.samples.length,
        p50_ms: round(percentile(probed.samples, 0.5), 1),
        max_ms: round(probed.samples.length === 0 ? null : Math.max(...probed.samples), 1),
        over_50_ms: probed.samples.filter((ms) => ms > 50).length,
        module_records: probeModuleRecords,
        first_s: firstAnsweredAt === undefined ? null : round((firstAnsweredAt - began) / 1000, 1),
        cpu_s: round(probed.cpuUs / 1e6, 2),
        // The queries' own time, apart from waiting for the engine's thread to be free.
        own_p50_ms: round(percentile(probed.own, 0.5), 1),
        own_p99_ms: round(percentile(probed.own, 0.99), 1),
        own_max_ms: round(probed.own.length === 0 ? null : Math.max(...probed.own), 1),
      },
      gc_during_sync: {
        pauses: gcPauses.length,
        total_ms: round(
          gcPauses.reduce((sum, ms) => sum + ms, 0),
          1,
        ),
        max_ms: round(gcPauses.length === 0 ? null : Math.max(...gcPauses), 1),
        over_50_ms: gcPauses.filter((ms) => ms > 50).length,
      },
      event_loop_delay_max_ms: round(loopDelay.max / 1e6, 1),
      ui:
        ui ??
        'not run: bench/scale.mjs --no-ui, or SCALE_BENCH_UI_MIRROR unset (the million-record mirror to scroll)',
      emulator_startup_s: round(emulator.startupMs / 1000, 1),
      warnings: warnings.length,
    };
    const line = JSON.stringify(output);
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
