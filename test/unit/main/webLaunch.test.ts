import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openWebAddress } from '../../../src/main/webLaunch';
import { tempDir } from '../../support/tempDir';

const SECRET = 'a1'.repeat(32);
const ADDRESS = `http://127.0.0.1:5123/#secret=${SECRET}`;

describe("opening web mode's address", () => {
  it("puts no secret on a command line (other accounts of the computer can read every process's)", async () => {
    const dir = tempDir();
    const opened: string[] = [];
    const result = await openWebAddress(ADDRESS, {
      dir,
      open: async (target) => {
        opened.push(target);
        return true;
      },
    });
    expect(result.opened).toBe(true);
    expect(opened).toHaveLength(1);
    const target = opened[0] as string;
    // The browser (and xdg-open, open or rundll32 before it) keeps its URL in its argv for its life.
    expect(target).not.toContain(SECRET);

    // Instead the browser opens a page only this user can read, which goes on to the address.
    expect(target.startsWith('file:')).toBe(true);
    const page = fileURLToPath(target);
    if (process.platform !== 'win32') expect(statSync(page).mode & 0o777).toBe(0o600);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${ADDRESS}">`);
    expect(html).toContain(`<a href="${ADDRESS}">`);

    result.cleanup();
    expect(existsSync(page)).toBe(false);
  });

  it('replaces a page an earlier launch left, and says when no browser started', async () => {
    const dir = tempDir();
    const targets: string[] = [];
    const first = await openWebAddress('http://127.0.0.1:1/#secret=' + 'b2'.repeat(32), {
      dir,
      open: async (target) => (targets.push(target), true),
    });
    expect(first.opened).toBe(true);
    const second = await openWebAddress(ADDRESS, {
      dir,
      open: async (target) => (targets.push(target), false),
    });
    expect(second.opened).toBe(false);
    const html = readFileSync(fileURLToPath(targets[1] as string), 'utf8');
    expect(html).toContain(SECRET);
    expect(html).not.toContain('b2'.repeat(32));
    second.cleanup();
  });
});

describe("opening web mode's address where the page cannot be written", () => {
  it('starts no browser rather than pass the secret on its command line', async () => {
    const opened: string[] = [];
    const result = await openWebAddress(ADDRESS, {
      dir: '/nonexistent-portaldesk-dir/x',
      open: async (target) => (opened.push(target), true),
    });
    expect(result.opened).toBe(false);
    expect(opened).toEqual([]);
  });
});
