import { spawn } from 'node:child_process';

/** The command that opens a URL in the user's default browser on each OS. */
export function browserCommand(
  platform: NodeJS.Platform,
  url: string,
): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; the empty title argument stops it taking the URL as a title.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Best effort: resolves false (never throws) when no browser could be started. */
export function openInBrowser(url: string): Promise<boolean> {
  const { command, args } = browserCommand(process.platform, url);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
