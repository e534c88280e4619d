// The records export on a million records: CSV and XLSX rows per second and the heap they need
// (see bench/export.bench.ts for what is measured). Runs the benchmark through vitest
// (bench/runVitestBench.mjs); stdout gets exactly one JSON line. Needs no build.
//
//   node bench/export.mjs [--rows 1000000] [--where thread|engine] [--sort name] [--helpers N]
//     [--mirror DIR]   (the mirror filled once into DIR and reused by later runs of the same --rows)
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    where: { type: 'string', default: 'thread' },
    sort: { type: 'string', default: 'name' },
    helpers: { type: 'string', default: '' },
    mirror: { type: 'string' },
  },
});

await runVitestBench({
  name: 'export',
  file: 'bench/export.bench.ts',
  env: {
    EXPORT_BENCH_ROWS: args.rows,
    EXPORT_BENCH_WHERE: args.where,
    EXPORT_BENCH_SORT: args.sort,
    EXPORT_BENCH_HELPERS: args.helpers,
    ...(args.mirror ? { EXPORT_BENCH_MIRROR: args.mirror } : {}),
  },
  outVariable: 'EXPORT_BENCH_OUT',
});
