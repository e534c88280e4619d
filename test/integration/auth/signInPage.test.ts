/**
 * The private sign-in page (auth/signInPage.ts) holds the sign-in address, its `state` and PKCE
 * challenge, in the data directory: it is removed as soon as its sign-in ends, however it ends
 * (completed, refused, timed out, cancelled), and at start when a crash left it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSignInPage, SIGN_IN_PAGE_FILE } from '../../../src/main/auth/signInPage';
import { authSession, windowlessBrowser, type Visit } from './authSession';

/** A session whose browser is opened through the page, as the engine's openers do. */
async function pageSession(redirect: (url: URL) => URL | null, timeoutMs = 60_000) {
  const visits: Visit[] = [];
  let pageSeen = false;
  const s = await authSession({
    manager: {
      signInTimeoutMs: timeoutMs,
      openExternal: async (url: string) => {
        const dir = s.dataDir;
        await openSignInPage(url, { dir, open: async () => true });
        pageSeen = existsSync(path.join(dir, SIGN_IN_PAGE_FILE));
        await windowlessBrowser(visits, () => ({ redirect }))(url);
      },
    },
  });
  const manager = s.newManager({ signInPageDir: s.dataDir });
  return { s, manager, page: path.join(s.dataDir, SIGN_IN_PAGE_FILE), seen: () => pageSeen };
}

describe('the private sign-in page', () => {
  test('is removed once the sign-in completes', async () => {
    const { s, manager, page, seen } = await pageSession((url) => url);
    const account = await manager.signIn(s.signInArgs());
    expect(account.status).toBe('signed_in');
    expect(seen()).toBe(true);
    expect(existsSync(page)).toBe(false);
  });

  test('is removed once the sign-in fails: refused by the accounts page, or no answer in time', async () => {
    const refused = await pageSession((url) => {
      const back = new URL(url.origin + url.pathname);
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('state', url.searchParams.get('state')!);
      return back;
    });
    await expect(refused.manager.signIn(refused.s.signInArgs())).rejects.toThrow();
    expect(refused.seen()).toBe(true);
    expect(existsSync(refused.page)).toBe(false);

    const late = await pageSession(() => null, 300);
    await expect(late.manager.signIn(late.s.signInArgs())).rejects.toThrow(/No answer came back/);
    expect(late.seen()).toBe(true);
    expect(existsSync(late.page)).toBe(false);
  });

  test('is removed once the sign-in is cancelled', async () => {
    const { s, manager, page, seen } = await pageSession(() => null);
    const running = manager.signIn(s.signInArgs());
    await expect.poll(() => seen()).toBe(true);
    expect(existsSync(page)).toBe(true);
    manager.cancelSignIn();
    await expect(running).rejects.toThrow(/cancelled/);
    expect(existsSync(page)).toBe(false);
  });

  test('left by a crash, is removed when sign-in starts up', async () => {
    const s = await authSession();
    const page = path.join(s.dataDir, SIGN_IN_PAGE_FILE);
    writeFileSync(page, 'state=left-over', { mode: 0o600 });
    s.newManager({ signInPageDir: s.dataDir });
    expect(existsSync(page)).toBe(false);
  });
});
