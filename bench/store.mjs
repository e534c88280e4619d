// The mirror's store on a million records: upsert throughput and the latency of the UI's local
// queries (see bench/store.bench.ts for what is measured). Runs the benchmark through vitest,
// because the mirror imports its SQL with Vite's `?raw`; vitest's own output goes to stderr and
// stdout gets exactly one JSON line. Needs no build.
//
//   node bench/store.mjs [--records 1000000] [--iterations 40]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '40' },
  },
});

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-out-'));
const out = path.join(dir, 'store.json');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

const child = spawn(
  process.execPath,
  [vitest, 'run', '--config', 'bench/vitest.bench.mts', 'bench/store.bench.ts'],
  {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
    env: {
      ...process.env,
      STORE_BENCH_RECORDS: args.records,
      STORE_BENCH_ITERATIONS: args.iterations,
      STORE_BENCH_OUT: out,
    },
  },
);
const code = await new Promise((resolve) => child.once('exit', resolve));
try {
  if (code !== 0) {
    console.error(`The store benchmark failed (vitest exited with ${code}); see above.`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`${readFileSync(out, 'utf8')}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
