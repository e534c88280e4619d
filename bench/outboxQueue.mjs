// Queuing many changes into the outbox: a records import's creates, a bulk edit's updates and
// single edits as the outbox grows (see bench/outboxQueue.bench.ts). Runs through vitest
// (bench/runVitestBench.mjs); stdout gets one JSON line per size. Needs no build.
//
//   node bench/outboxQueue.mjs [--n 1000,4000,16000] [--offline]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '1000,4000,16000' },
    offline: { type: 'boolean', default: false },
  },
});

await runVitestBench({
  name: 'outbox-queue',
  file: 'bench/outboxQueue.bench.ts',
  env: { OUTBOX_QUEUE_BENCH_N: args.n, OUTBOX_QUEUE_BENCH_OFFLINE: args.offline ? '1' : '0' },
  outVariable: 'OUTBOX_QUEUE_BENCH_OUT',
});
