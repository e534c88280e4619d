/**
 * Queuing many changes into the outbox (`node bench/outboxQueue.mjs`): how long a records import
 * (creates), a bulk edit (one update per record) and single edits take to queue as the outbox
 * grows. For each N in OUTBOX_QUEUE_BENCH_N (default 1000,4000,16000), a web-mode engine on a
 * fresh data directory whose mirror holds the seed catalog's `assets` module with N records
 * (bench/syntheticRecords.ts):
 *
 * - `import_s`: N rows of a CSV (name, serial number) confirmed as creates, from the confirm until queued;
 * - `bulk_s`: the description of the N records set by one bulk edit (`bulkEdit.apply` of its
 *   preview, the preview not timed);
 * - `edit_p50_ms`, `edit_max_ms`: then, with 2N operations pending (and, signed out, every one
 *   of them seen by the replay), 200 single edits (`outbox.edit`, each of another record) one
 *   after another, the replay's turn after each included.
 *
 * No account is signed in, so the replay runs and finds no client: every queue head waits
 * (SIGNED_OUT_RETRY_MS), as in the app while signed out; OUTBOX_QUEUE_BENCH_OFFLINE=1 switches
 * "work offline" on instead (the replay starts nothing). One JSON line per N. Asserts nothing.
 * OUTBOX_QUEUE_BENCH_PROFILE=FILE writes a CPU profile of the last size's import and bulk edit.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import type { Engine } from '../src/main/engine';
import type { RequestArgs, RequestName, RequestResult } from '../src/shared/ipc/contract';
import { startCpuProfile } from './cpuProfile';
import { benchEngine } from './benchEngine';
import { MODULE, PORTAL, recordId } from './syntheticRecords';

const SIZES = (process.env.OUTBOX_QUEUE_BENCH_N ?? '1000,4000,16000').split(',').map(Number);
const OFFLINE = process.env.OUTBOX_QUEUE_BENCH_OFFLINE === '1';
const OUT = process.env.OUTBOX_QUEUE_BENCH_OUT;
const PROFILE = process.env.OUTBOX_QUEUE_BENCH_PROFILE;
const EDITS = 200;

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

async function ok<N extends RequestName>(
  engine: Engine,
  name: N,
  args?: RequestArgs<N>,
): Promise<RequestResult<N>> {
  const outcome = await engine.dispatcher.dispatch(name, args, {
    transport: 'internal',
    trusted: true,
    description: 'bench',
  });
  if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error.message}`);
  return outcome.value as RequestResult<N>;
}

async function measure(n: number): Promise<Record<string, unknown>> {
  const { engine, close } = benchEngine('queue', n + EDITS);
  try {
    const ids = Array.from({ length: n + EDITS }, (_, i) => recordId(i + 1));
    if (OFFLINE) await ok(engine, 'outbox.setWorkOffline', { on: true });

    // The import: N creates.
    const csv = `name,cf_serial_number\r\n${Array.from({ length: n }, (_, i) => `Imported ${i},SN-${i}\r\n`).join('')}`;
    const upload = engine.imports.upload({
      fileName: 'new.csv',
      offset: 0,
      chunk: Buffer.from(csv).toString('base64'),
      last: true,
    });
    const opened = await engine.imports.open({
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId: upload.uploadId,
      locale: 'en-US',
    });
    engine.imports.check({
      importId: opened.importId,
      targets: ['name', 'cf_serial_number'],
      mode: 'create',
    });
    await engine.imports.settled(opened.importId);
    const checked = engine.imports.state(opened.importId);
    if (checked.ready !== n) {
      const why = engine.imports.failures(opened.importId, 0, 3);
      throw new Error(`${checked.ready} of ${n} rows ready: ${JSON.stringify(why)}`);
    }
    const profile = await startCpuProfile(n === SIZES[SIZES.length - 1] ? PROFILE : undefined);
    let started = performance.now();
    engine.imports.confirm(opened.importId);
    await engine.imports.settled(opened.importId);
    const importS = (performance.now() - started) / 1000;
    const imported = engine.imports.state(opened.importId);
    if (imported.phase !== 'queued') throw new Error(`The import ended ${imported.phase}.`);

    // The bulk edit: N updates, queued as the dialog queues them (its preview, untimed, then Queue).
    const previewed = await ok(engine, 'bulkEdit.preview', {
      portalId: PORTAL,
      moduleId: MODULE,
      selection: { kind: 'ids', ids: ids.slice(0, n) },
      field: 'description',
      action: 'set',
      value: 'Set in bulk',
    });
    started = performance.now();
    const applied = await ok(engine, 'bulkEdit.apply', { previewId: previewed.previewId });
    const bulkS = (performance.now() - started) / 1000;
    await profile.stop();
    if (applied.queued !== n) throw new Error(`The bulk edit queued ${applied.queued} of ${n}.`);

    // Signed out, the replay marks every queued head as waiting, 32 a turn: let it finish, so the
    // edits below measure an edit and its own look for work, not that backlog.
    const unseen = engine.store.db.prepare(
      "SELECT count(*) FROM outbox_ops WHERE state = 'pending' AND next_attempt_at IS NULL",
    );
    while (!OFFLINE && (unseen.pluck().get() as number) > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }

    // Single edits with 2N operations pending, each followed by the replay's turn.
    const times: number[] = [];
    for (const id of ids.slice(n, n + EDITS)) {
      const at = performance.now();
      await ok(engine, 'outbox.edit', {
        portalId: PORTAL,
        recordId: id,
        changes: { name: `Edited ${id}` },
      });
      await new Promise((resolve) => setImmediate(resolve));
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    const status = await ok(engine, 'outbox.status');
    return {
      benchmark: 'outbox-queue',
      n,
      replay: OFFLINE ? 'work offline' : 'signed out',
      import_s: round(importS),
      bulk_s: round(bulkS),
      edit_p50_ms: round(times[Math.floor(times.length / 2)]!, 2),
      edit_max_ms: round(times[times.length - 1]!, 2),
      ops_in_outbox: status.total,
      cpus: os.cpus().length,
      load: round(os.loadavg()[0]!, 2),
    };
  } finally {
    close();
  }
}

it('outbox queue benchmark', async () => {
  const lines: string[] = [];
  for (const n of SIZES) {
    const line = JSON.stringify(await measure(n));
    console.error(line);
    lines.push(line);
  }
  if (OUT) writeFileSync(OUT, lines.join('\n'));
  else console.log(lines.join('\n'));
}, 3_600_000);
