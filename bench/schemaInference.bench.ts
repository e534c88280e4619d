/**
 * Schema inference before and after issue 14 (`node bench/schemaInference.mjs`). For each sample
 * of the issue (a flat object of N keys, the 63 KB one with 5,000; a 278 KB one; 1,000 levels of
 * nesting): the time of @jsonhero/schema-infer (infer + JSON Schema, what the router did per
 * sample), of PortalDesk's inference core on the same sample without limits (merge, stored form
 * and JSON Schema), and of `mergeSample`, the router's entry, which refuses what is past the
 * limits. Then one platform event through RouterEngine.publish, which merges its data into the
 * event's schema, against the library merging the same data into a stored inference. Writes one
 * JSON object to INFERENCE_BENCH_OUT (or prints it); asserts nothing.
 */
import { inferSchema, restoreSnapshot } from '@jsonhero/schema-infer';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { mergeSample } from '../src/main/router/schema/inferenceSnapshot';
import { mergeValue } from '../src/main/router/schema/inferSchema';
import { UNKNOWN, writeNode } from '../src/main/router/schema/inferredSchema';
import { openRouterDatabase } from '../src/main/router/store/openRouterDatabase';
import { renderInferredSchema } from '../src/main/router/schema/renderInferredSchema';
import { RouterEngine } from '../src/main/router/engine/routerEngine';
import { VirtualClock } from '../src/main/router/engine/virtualClock';

const OUT = process.env.INFERENCE_BENCH_OUT;
const OLD_MAX_KEYS = Number(process.env.INFERENCE_BENCH_OLD_MAX_KEYS ?? 5_000);
const PUBLISHED_EVENTS = 2_000;

/** A flat object of `keys` keys, numbers and short strings by turns (the 63 KB: 5,000). */
function flat(keys: number): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  for (let i = 0; i < keys; i++) sample[`k${i}`] = i % 2 === 0 ? i : `v${i}`;
  return sample;
}

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

/** Milliseconds of `fn`, or its error's name when it throws. */
function timed(fn: () => unknown): { ms: number; error: string | null } {
  const started = performance.now();
  try {
    fn();
    return { ms: Number((performance.now() - started).toFixed(2)), error: null };
  } catch (error) {
    const ms = Number((performance.now() - started).toFixed(2));
    return {
      ms,
      error:
        error instanceof Error ? `${error.name}: ${error.message.slice(0, 90)}` : String(error),
    };
  }
}

function measure(name: string, sample: Record<string, unknown>, keys: number) {
  const bytes = JSON.stringify(sample)?.length ?? null;
  const old =
    keys <= OLD_MAX_KEYS
      ? timed(() => inferSchema(sample).toJSONSchema({ includeSchema: true }))
      : null;
  const core = timed(() => {
    const node = mergeValue(UNKNOWN, sample);
    JSON.stringify(writeNode(node));
    renderInferredSchema(node);
  });
  const entry = timed(() => mergeSample(sample, null));
  return {
    sample: name,
    keys,
    json_bytes: bytes,
    jsonhero_ms: old?.ms ?? null,
    jsonhero_error: old?.error ?? null,
    portaldesk_core_ms: core.ms,
    portaldesk_core_error: core.error,
    merge_sample_ms: entry.ms,
    merge_sample_refusal: entry.error,
  };
}

function perEvent() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-inference-bench-'));
  try {
    const db = openRouterDatabase(path.join(dir, 'router.sqlite'));
    const engine = new RouterEngine({ db, clock: new VirtualClock({ manual: true }) });
    const data = (i: number) => ({
      run_id: `run-${i}`,
      account_id: 'acc_1',
      data_center: 'us',
      state: 'done',
      message: null,
      calls: i,
      records: i * 3,
      started_at: new Date(1_700_000_000_000 + i).toISOString(),
      ended_at: new Date(1_700_000_001_000 + i).toISOString(),
      portals: ['1000000000033'],
    });
    engine.raisePlatformEvent('data_updates', 'SyncCompleted', data(0));
    let started = performance.now();
    for (let i = 1; i <= PUBLISHED_EVENTS; i++) {
      engine.raisePlatformEvent('data_updates', 'SyncCompleted', data(i));
    }
    const publishUs = ((performance.now() - started) * 1000) / PUBLISHED_EVENTS;
    engine.close();
    db.close();

    let stored = inferSchema(data(0)).toSnapshot();
    started = performance.now();
    for (let i = 1; i <= PUBLISHED_EVENTS; i++) {
      const merged = inferSchema(data(i), restoreSnapshot(stored));
      merged.toJSONSchema({ includeSchema: true });
      stored = merged.toSnapshot();
    }
    const jsonheroUs = ((performance.now() - started) * 1000) / PUBLISHED_EVENTS;
    let snapshot = mergeSample(data(0), null);
    started = performance.now();
    for (let i = 1; i <= PUBLISHED_EVENTS; i++) snapshot = mergeSample(data(i), snapshot);
    const oursUs = ((performance.now() - started) * 1000) / PUBLISHED_EVENTS;
    return {
      events: PUBLISHED_EVENTS,
      publish_us_per_event: Number(publishUs.toFixed(1)),
      merge_jsonhero_us_per_event: Number(jsonheroUs.toFixed(1)),
      merge_portaldesk_us_per_event: Number(oursUs.toFixed(1)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('schema inference before and after issue 14', () => {
  // Warm both up on something small, so the first case does not pay for compiling them.
  for (let i = 0; i < 50; i++) {
    inferSchema(flat(20)).toJSONSchema();
    mergeSample(flat(20), null);
  }
  const cases = [
    measure('flat, 1,000 keys', flat(1_000), 1_000),
    measure('flat, 2,000 keys', flat(2_000), 2_000),
    measure('flat, 5,000 keys (about the issue 63 KB one)', flat(5_000), 5_000),
    measure('flat, 20,000 keys (about the issue 278 KB one)', flat(20_000), 20_000),
    measure('1,000 levels deep', nested(1_000), 1_001),
    measure('1,200 levels deep', nested(1_200), 1_201),
  ];
  const line = JSON.stringify({
    benchmark: 'schemaInference',
    node: process.version,
    cpus: os.cpus().length,
    load_average_1m: Number(os.loadavg()[0]?.toFixed(2)),
    cases,
    per_event: perEvent(),
  });
  if (OUT) writeFileSync(OUT, line);
  else console.log(line);
});
