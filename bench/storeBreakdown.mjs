// Where the mirror's upsert time goes: the same pull with one cost at a time taken away from the
// schema (see bench/storeBreakdown.bench.ts). Runs through vitest (bench/runVitestBench.mjs);
// stdout gets exactly one JSON line. Needs no build.
//
//   node bench/storeBreakdown.mjs [--records 300000]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({ options: { records: { type: 'string', default: '300000' } } });

await runVitestBench({
  name: 'store_breakdown',
  file: 'bench/storeBreakdown.bench.ts',
  env: { BREAKDOWN_BENCH_RECORDS: args.records },
  outVariable: 'BREAKDOWN_BENCH_OUT',
});
