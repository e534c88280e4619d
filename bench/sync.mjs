// The sync engine at the rate limit's ceiling: a full then an incremental sync of the emulator's
// account through the real request scheduler (see bench/sync.bench.ts for what is measured).
// Runs the benchmark through vitest (bench/runVitestBench.mjs); stdout gets exactly one JSON line.
// Needs the built emulator (out/main/emulator.js: `npx electron-vite build`).
//
//   node bench/sync.mjs [--records 100000] [--time-scale 10] [--portals N] [--modules M]
//
// --portals and --modules are the emulator's (N portals of M custom modules, the records spread
// evenly; left out: its demo layout). Each portal is one record-list endpoint key.
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    'time-scale': { type: 'string', default: '10' },
    portals: { type: 'string', default: '' },
    modules: { type: 'string', default: '' },
  },
});

await runVitestBench({
  name: 'sync',
  file: 'bench/sync.bench.ts',
  needsEmulator: true,
  env: {
    SYNC_BENCH_RECORDS: args.records,
    SYNC_BENCH_TIME_SCALE: args['time-scale'],
    SYNC_BENCH_PORTALS: args.portals,
    SYNC_BENCH_MODULES: args.modules,
  },
  outVariable: 'SYNC_BENCH_OUT',
});
