/**
 * Web mode's two uses of the OS browser. Sign-in pages: with --no-open, or when no browser
 * starts, the address is printed for the user to open. A record's link: a click asks for it, so
 * it is opened whatever --no-open says (that flag is about the launch), and a browser that does
 * not start is reported (false), so app.openLink says to open the link by hand instead of
 * answering "opened" after printing it as a sign-in address.
 */
import { openSignInPage } from './auth/signInPage';
import { openInBrowser } from './openBrowser';

export interface WebOpeners {
  /** For sign-in (the engine's `openExternal`): through a private page (auth/signInPage.ts). */
  openExternal: (url: string) => Promise<void>;
  /** For a record's checked link (the engine's `openLink`): false when no browser started. */
  openLink: (url: string) => Promise<boolean>;
}

export function webOpeners(
  args: {
    open: boolean;
    /** The data directory, where the sign-in page is written. */ dir: string;
  },
  deps: { openInBrowser?: (url: string) => Promise<boolean>; print?: (line: string) => void } = {},
): WebOpeners {
  const open = deps.openInBrowser ?? openInBrowser;
  const print = deps.print ?? console.log;
  return {
    openExternal: async (url) => {
      // Printed on stdout, which only this user sees; never passed to the browser's command line.
      if (!args.open || !(await openSignInPage(url, { dir: args.dir, open }))) {
        print(`  to sign in, open: ${url}`);
      }
    },
    openLink: (url) => open(url),
  };
}
