/**
 * How web mode's address reaches the browser. The address carries the launch secret, and a
 * command line is readable by every account of the computer (`ps`, /proc/<pid>/cmdline) for as
 * long as the process runs, the browser started by it included. So, as Jupyter does, the browser
 * is sent to a page in the data directory only this user can read, which goes on to the address.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeHtml } from './http/escapeHtml';
import { openInBrowser } from './openBrowser';

/** In the data directory, which is its owner's alone; one web mode runs per data directory. */
export const LAUNCH_PAGE_FILE = 'web-launch.html';

export interface OpenedWebAddress {
  /** False when no browser could be started: the address must be opened by hand. */
  opened: boolean;
  /** Removes the page (call at exit): its secret is worth nothing then, but it is clutter. */
  cleanup(): void;
}

/** The page that sends the browser on to `url` at once, with a link for a browser that does not. */
export function launchPageHtml(url: string): string {
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

/** Opens web mode's address (it carries the launch secret) in the OS browser, through the page. */
export async function openWebAddress(
  url: string,
  options: { dir: string; open?: (target: string) => Promise<boolean> },
): Promise<OpenedWebAddress> {
  const open = options.open ?? openInBrowser;
  const page = path.join(options.dir, LAUNCH_PAGE_FILE);
  // A page an earlier launch left goes first: 'wx' creates it anew with our mode, never writing
  // through a file (or link) that is already there.
  try {
    rmSync(page, { force: true });
    writeFileSync(page, launchPageHtml(url), { mode: 0o600, flag: 'wx' });
  } catch {
    // No page, no browser: the secret never goes on a command line; the address is printed.
    return { opened: false, cleanup: () => undefined };
  }
  return {
    opened: await open(pathToFileURL(page).href),
    cleanup: () => rmSync(page, { force: true }),
  };
}
