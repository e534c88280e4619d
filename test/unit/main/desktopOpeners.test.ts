/**
 * The desktop's accounts pages (desktopOpeners.ts): the sign-in and the pending sign-in's "Open
 * the sign-in page again" both open the private page in the data directory, never the address
 * itself (its state and challenge would be on the browser's command line); other origins open
 * nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { desktopOpeners } from '../../../src/main/desktopOpeners';
import { tempDir } from '../../support/tempDir';

const ACCOUNTS = 'https://accounts.example.test';
const SIGN_IN = `${ACCOUNTS}/oauth/v2/auth?client_id=c&state=s3cr3t&code_challenge=x`;

function desktop(browserStarts = true) {
  const dir = tempDir();
  const opened: string[] = [];
  const openers = desktopOpeners({
    dir: () => dir,
    origins: () => [ACCOUNTS],
    openPath: async (file) => (opened.push(file), browserStarts ? '' : 'no application'),
  });
  return { openers, opened };
}

describe("the desktop's accounts pages", () => {
  it('"Open the sign-in page again" opens the private page, not the address', async () => {
    const { openers, opened } = desktop();
    openers.windowOpen(SIGN_IN);
    await expect.poll(() => opened.length).toBe(1);
    const page = opened[0]!;
    expect(page).not.toContain('s3cr3t');
    expect(page.endsWith('sign-in.html')).toBe(true);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(readFileSync(page, 'utf8')).toContain('s3cr3t');
  });

  it('the sign-in opens the same way, and says so when no browser starts', async () => {
    const ok = desktop();
    await ok.openers.openExternal(SIGN_IN);
    expect(ok.opened.map((file) => file.endsWith('sign-in.html'))).toEqual([true]);
    await expect(desktop(false).openers.openExternal(SIGN_IN)).rejects.toThrow(
      'No browser could be started for the sign-in page.',
    );
  });

  it('opens nothing for another origin (the window handler) and refuses it (the sign-in)', async () => {
    const { openers, opened } = desktop();
    openers.windowOpen('https://evil.example/oauth?state=x');
    openers.windowOpen('javascript:alert(1)');
    await expect(openers.openExternal('https://evil.example/')).rejects.toThrow(
      'Refused to open https://evil.example: not an accounts server.',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).toEqual([]);
  });
});
