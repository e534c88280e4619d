import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeFor, resolveStaticPath } from '../../../src/main/bridge/staticAssets';

const root = path.resolve('/srv/renderer');

describe('resolveStaticPath', () => {
  it('maps URL paths to files inside the renderer folder', () => {
    expect(resolveStaticPath(root, '/')).toBe(path.join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/index-abc.js')).toBe(
      path.join(root, 'assets', 'index-abc.js'),
    );
    expect(resolveStaticPath(root, '/assets/a%20b.css')).toBe(path.join(root, 'assets', 'a b.css'));
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%5csecret.txt',
    '/index.html%00.js',
    '/%E0%A4%A',
  ])('refuses %s', (urlPath) => {
    expect(resolveStaticPath(root, urlPath)).toBeNull();
  });

  it('names content types so browsers never sniff', () => {
    expect(contentTypeFor('a.js')).toMatch(/javascript/);
    expect(contentTypeFor('a.CSS')).toMatch(/text\/css/);
    expect(contentTypeFor('a.unknown')).toBe('application/octet-stream');
  });
});
