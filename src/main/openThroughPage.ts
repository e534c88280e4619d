/**
 * Opening an address that carries a secret (web mode's launch secret, a sign-in's `state` and
 * PKCE challenge) in the OS browser. A command line is readable by every account of the computer
 * (`ps`, /proc/<pid>/cmdline) for as long as the process runs, the browser started by it
 * included. So, as Jupyter does, the browser is sent to a page in the data directory only this
 * user can read, which goes on to the address.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeHtml } from '@portaldesk/portal-api/http/escapeHtml';
import { openInBrowser } from './openBrowser';

export interface OpenedThroughPage {
  /** False when no page could be written or no browser started: open the address by hand. */
  opened: boolean;
  /** Removes the page: its secret is worth nothing once used, but it is clutter. */
  cleanup(): void;
}

/** The page that sends the browser on to `url` at once, with a link for a browser that does not. */
export function redirectPageHtml(url: string): string {
  const target = escapeHtml(url);
  return [
    '<!doctype html>',
    '<meta charset="utf-8">',
    `<meta http-equiv="refresh" content="0;url=${target}">`,
    '<title>PortalDesk</title>',
    `<p>Opening PortalDesk… <a href="${target}">open it</a> if nothing happens.</p>`,
    '',
  ].join('\n');
}

/**
 * Writes `file` in `dir` (the data directory, its owner's alone) as a 0600 page going on to
 * `url`, and opens the page. Without a page no browser is started: the secret never goes on a
 * command line.
 */
export async function openThroughPage(
  url: string,
  options: { dir: string; file: string; open?: (target: string) => Promise<boolean> },
): Promise<OpenedThroughPage> {
  const open = options.open ?? openInBrowser;
  const page = path.join(options.dir, options.file);
  // A page an earlier call left goes first: 'wx' creates it anew with our mode, never writing
  // through a file (or link) that is already there.
  try {
    rmSync(page, { force: true });
    writeFileSync(page, redirectPageHtml(url), { mode: 0o600, flag: 'wx' });
  } catch {
    return { opened: false, cleanup: () => undefined };
  }
  return {
    opened: await open(pathToFileURL(page).href),
    cleanup: () => rmSync(page, { force: true }),
  };
}
