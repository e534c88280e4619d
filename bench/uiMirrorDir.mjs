// The records workspace's million-record mirror, filled once by bench/uiMirror.bench.ts into a
// data directory under the OS temp folder and reused by bench/ui.mjs and bench/scale.mjs (which
// scrolls a copy of it while web mode syncs). A marker file says how many records it holds and
// the schema version it was filled with: a mirror of an older schema is filled again (opened as it
// is, every copy would migrate a million records again before web mode answers).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Where a mirror of `records` records is kept between runs. */
export const uiMirrorDir = (records) => path.join(os.tmpdir(), `portaldesk-ui-bench-${records}`);

function run(command, argv, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} exited with ${code}:\n${output}`)),
    );
  });
}

/** The app's schema version: its newest migration's number (src/main/store/migrations). */
function appSchemaVersion() {
  const numbers = readdirSync(path.join(root, 'src', 'main', 'store', 'migrations'))
    .map((name) => /^(\d+)_.*\.sql$/.exec(name)?.[1])
    .filter((number) => number !== undefined)
    .map(Number);
  return Math.max(...numbers);
}

/**
 * Makes sure `dataDir` holds a mirror of `records` records at the app's schema: reused when its
 * marker says so and `fresh` is false, otherwise emptied and filled (minutes for a million).
 */
export async function ensureUiMirror({ records, dataDir, fresh = false, log }) {
  const marker = path.join(dataDir, 'ui-mirror.json');
  if (!fresh && existsSync(marker)) {
    const held = JSON.parse(readFileSync(marker, 'utf8'));
    if (held.records === records && held.schemaVersion === appSchemaVersion()) {
      log(`reusing the mirror in ${dataDir}`);
      return;
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  log(`filling a mirror of ${records} records in ${dataDir} (minutes for a million)…`);
  const started = Date.now();
  await run(
    process.execPath,
    [
      path.join('node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      'bench/vitest.bench.mts',
      'bench/uiMirror.bench.ts',
    ],
    { ...process.env, UI_MIRROR_DIR: dataDir, UI_MIRROR_RECORDS: String(records) },
  );
  log(`filled in ${Math.round((Date.now() - started) / 1000)} s`);
}
