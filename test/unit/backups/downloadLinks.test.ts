/**
 * Web mode's download links: each names one backup through its own random token, good for an
 * hour. The clock is injected.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DownloadLinks, LINK_TTL_MS } from '../../../src/main/backups/downloadLinks';
import { BACKUP_FILE_PATH_PREFIX } from '../../../src/shared/ipc/webProtocol';

const START = Date.UTC(2026, 10, 26, 9, 0, 0);

function clock(start = START) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const tokenOf = (path: string) => {
  expect(path.startsWith(BACKUP_FILE_PATH_PREFIX)).toBe(true);
  return path.slice(BACKUP_FILE_PATH_PREFIX.length);
};

describe('DownloadLinks', () => {
  it('mints a path under the backup file prefix with 43 URL-safe characters', () => {
    const links = new DownloadLinks(clock().now);
    const { path } = links.mint('17');
    expect(BACKUP_FILE_PATH_PREFIX).toBe('/api/backups/file/');
    expect(tokenOf(path)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(encodeURIComponent(tokenOf(path))).toBe(tokenOf(path));
  });

  it('says when the link expires: an hour from now', () => {
    const links = new DownloadLinks(clock().now);
    expect(LINK_TTL_MS).toBe(3_600_000);
    expect(links.mint('17').expiresAt).toBe('2026-11-26T10:00:00.000Z');
  });

  it('mints a different token every time, for the same backup too', () => {
    const links = new DownloadLinks(clock().now);
    const tokens = new Set<string>();
    for (let i = 0; i < 200; i++) tokens.add(tokenOf(links.mint(i % 2 ? '1' : '2').path));
    expect(tokens.size).toBe(200);
  });

  it('resolves each token to its backup until it expires', () => {
    const time = clock();
    const links = new DownloadLinks(time.now);
    const a = tokenOf(links.mint('17').path);
    const b = tokenOf(links.mint('18').path);
    expect(links.resolve(a)).toBe('17');
    expect(links.resolve(b)).toBe('18');
    time.advance(LINK_TTL_MS - 1);
    expect(links.resolve(a)).toBe('17');
    time.advance(1);
    expect(links.resolve(a)).toBeNull();
    expect(links.resolve(b)).toBeNull();
    // Once expired, always expired: even a clock set back does not revive it.
    time.advance(-LINK_TTL_MS);
    expect(links.resolve(a)).toBeNull();
  });

  it('keeps each token its own hour', () => {
    const time = clock();
    const links = new DownloadLinks(time.now);
    const early = tokenOf(links.mint('1').path);
    time.advance(30 * 60_000);
    const late = tokenOf(links.mint('2').path);
    time.advance(30 * 60_000);
    expect(links.resolve(early)).toBeNull();
    expect(links.resolve(late)).toBe('2');
    time.advance(30 * 60_000);
    expect(links.resolve(late)).toBeNull();
  });

  it('forgets expired tokens when it mints again', () => {
    const time = clock();
    const links = new DownloadLinks(time.now);
    const old = tokenOf(links.mint('1').path);
    time.advance(LINK_TTL_MS);
    links.mint('2');
    time.advance(-LINK_TTL_MS);
    expect(links.resolve(old)).toBeNull();
  });

  it('gives null for an unknown token', () => {
    const links = new DownloadLinks(clock().now);
    links.mint('17');
    expect(links.resolve('A'.repeat(43))).toBeNull();
  });

  it('gives null for malformed tokens, even one it minted with a character changed', () => {
    const links = new DownloadLinks(clock().now);
    const token = tokenOf(links.mint('17').path);
    for (const bad of [
      '',
      token.slice(1),
      `${token}A`,
      `${token.slice(0, 42)}=`,
      `${token.slice(0, 42)}+`,
      `${token.slice(0, 42)}/`,
      ` ${token.slice(1)}`,
      `${token}\n`,
      BACKUP_FILE_PATH_PREFIX + token,
      '__proto__',
      'constructor',
    ]) {
      expect(links.resolve(bad)).toBeNull();
    }
    expect(links.resolve(token)).toBe('17');
  });

  it('resolves no string it did not mint', () => {
    const links = new DownloadLinks(clock().now);
    const minted = new Set([links.mint('1').path, links.mint('2').path].map(tokenOf));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)), (token) => {
        fc.pre(!minted.has(token));
        expect(links.resolve(token)).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it('uses the real clock by default', () => {
    const links = new DownloadLinks();
    const before = Date.now();
    const { path, expiresAt } = links.mint('5');
    const expires = Date.parse(expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + LINK_TTL_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + LINK_TTL_MS);
    expect(links.resolve(tokenOf(path))).toBe('5');
  });
});
