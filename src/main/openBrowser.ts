import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The command that opens a URL in the user's default browser on each OS. On Windows no shell may
 * read the URL: `cmd /c start` split it at `&` (a sign-in address lost its parameters, and a
 * record's link `https://x/?&\\host\share\app.exe` ran a program) and expanded `%NAME%`.
 * rundll32 hands the URL to the shell's URL handler as it is; named by its full path because
 * Windows looks for a bare command name in the current directory first.
 */
export function browserCommand(
  platform: NodeJS.Platform,
  url: string,
  env: Record<string, string | undefined> = process.env,
): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') {
    const system32 = path.win32.join(env.SystemRoot ?? 'C:\\Windows', 'System32');
    return {
      command: path.win32.join(system32, 'rundll32.exe'),
      args: ['url.dll,FileProtocolHandler', asOneArgument(url)],
    };
  }
  return { command: 'xdg-open', args: [url] };
}

/**
 * A URL as Windows' argument quoting leaves it alone: its serialized form has spaces and quotes
 * percent-encoded, so it is passed unquoted and the handler receives exactly that text.
 */
function asOneArgument(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
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
