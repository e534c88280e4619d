import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isAppUrl, locationKey } from '../../../src/main/security/appOrigin';
import { isAllowedNavigation } from '../../../src/main/security/navigation';
import { decidePermission } from '../../../src/main/security/permissions';

const dev = 'http://localhost:5173';

describe('navigation', () => {
  it('stays within our renderer', () => {
    expect(isAllowedNavigation(APP_ENTRY_URL)).toBe(true);
    expect(isAllowedNavigation('portaldesk://app/index.html#/records')).toBe(true);
    expect(isAllowedNavigation('http://localhost:5173/', dev)).toBe(true);
  });

  it.each([
    'https://example.com/',
    'file:///home/user/index.html',
    'javascript:alert(1)',
    'data:text/html,hi',
    'about:blank',
    'portaldesk://evil/index.html',
    'portaldesk://app.evil.net/index.html',
    'http://localhost:5174/',
    'http://localhost:5173.evil.net/',
  ])('refuses %s', (url) => {
    expect(isAllowedNavigation(url, dev)).toBe(false);
  });

  it('does not allow the dev server when none is running', () => {
    expect(isAllowedNavigation('http://localhost:5173/')).toBe(false);
  });

  it('compares custom-scheme locations by host, not by the "null" origin Node gives them', () => {
    expect(new URL('portaldesk://evil/x').origin).toBe('null');
    expect(locationKey('portaldesk://app/x')).toBe('portaldesk://app');
    expect(isAppUrl('portaldesk://evil/x')).toBe(false);
  });
});

describe('permissions', () => {
  it('denies everything but clipboard writes, and those only to our renderer', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'unknown']) {
      expect(decidePermission(permission, APP_ENTRY_URL)).toBe(false);
    }
    expect(decidePermission('clipboard-sanitized-write', APP_ENTRY_URL)).toBe(true);
    expect(decidePermission('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(decidePermission('clipboard-read', APP_ENTRY_URL)).toBe(false);
  });
});
