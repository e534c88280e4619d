/**
 * How a sign-in address reaches the system browser. It carries the sign-in's `state` and PKCE
 * challenge: another account of the computer reading them from a command line (`ps`) could
 * start its own authorization with that challenge, sign in to an account of its own, and send
 * the code with the stolen `state` to our loopback redirect. The verifier we hold would then
 * match, and PortalDesk would be signed in to the attacker's account (login CSRF). So the
 * browser is sent through a private page in the data directory, as web mode's launch is.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { openThroughPage } from '../openThroughPage';

/**
 * In the data directory, for as long as its sign-in waits: removed when the sign-in ends however
 * it ends, and at start when a crash left it (AccountManager's `signInPageDir`).
 */
export const SIGN_IN_PAGE_FILE = 'sign-in.html';

/**
 * Opens `url` in the browser through the page; false when no page could be written or no
 * browser started (the UI's "Open the sign-in page again" and web mode's printed address remain).
 */
export async function openSignInPage(
  url: string,
  options: { dir: string; open?: (target: string) => Promise<boolean> },
): Promise<boolean> {
  return (await openThroughPage(url, { ...options, file: SIGN_IN_PAGE_FILE })).opened;
}

/**
 * Removes the page from `dir`, if it is there. Its address is worth nothing once its sign-in
 * ended, but until then it names the `state` and challenge; no copy is left lying about.
 */
export function removeSignInPage(dir: string): void {
  rmSync(path.join(dir, SIGN_IN_PAGE_FILE), { force: true });
}
