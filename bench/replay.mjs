// The outbox at the rate limit's ceiling: edits queued offline, then replayed against the
// emulator through the real request scheduler (see bench/replay.bench.ts for what is measured).
// Runs the benchmark through vitest (bench/runVitestBench.mjs); stdout gets exactly one JSON line.
// Needs the built emulator (out/main/emulator.js: `npx electron-vite build`).
//
//   node bench/replay.mjs [--edits 5000] [--records 1000] [--time-scale 10]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    edits: { type: 'string', default: '5000' },
    records: { type: 'string', default: '1000' },
    'time-scale': { type: 'string', default: '10' },
  },
});

await runVitestBench({
  name: 'replay',
  file: 'bench/replay.bench.ts',
  needsEmulator: true,
  env: {
    REPLAY_BENCH_EDITS: args.edits,
    REPLAY_BENCH_RECORDS: args.records,
    REPLAY_BENCH_TIME_SCALE: args['time-scale'],
  },
  outVariable: 'REPLAY_BENCH_OUT',
});
