// The portal overview's chart queries on a million records (see bench/overview.bench.ts). Runs
// the benchmark through vitest (bench/runVitestBench.mjs); stdout gets exactly one JSON line.
// Needs no build. The mirror is filled once (about two minutes) and reused.
//
//   node bench/overview.mjs [--records 1000000] [--iterations 30]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '30' },
  },
});

await runVitestBench({
  name: 'overview',
  file: 'bench/overview.bench.ts',
  env: { OVERVIEW_BENCH_RECORDS: args.records, OVERVIEW_BENCH_ITERATIONS: args.iterations },
  outVariable: 'OVERVIEW_BENCH_OUT',
});
