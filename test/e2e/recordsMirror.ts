import { spawn } from 'node:child_process';
import path from 'node:path';
import { startWebMode } from './webMode';

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
  const { url, stop } = await startWebMode({ dataDir });
  return { url, stop };
}
