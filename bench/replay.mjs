// The outbox at the rate limit's ceiling: edits queued offline, then replayed against the
// emulator through the real request scheduler (see bench/replay.bench.ts for what is measured).
// Runs the benchmark through vitest (bench/runVitestBench.mjs); stdout gets exactly one JSON line.
// Needs the built emulator (out/main/emulator.js: `npx electron-vite build`).
//
//   node bench/replay.mjs [--edits 5000] [--records 1000] [--time-scale 10]
//   node bench/replay.mjs --bulk [--records 10000] [--time-scale 10]   (one bulk edit, issue 20)
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    edits: { type: 'string', default: '5000' },
    records: { type: 'string' },
    bulk: { type: 'boolean', default: false },
    'time-scale': { type: 'string', default: '10' },
  },
});

await runVitestBench({
  name: 'replay',
  file: 'bench/replay.bench.ts',
  needsEmulator: true,
  env: {
    REPLAY_BENCH_EDITS: args.edits,
    REPLAY_BENCH_RECORDS: args.records ?? (args.bulk ? '10000' : '1000'),
    REPLAY_BENCH_BULK: args.bulk ? '1' : '0',
    REPLAY_BENCH_TIME_SCALE: args['time-scale'],
  },
  outVariable: 'REPLAY_BENCH_OUT',
});
