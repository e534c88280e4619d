// The records import's check (its preview) of a 50,000-row CSV: time, heap and the longest hold
// of the engine's event loop (see bench/import.bench.ts). Runs through vitest
// (bench/runVitestBench.mjs); stdout gets exactly one JSON line. Needs no build.
//
//   node bench/import.mjs [--rows 50000]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '50000' } } });

await runVitestBench({
  name: 'import',
  file: 'bench/import.bench.ts',
  env: { IMPORT_BENCH_ROWS: args.rows },
  outVariable: 'IMPORT_BENCH_OUT',
});
