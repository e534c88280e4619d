import { describe, expect, it } from 'vitest';
import { emulatorServiceProfile } from '../../../../src/main/api/client/emulatorProfile';
import {
  accountsUrl,
  apiBaseUrl,
  scopeName,
  ServiceProfile,
} from '@portaldesk/portal-api/serviceProfile';
import { testProfile } from './fakes';

describe('service profiles', () => {
  it('hold every address and constant the client uses', () => {
    const profile = testProfile();
    expect(apiBaseUrl(profile, 'eu')).toBe('https://api.eu.test/api/v3');
    expect(accountsUrl(profile, 'us')).toBe('https://accounts.us.test');
    expect(accountsUrl(profile, 'sg')).toBeUndefined();
    expect(scopeName(profile, 'files', 'files', 'READ')).toBe('PMSFiles.files.READ');
  });

  it('refuse a profile that would build wrong URLs', () => {
    const valid = { ...testProfile() };
    expect(ServiceProfile.safeParse(valid).success).toBe(true);
    for (const broken of [
      { ...valid, apiPrefix: 'api/v3' },
      { ...valid, apiPrefix: '/api/v3/' },
      { ...valid, commentSegment: 'a/b' },
      { ...valid, dataCenters: {} },
      { ...valid, dataCenters: { us: { api: 'ftp://x' } } },
      { ...valid, dataCenters: { US: { api: 'https://x' } } },
    ]) {
      expect(ServiceProfile.safeParse(broken).success, JSON.stringify(broken)).toBe(false);
    }
  });

  it('refuse a user name or password in a server address (stored in SQLite, never usable)', () => {
    // fetch refuses such a URL, so every call failed as "could not reach the server", and the
    // password sat in the profiles table, where nothing secret goes.
    const valid = testProfile();
    for (const address of ['https://ann:s3cret@api.eu.test', 'https://ann@accounts.us.test']) {
      const parsed = ServiceProfile.safeParse({
        ...valid,
        dataCenters: { eu: { api: address, accounts: address } },
      });
      expect(parsed.success, address).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/user name or password/);
    }
  });

  it('say which data centers exist when asked for another', () => {
    expect(() => apiBaseUrl(testProfile(), 'in')).toThrow(
      'The service profile "Test service" has no data center "in"; it knows us, eu, sg. Sign in again so PortalDesk learns your data center.',
    );
  });
});

describe('the emulator profile', () => {
  const dcs = {
    us: { api: 'http://127.0.0.1:4100', accounts: 'http://127.0.0.1:4100' },
    uae: { api: 'http://127.0.0.1:4101' },
  };

  it('comes from the --json facts', () => {
    const profile = emulatorServiceProfile({
      dcs,
      comment_segment: 'record comments',
      client_secrets: { us: 's', uae: 's' },
    });
    expect(profile).toEqual({
      id: 'emulator',
      name: 'PortalDesk emulator',
      dataCenters: dcs,
      apiPrefix: '/api/v3',
      scopePrefixes: { api: 'PMS', files: 'PMSFiles' },
      commentSegment: 'record comments',
      legacyAuthScheme: 'PMS-oauthtoken',
      multiDc: false,
    });
  });

  it('comes from startEmulator() too, with Multi-DC when secrets differ per data center', () => {
    const profile = emulatorServiceProfile({
      dcs,
      commentSegment: 'case notes',
      clientSecrets: { us: 's', uae: 's-uae' },
    });
    expect(profile.commentSegment).toBe('case notes');
    expect(profile.multiDc).toBe(true);
    expect(apiBaseUrl(profile, 'uae')).toBe('http://127.0.0.1:4101/api/v3');
  });
});
