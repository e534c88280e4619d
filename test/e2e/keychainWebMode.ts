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
import { exitOf, startWebMode, type RunningWebMode } from './webMode';

const STOP_TIMEOUT_MS = 10_000;

/** `dataDir`: an existing data directory, kept on stop (bench/scaleUi.ts); default a fresh one. */
export async function startWebModeWithKeychain(
  options: { dataDir?: string } = {},
): Promise<RunningWebMode> {
  const keyringDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-e2e-keyring-'));
  const ownSession = !process.env.DBUS_SESSION_BUS_ADDRESS;
  const web = await startWebMode({
    ...options,
    // The shell prints its pid and becomes web mode (exec), so web mode alone gets the SIGTERM
    // and shuts down cleanly; dbus-run-session then ends the bus and the keyring daemon with it.
    spawn: ownSession
      ? (webArgs) =>
          spawn(
            'dbus-run-session',
            [
              '--',
              'sh',
              '-c',
              'echo -n e2e | gnome-keyring-daemon --unlock --components=secrets >/dev/null && echo "web-pid $$" && exec "$0" "$@"',
              process.execPath,
              ...webArgs,
            ],
            {
              stdio: ['ignore', 'pipe', 'pipe'],
              detached: true,
              env: { ...process.env, XDG_DATA_HOME: keyringDir },
            },
          )
      : undefined,
    terminate: async (child, output) => {
      const pid = /^web-pid (\d+)$/m.exec(output);
      const webPid = ownSession ? (pid ? Number(pid[1]) : undefined) : child.pid;
      const exited = exitOf(child);
      if (webPid !== undefined) process.kill(webPid, 'SIGTERM');
      const timeout = setTimeout(() => {
        // Web mode hung on the way out: end the whole session, the bus and keyring included.
        if (ownSession && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timeout);
    },
  });
  return {
    ...web,
    stop: async () => {
      await web.stop();
      rmSync(keyringDir, { recursive: true, force: true });
    },
  };
}
