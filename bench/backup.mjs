// A portal's backup archive through the app's own download and verification code: the download's
// and the verification's speed, the heap they use, and a download cut half way and resumed (see
// bench/backup.bench.ts for what is measured). Runs the benchmark through vitest
// (bench/runVitestBench.mjs) with `--expose-gc`; stdout gets exactly one JSON line. Needs the
// built emulator (out/main/emulator.js: `npx electron-vite build`).
//
//   node bench/backup.mjs [--records 100000] [--downloads 5] [--profile FILE]
//
// --records: the backed-up portal's records; --downloads: timed whole downloads (the median is
// reported); --profile: a CPU profile of the verification (.cpuprofile, for Chrome's DevTools).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    downloads: { type: 'string', default: '5' },
    profile: { type: 'string' },
  },
});

await runVitestBench({
  name: 'backup',
  file: 'bench/backup.bench.ts',
  needsEmulator: true,
  env: {
    BACKUP_BENCH_RECORDS: args.records,
    BACKUP_BENCH_DOWNLOADS: args.downloads,
    ...(args.profile ? { BACKUP_BENCH_PROFILE: path.resolve(args.profile) } : {}),
    // For the vitest worker: a full GC before the heap's baseline is taken.
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--expose-gc'].filter(Boolean).join(' '),
  },
  outVariable: 'BACKUP_BENCH_OUT',
});
