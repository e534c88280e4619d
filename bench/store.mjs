// The mirror's store on a million records: upsert throughput and the latency of the UI's local
// queries (see bench/store.bench.ts for what is measured). Runs the benchmark through vitest
// (bench/runVitestBench.mjs); stdout gets exactly one JSON line. Needs no build.
//
//   node bench/store.mjs [--records 1000000] [--iterations 40]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '40' },
  },
});

await runVitestBench({
  name: 'store',
  file: 'bench/store.bench.ts',
  env: { STORE_BENCH_RECORDS: args.records, STORE_BENCH_ITERATIONS: args.iterations },
  outVariable: 'STORE_BENCH_OUT',
});
