// Many endpoint keys at once (issue 18): a full sync of N portals × M modules through the real
// request scheduler at the service's own window, the engine's answer time for record windows
// meanwhile, and the renderer's longest frame scrolling a million-record module while web mode
// syncs the same account (see bench/scale.bench.ts for what is measured; keys in README.md).
// Runs the benchmark through vitest (bench/runVitestBench.mjs); stdout gets exactly one JSON line.
// Needs a build (out/main/emulator.js and web.js: `npx electron-vite build`).
//
//   node bench/scale.mjs [--portals 32] [--modules 8] [--records 1300000] [--time-scale 1]
//     [--scroll-s 60] [--probe-ms 100] [--no-ui] [--fresh-mirror]
//
// The defaults give 32 busy record keys (one per portal: the rate limit counts per route and
// portal), each needing two windows of 200 calls (40,625 records a portal, 203 full pages and
// the pull's overlapping windows). --no-ui leaves out the scrolling part (and its million-record
// mirror, filled once into the OS temp folder, minutes the first time; --fresh-mirror refills it).
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';
import { ensureUiMirror, uiMirrorDir } from './uiMirrorDir.mjs';

const { values: args } = parseArgs({
  options: {
    portals: { type: 'string', default: '32' },
    modules: { type: 'string', default: '8' },
    records: { type: 'string', default: '1300000' },
    'time-scale': { type: 'string', default: '1' },
    'scroll-s': { type: 'string', default: '60' },
    'probe-ms': { type: 'string', default: '100' },
    'no-ui': { type: 'boolean', default: false },
    'fresh-mirror': { type: 'boolean', default: false },
  },
});

/** The records of the module bench:ui scrolls, and this benchmark too. */
const UI_RECORDS = 1_000_000;
let mirror = '';
if (!args['no-ui']) {
  mirror = uiMirrorDir(UI_RECORDS);
  await ensureUiMirror({
    records: UI_RECORDS,
    dataDir: mirror,
    fresh: args['fresh-mirror'],
    log: (message) => console.error(`[bench:scale] ${message}`),
  });
}

await runVitestBench({
  name: 'scale',
  file: 'bench/scale.bench.ts',
  needsEmulator: true,
  env: {
    SCALE_BENCH_PORTALS: args.portals,
    SCALE_BENCH_MODULES: args.modules,
    SCALE_BENCH_RECORDS: args.records,
    SCALE_BENCH_TIME_SCALE: args['time-scale'],
    SCALE_BENCH_SCROLL_S: args['scroll-s'],
    SCALE_BENCH_PROBE_MS: args['probe-ms'],
    SCALE_BENCH_UI_MIRROR: mirror,
  },
  outVariable: 'SCALE_BENCH_OUT',
});
