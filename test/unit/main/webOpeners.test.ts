import { describe, expect, it } from 'vitest';
import { webOpeners } from '../../../src/main/webOpeners';

const LINK = 'https://docs.example.com/assets/42';

function openers(open: boolean, browserStarts: boolean) {
  const started: string[] = [];
  const printed: string[] = [];
  const made = webOpeners(
    { open },
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
