// The sync engine at the rate limit's ceiling: a full then an incremental sync of the emulator's
// account through the real request scheduler (see bench/sync.bench.ts for what is measured).
// Runs the benchmark through vitest, because the mirror imports its SQL with Vite's `?raw`;
// vitest's own output goes to stderr and stdout gets exactly one JSON line. Needs the built
// emulator (out/main/emulator.js: `npx electron-vite build`).
//
//   node bench/sync.mjs [--records 100000] [--time-scale 10]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    'time-scale': { type: 'string', default: '10' },
  },
});

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (!existsSync(path.join(root, 'out', 'main', 'emulator.js'))) {
  console.error(
    'The sync benchmark needs the built emulator: run `npx electron-vite build` first.',
  );
  process.exit(1);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-out-'));
const out = path.join(dir, 'sync.json');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

const child = spawn(
  process.execPath,
  [vitest, 'run', '--config', 'bench/vitest.bench.mts', 'bench/sync.bench.ts'],
  {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
    env: {
      ...process.env,
      SYNC_BENCH_RECORDS: args.records,
      SYNC_BENCH_TIME_SCALE: args['time-scale'],
      SYNC_BENCH_OUT: out,
    },
  },
);
const code = await new Promise((resolve) => child.once('exit', resolve));
try {
  if (code !== 0) {
    console.error(`The sync benchmark failed (vitest exited with ${code}); see above.`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`${readFileSync(out, 'utf8')}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
