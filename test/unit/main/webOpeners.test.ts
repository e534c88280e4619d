import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { webOpeners } from '../../../src/main/webOpeners';
import { tempDir } from '../../support/tempDir';

const LINK = 'https://docs.example.com/assets/42';

function openers(open: boolean, browserStarts: boolean) {
  const started: string[] = [];
  const printed: string[] = [];
  const made = webOpeners(
    { open, dir: tempDir() },
    {
      openInBrowser: async (url) => (started.push(url), browserStarts),
      print: (line) => printed.push(line),
    },
  );
  return { ...made, started, printed };
}

describe("web mode's openers", () => {
  it("say a record's link was not opened when no browser starts (app.openLink then says so)", async () => {
    const web = openers(true, false);
    // app.openLink answers "No browser could be started…" on false; anything else is "opened".
    expect(await web.openLink(LINK)).toBe(false);
    expect(web.printed.join('\n')).not.toContain('to sign in');
  });

  it('open a record link on a click even with --no-open (which is about the launch), and report it', async () => {
    const web = openers(false, true);
    expect(await web.openLink(LINK)).toBe(true);
    expect(web.started).toEqual([LINK]);
    expect(web.printed).toEqual([]);
  });

  it('open the sign-in page through a private page: its state is never on a command line', async () => {
    // Other accounts read every process's arguments (ps, /proc/<pid>/cmdline); with the state
    // and the PKCE challenge they could get a code of their own account accepted (login CSRF).
    const web = openers(true, true);
    const address =
      'https://accounts.example.com/oauth/v2/auth?state=STATE-9f3&code_challenge=CH-1';
    await web.openExternal(address);
    expect(web.started).toHaveLength(1);
    const target = web.started[0] as string;
    expect(target).not.toContain('STATE-9f3');
    expect(target.startsWith('file:')).toBe(true);
    const page = fileURLToPath(target);
    if (process.platform !== 'win32') expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(readFileSync(page, 'utf8')).toContain(`url=${address.replace(/&/g, '&amp;')}`);
    expect(web.printed).toEqual([]);
  });

  it('print the sign-in address when told not to open a browser, or when none starts', async () => {
    const noOpen = openers(false, true);
    await noOpen.openExternal('https://accounts.example.com/auth?state=1');
    expect(noOpen.started).toEqual([]);
    expect(noOpen.printed).toEqual([
      '  to sign in, open: https://accounts.example.com/auth?state=1',
    ]);
    const none = openers(true, false);
    await none.openExternal('https://accounts.example.com/auth?state=2');
    expect(none.printed).toEqual(['  to sign in, open: https://accounts.example.com/auth?state=2']);
  });
});
