import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const START_TIMEOUT_MS = 15_000;

/**
 * Fills `dataDir`'s mirror with bench/uiMirror.bench.ts (run through vitest, because the mirror
 * imports its SQL with Vite's `?raw`): the demo account's portal, an assets module of `records`
 * records with every custom field type, comments and timelines on the first ones.
 */
export async function fillMirror(dataDir: string, records: number): Promise<void> {
  const vitest = path.join('node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(
    process.execPath,
    [vitest, 'run', '--config', 'bench/vitest.bench.mts', 'bench/uiMirror.bench.ts'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, UI_MIRROR_DIR: dataDir, UI_MIRROR_RECORDS: String(records) },
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`Filling the mirror failed (exit ${code}):\n${output}`);
}

export interface WebModeOnDir {
  url: string;
  stop(): Promise<void>;
}

/** `node out/main/web.js` on an existing data directory (what `npm run web -- --data-dir` runs). */
export async function startWebModeOn(dataDir: string): Promise<WebModeOnDir> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/main/web.js', '--port', '0', '--no-open', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`web mode did not print its address in time:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/#secret=[0-9a-f]+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web mode exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
