/**
 * Web mode with an OS keychain: signing in to a service (not the demo) stores the refresh token
 * and client secret in the Secret Service and is refused without one (src/main/auth/README.md).
 * Inside a D-Bus session (as `npm test` runs in CI) the session's keyring is used; otherwise web
 * mode runs in a D-Bus session of its own with a throw-away, unlocked gnome-keyring.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningWebMode } from './webMode';

const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;
const ADDRESS = /http:\/\/127\.0\.0\.1:\d+\/#secret=[0-9a-f]+/;

export async function startWebModeWithKeychain(): Promise<RunningWebMode> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-e2e-'));
  const keyringDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-e2e-keyring-'));
  const web = ['out/main/web.js', '--port', '0', '--no-open', '--data-dir', dataDir];
  const ownSession = !process.env.DBUS_SESSION_BUS_ADDRESS;
  // The shell prints its pid and becomes web mode (exec), so web mode alone gets the SIGTERM and
  // shuts down cleanly; dbus-run-session then ends the bus and the keyring daemon with it.
  const child = ownSession
    ? spawn(
        'dbus-run-session',
        [
          '--',
          'sh',
          '-c',
          'echo -n e2e | gnome-keyring-daemon --unlock --components=secrets >/dev/null && echo "web-pid $$" && exec "$0" "$@"',
          process.execPath,
          ...web,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
          env: { ...process.env, XDG_DATA_HOME: keyringDir },
        },
      )
    : spawn(process.execPath, web, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let webPid: number | undefined = ownSession ? undefined : child.pid;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`web mode did not print its address in time:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const pid = /^web-pid (\d+)$/m.exec(output);
      if (pid) webPid ??= Number(pid[1]);
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
        const exited = new Promise((resolve) => child.once('exit', resolve));
        if (webPid !== undefined) process.kill(webPid, 'SIGTERM');
        const timeout = setTimeout(() => {
          // Web mode hung on the way out: end the whole session, the bus and keyring included.
          if (ownSession && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        }, STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timeout);
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(keyringDir, { recursive: true, force: true });
    },
  };
}
