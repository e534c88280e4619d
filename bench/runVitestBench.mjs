// Runs one bench/*.bench.ts file through vitest (the store imports its SQL with Vite's `?raw`, so
// plain Node cannot load it) and passes on the one JSON line the file writes: vitest's own output
// goes to stderr, stdout gets exactly that line. Used by bench/store.mjs, sync.mjs, replay.mjs,
// scale.mjs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * `name`: the benchmark, for messages; `file`: e.g. `bench/sync.bench.ts`; `env`: its settings;
 * `outVariable`: the variable that tells it where to write its JSON; `needsEmulator`: it spawns
 * the built emulator, so stop early with a clear message when there is no build.
 */
export async function runVitestBench({ name, file, env, outVariable, needsEmulator = false }) {
  if (needsEmulator && !existsSync(path.join(root, 'out', 'main', 'emulator.js'))) {
    console.error(
      `The ${name} benchmark needs the built emulator: run \`npx electron-vite build\` first.`,
    );
    process.exit(1);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-out-'));
  const out = path.join(dir, `${name}.json`);
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(
    process.execPath,
    [vitest, 'run', '--config', 'bench/vitest.bench.mts', file],
    {
      cwd: root,
      stdio: ['ignore', process.stderr, 'inherit'],
      env: { ...process.env, ...env, [outVariable]: out },
    },
  );
  const code = await new Promise((resolve) => child.once('exit', resolve));
  try {
    if (code !== 0) {
      console.error(`The ${name} benchmark failed (vitest exited with ${code}); see above.`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`${readFileSync(out, 'utf8')}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
