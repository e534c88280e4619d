/**
 * The outbox at the rate limit's ceiling (`npm run bench:replay`, through bench/replay.mjs).
 *
 * Spawns the built emulator with its rate limit on (200 calls per 2 minutes per endpoint key,
 * durations shortened by REPLAY_BENCH_TIME_SCALE), signs in through its Self Client, mirrors the
 * account with a full sync, then, working offline, queues REPLAY_BENCH_EDITS edits spread evenly
 * over REPLAY_BENCH_RECORDS records of the first portal (each record: its name and description
 * changed in turn), switches "work offline" off and times the replay until the outbox is empty.
 * Every call goes through the real RequestScheduler. Writes one JSON object:
 *
 * - `ops_queued`: edits accepted; `ops_in_outbox`: operations they coalesced into
 * - `patches_sent`: PATCHes the emulator answered during the replay (target: one per record)
 * - `coalescing_ratio`: ops_queued ÷ patches_sent (edits carried per PATCH)
 * - `throttled`: 429s during the replay (target 0)
 * - `wall_s`: the replay in real seconds
 * - `ceiling_s`: as in the sync benchmark, over the replay's calls per endpoint key:
 *   (⌈calls ÷ 200⌉ − 1) × (120 s ÷ time scale); `ratio` = ceiling_s ÷ wall_s (target ≥ 0.9)
 * - `cpu_s`: this process's CPU time (user + system) during the replay, steadier than wall time
 *   on a busy machine; `emulator_cpu_s` the same of the emulator's process (Linux only)
 *
 * With REPLAY_BENCH_BULK=1 (`--bulk`) the queue is one bulk edit instead (issue 20): the
 * description of REPLAY_BENCH_RECORDS records set through BulkEditService.apply (one update per
 * record, BATCH_RECORDS a transaction), and the JSON adds `patches` (= patches_sent), `loop_max_ms` (the
 * longest the engine's event loop was held while it queued) and `bulk_queued`.
 *
 * For looking into a result: REPLAY_BENCH_TRACE=1 prints, once a second, each key's budget and
 * this process's CPU use to stderr; REPLAY_BENCH_PROFILE=FILE writes a CPU profile of the replay;
 * REPLAY_BENCH_CALLS=FILE writes every call of the replay (key, sent and answered in ms from its
 * start, the server's RateLimit-Remaining) as JSON lines.
 */
import { Connectivity, memoryWorkOfflineStore } from '../src/main/connectivity/connectivity';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { createApiClient } from '../src/main/api/client/apiClient';
import type { ApiScheduler } from '../src/main/api/client/apiScheduler';
import { emulatorServiceProfile } from '../src/main/api/client/emulatorProfile';
import { rateCeilingSeconds } from '../src/main/api/rateCeiling';
import { SPEC_RATE_LIMIT } from '../src/main/api/rateBudget';
import { RequestScheduler } from '../src/main/api/requestScheduler';
import { systemClock } from '../src/main/api/schedulerClock';
import { EventHub } from '../src/main/bridge/eventHub';
import { BulkEditService } from '../src/main/bulkEdit/bulkEditService';
import { OutboxService } from '../src/main/outbox/outboxService';
import { Mirror } from '../src/main/store/mirror/mirror';
import { Store } from '../src/main/store/store';
import { SyncEngine } from '../src/main/sync/syncEngine';
import { startCpuProfile } from './cpuProfile';
import { startBenchEmulator } from './startBenchEmulator';

const BULK = process.env.REPLAY_BENCH_BULK === '1';
const EDITS = Number(process.env.REPLAY_BENCH_EDITS ?? 5000);
const RECORDS = Number(process.env.REPLAY_BENCH_RECORDS ?? 1000);
const TIME_SCALE = Number(process.env.REPLAY_BENCH_TIME_SCALE ?? 10);
const OUT = process.env.REPLAY_BENCH_OUT;
const SCOPES = 'PMS.portals.ALL,PMS.custom_fields.ALL';
/**
 * The emulator puts 60% of its records in the first portal: enough for RECORDS of them. A bulk
 * edit changes one module's records, and the first portal's largest module holds 45% of them.
 */
const EMULATOR_RECORDS = BULK
  ? Math.ceil((RECORDS / (0.6 * 0.45)) * 1.05)
  : Math.ceil((RECORDS / 0.6) * 1.1);

const CALLS_FILE = process.env.REPLAY_BENCH_CALLS;

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

interface CallRecord {
  key: string;
  sent: number;
  answered: number;
  remaining: string | null;
}

/** The scheduler, with every send's times and rate reading written to `calls`. */
function recordCalls(scheduler: ApiScheduler, calls: CallRecord[]): ApiScheduler {
  return {
    schedule: (request) =>
      scheduler.schedule({
        ...request,
        send: async (signal) => {
          const sent = performance.now();
          const response = await request.send(signal);
          const remaining = response.headers.get('RateLimit-Remaining');
          calls.push({ key: request.key, sent, answered: performance.now(), remaining });
          return response;
        },
      }),
  };
}

it('replays queued edits at the rate limit ceiling', async () => {
  const emulator = await startBenchEmulator({ records: EMULATOR_RECORDS, timeScale: TIME_SCALE });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-replay-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  const scheduler = new RequestScheduler({ clock: systemClock });
  const calls: CallRecord[] = [];
  let outbox: OutboxService | undefined;
  try {
    const { facts } = emulator;
    const client = createApiClient({
      profile: emulatorServiceProfile(facts),
      dataCenter: 'us',
      tokens: await emulator.signIn(SCOPES),
      scheduler: CALLS_FILE ? recordCalls(scheduler, calls) : scheduler,
      onMalformed: (report) => console.error(`malformed: ${report.endpoint.label}`),
    });
    const mirror = new Mirror(store.db);
    const engine = new SyncEngine({
      mirror,
      budgets: () => scheduler.report(),
      commentBackfill: false,
    });
    const synced = await engine.syncAccount({ accountId: 'bench', client }).done;
    if (synced.state !== 'done')
      throw new Error(`The sync ended ${synced.state}: ${synced.message}`);

    const warnings: string[] = [];
    outbox = new OutboxService({
      db: store.db,
      mirror,
      connection: { clientForPortal: () => client },
      connectivity: Connectivity.fedBy(scheduler, memoryWorkOfflineStore()),
      events: new EventHub(),
      log: { warn: (message) => warnings.push(message) },
    });
    outbox.setWorkOffline(true);
    const portalId = facts.portals[0]!;
    // A bulk edit takes the records of one module: the portal's largest.
    const largest = store.db
      .prepare(
        `SELECT module_key FROM records WHERE portal_id = ? AND trashed_time IS NULL
         GROUP BY module_key ORDER BY count(*) DESC LIMIT 1`,
      )
      .pluck()
      .get(portalId) as number;
    const records = store.db
      .prepare(
        `SELECT r.id, m.id AS moduleId FROM records r JOIN modules m ON m.module_key = r.module_key
         WHERE r.portal_id = ? AND r.trashed_time IS NULL AND (? = 0 OR r.module_key = ?)
         ORDER BY r.id LIMIT ?`,
      )
      .all(portalId, BULK ? 1 : 0, largest, RECORDS) as { id: string; moduleId: string }[];
    if (records.length < RECORDS) throw new Error(`Only ${records.length} records to edit.`);
    const queueStarted = performance.now();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    let bulkQueued: number | null = null;
    if (BULK) {
      const bulk = new BulkEditService({
        db: store.db,
        mirror,
        outbox,
        events: new EventHub(),
        patchBudget: () => undefined,
      });
      const moduleId = records[0]!.moduleId;
      const ids = records.map((r) => r.id);
      loop.enable();
      const { previewId } = await bulk.preview({
        portalId,
        moduleId,
        selection: { kind: 'ids', ids },
        field: 'description',
        action: 'set',
        value: 'Set in bulk',
      });
      const applied = await bulk.apply({ previewId });
      loop.disable();
      bulkQueued = applied.queued;
    } else {
      for (let edit = 0; edit < EDITS; edit++) {
        const record = records[edit % records.length]!;
        const round = Math.floor(edit / records.length);
        outbox.edit(
          portalId,
          record.id,
          round % 2 === 0
            ? { name: `Edited offline, pass ${round}` }
            : { description: `Pass ${round}` },
        );
      }
    }
    const queueS = (performance.now() - queueStarted) / 1000;
    const inOutbox = outbox.status().total;

    const profile = await startCpuProfile(process.env.REPLAY_BENCH_PROFILE);
    const before = await emulator.stats();
    const cpuBefore = process.cpuUsage();
    const emulatorCpuBefore = emulator.cpuSeconds();
    calls.length = 0;
    const began = performance.now();
    const trace: string[] = [];
    let traceCpu = process.cpuUsage();
    const tracer = process.env.REPLAY_BENCH_TRACE
      ? setInterval(() => {
          const used = process.cpuUsage(traceCpu);
          traceCpu = process.cpuUsage();
          const keys = scheduler
            .report()
            .filter((r) => r.key.includes('{entity_id}'))
            .map(
              (r) =>
                `${r.key.split(' ')[1]} spent=${r.spent} left=${r.remaining} q=${r.queued} fly=${r.inFlight}`,
            );
          trace.push(
            `${((performance.now() - began) / 1000).toFixed(1)}s cpu=${Math.round((used.user + used.system) / 10_000)}% ${keys.join(' | ')}`,
          );
        }, 1000)
      : null;
    outbox.setWorkOffline(false);
    await outbox.idle();
    const wallS = (performance.now() - began) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const emulatorCpuAfter = emulator.cpuSeconds();
    if (tracer) clearInterval(tracer);
    await profile.stop();
    if (trace.length > 0) console.error(trace.join('\n'));
    if (CALLS_FILE) {
      const at = (ms: number) => round(ms - began, 1);
      writeFileSync(
        CALLS_FILE,
        calls
          .map((c) => JSON.stringify({ ...c, sent: at(c.sent), answered: at(c.answered) }))
          .join('\n'),
      );
    }
    const after = await emulator.stats();

    const delta = Object.entries(after.apiCallsPerKey)
      .map(([key, n]) => [key, n - (before.apiCallsPerKey[key] ?? 0)] as const)
      .filter(([, n]) => n > 0);
    const patches = delta
      .filter(([key]) => key.includes('PATCH'))
      .reduce((sum, [, n]) => sum + n, 0);
    const windowS = SPEC_RATE_LIMIT.windowMs / 1000 / TIME_SCALE;
    const ceilingS = rateCeilingSeconds(
      delta.map(([, n]) => n),
      SPEC_RATE_LIMIT.calls,
      windowS,
    );
    const left = outbox.status();
    const result = {
      benchmark: BULK ? 'replay-bulk' : 'replay',
      ...(BULK
        ? {
            patches,
            bulk_queued: bulkQueued,
            loop_max_ms: round(loop.max / 1e6, 1),
          }
        : {}),
      ops_queued: BULK ? bulkQueued : EDITS,
      ops_in_outbox: inOutbox,
      records: records.length,
      patches_sent: patches,
      coalescing_ratio: round((BULK ? (bulkQueued ?? 0) : EDITS) / Math.max(1, patches), 2),
      throttled: after.throttled - before.throttled,
      wall_s: round(wallS),
      ceiling_s: round(ceilingS),
      ratio: round(ceilingS / wallS),
      cpu_s: round((cpu.user + cpu.system) / 1e6),
      emulator_cpu_s:
        emulatorCpuBefore === null || emulatorCpuAfter === null
          ? null
          : round(emulatorCpuAfter - emulatorCpuBefore, 2),
      time_scale: TIME_SCALE,
      window_s: windowS,
      calls_per_key: Object.fromEntries(delta),
      queue_s: round(queueS),
      left_in_outbox: left.total,
      failed: left.counts.failed,
      conflicts: left.counts.conflict,
      warnings: warnings.length,
    };
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
  } finally {
    outbox?.close();
    scheduler.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    emulator.stop();
  }
});
