/**
 * The portal overview's charts at a million records (`npm run bench:overview`, through
 * bench/overview.mjs, which runs this file with vitest because the store imports its SQL with
 * Vite's `?raw`).
 *
 * The mirror: bench/uiMirror.bench.ts's (the records workspace's benchmark data: 1,000,000
 * records of the seed catalog's `assets` module over two years, a small module, the built-in
 * modules, one record in the recycle bin), filled once into OVERVIEW_BENCH_DIR and reused, plus
 * EDITED records given a local status edit (so the edited rows' path is measured too).
 *
 * Measured per chart (OverviewCounts: per module, per status, per week) and for the whole
 * `overview.portal` answer's reading of the mirror (MirrorOverviewReader.read): p50/p95/max over
 * ITERATIONS runs, in two conditions. `warm`: one run after another on the engine's connection.
 * `after_commit`: each run right after another connection committed a cursor write, as the sync's
 * writer thread does after every page: SQLite then drops this connection's page cache and the
 * counts read the index pages again (from the OS's cache). Then `thread`: the whole answer read on the overview's own
 * thread as the built app does, against the same on the engine's connection, with the longest the
 * engine's event loop was held (threadReadings). Then `write_cost`: what the index the weekly
 * chart reads costs the sync's upserts (bench/overviewWriteCost.ts). Writes one JSON object to
 * OVERVIEW_BENCH_OUT (or prints it).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { it } from 'vitest';
import { Mirror } from '../src/main/store/mirror/mirror';
import { Store } from '../src/main/store/store';
import { OverviewCounts } from '../src/main/overview/overviewCounts';
import { MirrorOverviewReader } from '../src/main/overview/mirrorOverview';
import { OverviewThread } from '../src/main/overview/overviewThread';
import { workerBundle } from '../test/support/workerBundle';
import { MODULE, PORTAL, STATUS_IDS, recordId } from './syntheticRecords';
import { overviewWriteCost } from './overviewWriteCost';
// @ts-expect-error: a plain .mjs helper without types (bench/uiMirrorDir.mjs)
import { ensureUiMirror } from './uiMirrorDir.mjs';

const RECORDS = Number(process.env.OVERVIEW_BENCH_RECORDS ?? 1_000_000);
const ITERATIONS = Number(process.env.OVERVIEW_BENCH_ITERATIONS ?? 30);
/** Records given a pending status edit: an outbox of a busy day. */
const EDITED = Number(process.env.OVERVIEW_BENCH_EDITED ?? 1_000);
const DIR =
  process.env.OVERVIEW_BENCH_DIR ?? path.join(os.tmpdir(), `portaldesk-overview-bench-${RECORDS}`);
const OUT = process.env.OVERVIEW_BENCH_OUT;
/** Records of the write-cost comparison (overviewWriteCost.ts), and its alternating rounds. */
const WRITE_RECORDS = Number(process.env.OVERVIEW_BENCH_WRITE_RECORDS ?? 100_000);
const WRITE_ROUNDS = Number(process.env.OVERVIEW_BENCH_WRITE_ROUNDS ?? 2);
/** The overview's thread, bundled from its sources as the app's build does. */
const overviewWorker = workerBundle('src/main/overview/overviewWorker.ts');

/** The q-quantile of `values`, rounded to 0.01. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(
    (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(2),
  );
}

/**
 * Milliseconds of each run of `fn`, as p50/p95/max of wall time, and p95 of this process's CPU
 * time (on a shared machine the wall time also holds other processes' turns).
 */
function latencies(before: () => void, fn: () => unknown) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    before();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    fn();
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  return {
    p50_ms: quantile(wall, 0.5),
    p95_ms: quantile(wall, 0.95),
    max_ms: quantile(wall, 1),
    cpu_p95_ms: quantile(cpu, 0.95),
  };
}

/**
 * The whole answer read as the built app reads it, on the overview's thread (overviewThread.ts),
 * each reading right after another connection's commit: its wall time as the engine waits for it,
 * and the longest the engine's event loop was held meanwhile (a 1 ms ticker's longest gap), next
 * to the same readings on the engine's own connection, which hold the loop throughout.
 */
async function threadReadings(file: string, inline: MirrorOverviewReader, before: () => void) {
  const script = await overviewWorker.script();
  const thread = new OverviewThread({ script, file }, inline);
  const read = async (on: (portalId: string, now: number) => unknown) => {
    const wall: number[] = [];
    let held = 0;
    await on(PORTAL, Date.now()); // the thread's start and its connection, not measured
    for (let i = 0; i < ITERATIONS; i++) {
      before();
      let last = performance.now();
      const ticker = setInterval(() => {
        const now = performance.now();
        held = Math.max(held, now - last);
        last = now;
      }, 1);
      const started = performance.now();
      await on(PORTAL, Date.now());
      held = Math.max(held, performance.now() - last);
      wall.push(performance.now() - started);
      clearInterval(ticker);
    }
    return {
      p50_ms: quantile(wall, 0.5),
      p95_ms: quantile(wall, 0.95),
      loop_held_max_ms: Number(held.toFixed(2)),
    };
  };
  try {
    return {
      after_commit: await read((portalId, now) => thread.read(portalId, now)),
      active: thread.active,
      engine_thread_after_commit: await read(async (portalId, now) => inline.read(portalId, now)),
    };
  } finally {
    thread.close();
    overviewWorker.remove();
  }
}

it('overview benchmark', async () => {
  await ensureUiMirror({
    records: RECORDS,
    dataDir: DIR,
    log: (message: string) => console.error(message),
  });
  const store = Store.open({ dataDir: DIR, mode: 'bench' });
  const other = new Database(store.file);
  try {
    const mirror = new Mirror(store.db);
    // Status edits of the first EDITED records (undone at the end, so the mirror is reused as is).
    const editedAt = '2026-03-05T12:00:00.000Z';
    store.db.transaction(() => {
      for (let i = 1; i <= EDITED; i++) {
        const status = STATUS_IDS[(i + 1) % STATUS_IDS.length]!;
        mirror.localEdits.writeOverlay(
          PORTAL,
          recordId(i),
          new Map([['status', { value: { id: status }, base: null, editedAt }]]),
        );
      }
    })();

    const counts = new OverviewCounts(store.db);
    const reader = new MirrorOverviewReader(store.db);
    const portal = counts.portal(PORTAL)!;
    const otherMirror = new Mirror(other);
    let page = 0;
    const commitElsewhere = () => {
      otherMirror.records.writeCursor({ portalId: PORTAL, moduleId: MODULE, scanIndex: ++page });
    };
    const nothing = () => undefined;
    const charts = {
      modules: () => counts.modules(PORTAL),
      statuses: () => counts.statuses(PORTAL),
      weeks: () => counts.weeks(portal),
      total: () => reader.read(PORTAL, Date.now()),
    };
    const loadBefore = Number(os.loadavg()[0]!.toFixed(2));
    const result: Record<string, unknown> = {
      records: counts.modules(PORTAL).reduce((sum, m) => sum + m.records, 0),
      edited: EDITED,
      weeks: counts.weeks(portal).weeks.length,
      iterations: ITERATIONS,
    };
    for (const [condition, before] of [
      ['warm', nothing],
      ['after_commit', commitElsewhere],
    ] as const) {
      const measured: Record<string, unknown> = {};
      for (const [name, fn] of Object.entries(charts)) measured[name] = latencies(before, fn);
      result[condition] = measured;
    }
    const p95 = (condition: string, name: string) =>
      ((result[condition] as Record<string, { p95_ms: number }>)[name] as { p95_ms: number })
        .p95_ms;
    // The headline: the slower of the two conditions, per chart.
    for (const name of Object.keys(charts)) {
      result[`${name}_p95_ms`] = Math.max(p95('warm', name), p95('after_commit', name));
    }
    const cpuP95 = (condition: string, name: string) =>
      (
        (result[condition] as Record<string, { cpu_p95_ms: number }>)[name] as {
          cpu_p95_ms: number;
        }
      ).cpu_p95_ms;
    for (const name of Object.keys(charts)) {
      result[`${name}_cpu_p95_ms`] = Math.max(cpuP95('warm', name), cpuP95('after_commit', name));
    }
    result.thread = await threadReadings(store.file, reader, commitElsewhere);
    result.load_1m = [loadBefore, Number(os.loadavg()[0]!.toFixed(2))];
    result.write_cost = WRITE_ROUNDS > 0 ? overviewWriteCost(WRITE_RECORDS, WRITE_ROUNDS) : null;

    store.db.transaction(() => {
      for (let i = 1; i <= EDITED; i++)
        mirror.localEdits.writeOverlay(PORTAL, recordId(i), new Map());
    })();
    const json = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, json);
    else console.log(json);
  } finally {
    other.close();
    store.close();
  }
});
