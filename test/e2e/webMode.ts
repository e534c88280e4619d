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

const START_TIMEOUT_MS = 15_000;

/**
 * Starts `node out/main/web.js` (what `npm run web` runs after building) on a free port with a
 * fresh data directory, and resolves with the address it prints.
 */
export async function startWebMode(): Promise<RunningWebMode> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-e2e-'));
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
    origin: new URL(url).origin,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
