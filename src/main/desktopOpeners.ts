/**
 * The desktop's ways to an accounts server's page (the sign-in's first opening, and the pending
 * sign-in's "Open the sign-in page again" link, which the window hands to its open handler): both
 * through the private page in the data directory (auth/signInPage.ts), so the address's state
 * never reaches a command line. Electron's shell is passed in, so the decisions are tested in
 * plain Node (test/unit/main/desktopOpeners.test.ts); index.ts only wires them.
 */
import { fileURLToPath } from 'node:url';
import { openSignInPage } from './auth/signInPage';
import { mayOpenExternally } from './security/externalUrl';

export interface DesktopOpeners {
  /** The engine's `openExternal` (sign-in): refused for any other origin, thrown when it fails. */
  openExternal(url: string): Promise<void>;
  /** The window's open handler: an accounts page opens through the page, anything else not. */
  windowOpen(url: string): void;
}

export function desktopOpeners(deps: {
  /** The data directory, where the page is written (known once the app is ready). */
  dir: () => string | undefined;
  /** The accounts servers' origins allowed now. */
  origins: () => readonly string[];
  /** Electron's `shell.openPath`: '' once the file's default application took it. */
  openPath: (path: string) => Promise<string>;
}): DesktopOpeners {
  const openPage = async (url: string) => {
    const dir = deps.dir();
    if (dir === undefined) throw new Error('The data directory is not known yet.');
    const opened = await openSignInPage(url, {
      dir,
      open: async (page) => (await deps.openPath(fileURLToPath(page))) === '',
    });
    if (!opened) throw new Error('No browser could be started for the sign-in page.');
  };
  return {
    async openExternal(url) {
      if (!mayOpenExternally(url, deps.origins())) {
        throw new Error(`Refused to open ${new URL(url).origin}: not an accounts server.`);
      }
      await openPage(url);
    },
    windowOpen(url) {
      // A browser that cannot be started: the banner's "Copy the sign-in address" remains.
      if (mayOpenExternally(url, deps.origins())) void openPage(url).catch(() => {});
    },
  };
}
