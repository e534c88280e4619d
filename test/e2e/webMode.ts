import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningWebMode {
  url: string;
  origin: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

export interface WebModeOptions {
  /** An existing data directory, kept on stop; without it a fresh one, removed on stop. */
  dataDir?: string;
  /** Starts web mode from its arguments (`out/main/web.js …`); default: `node` with them. */
  spawn?: (webArgs: string[]) => ChildProcess;
  /**
   * Ends web mode while it runs and resolves once `child` exited; default: SIGTERM to `child`.
   * `output` is everything it printed so far.
   */
  terminate?: (child: ChildProcess, output: string) => Promise<void>;
}

const START_TIMEOUT_MS = 15_000;
const ADDRESS = /http:\/\/127\.0\.0\.1:\d+\/#secret=[0-9a-f]+/;

/** Resolves once `child` exited. */
export const exitOf = (child: ChildProcess): Promise<unknown> =>
  new Promise((resolve) => child.once('exit', resolve));

async function sigterm(child: ChildProcess): Promise<void> {
  const exited = exitOf(child);
  child.kill('SIGTERM');
  await exited;
}

/**
 * Starts `node out/main/web.js` (what `npm run web` runs after building) on a free port with a
 * fresh data directory (or `options.dataDir`), and resolves with the address it prints.
 */
export async function startWebMode(options: WebModeOptions = {}): Promise<RunningWebMode> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'portaldesk-e2e-'));
  const webArgs = ['out/main/web.js', '--port', '0', '--no-open', '--data-dir', dataDir];
  const child: ChildProcess = options.spawn
    ? options.spawn(webArgs)
    : spawn(process.execPath, webArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`web mode did not print its address in time:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ADDRESS.exec(output);
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
    origin: new URL(url).origin,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await (options.terminate ?? sigterm)(child, output);
      }
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
