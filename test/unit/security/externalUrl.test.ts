import { describe, expect, it } from 'vitest';
import { mayOpenExternally } from '../../../src/main/security/externalUrl';

const accounts = ['https://accounts.example.com', 'http://127.0.0.1:4100'];

describe('mayOpenExternally', () => {
  it("allows the active profile's accounts servers over http(s)", () => {
    expect(mayOpenExternally('https://accounts.example.com/oauth/v2/auth?x=1', accounts)).toBe(
      true,
    );
    expect(mayOpenExternally('https://ACCOUNTS.example.com:443/oauth', accounts)).toBe(true);
    expect(mayOpenExternally('http://127.0.0.1:4100/oauth/v2/auth', accounts)).toBe(true);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a custom scheme', 'ms-settings:privacy'],
    ['the app scheme', 'portaldesk://app/index.html'],
    ['a look-alike suffix', 'https://accounts.example.com.evil.net/oauth'],
    ['a look-alike prefix', 'https://evilaccounts.example.com/oauth'],
    ['credentials pointing elsewhere', 'https://accounts.example.com@evil.net/oauth'],
    ['credentials on the right host', 'https://user:pw@accounts.example.com/oauth'],
    ['a punycode homograph', 'https://accounts.exаmple.com/oauth'],
    ['another port', 'https://accounts.example.com:8443/oauth'],
    ['http instead of https', 'http://accounts.example.com/oauth'],
    ['a sibling subdomain', 'https://api.example.com/'],
    ['garbage', 'not a url'],
  ])('refuses %s', (_label, url) => {
    expect(mayOpenExternally(url, accounts)).toBe(false);
  });

  it('allows nothing when no profile is active', () => {
    expect(mayOpenExternally('https://accounts.example.com/', [])).toBe(false);
  });
});
