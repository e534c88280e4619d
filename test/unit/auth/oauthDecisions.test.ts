import { describe, expect, test } from 'vitest';
import { emulatorServiceProfile } from '../../../src/main/api/client/emulatorProfile';
import { accessTokenAllowance, tokensInWindow } from '../../../src/main/auth/accessTokenAllowance';
import { accountProfile } from '../../../src/main/auth/accountProfile';
import { authorizationUrl } from '../../../src/main/auth/authorizationUrl';
import { defaultScopes } from '../../../src/main/auth/defaultScopes';
import { exchangeTarget } from '../../../src/main/auth/exchangeTarget';
import { parseLoopbackRedirectUri } from '../../../src/main/auth/loopbackRedirectUri';
import {
  OAUTH_ERROR_CODES,
  oauthErrorField,
  oauthErrorMessage,
} from '../../../src/main/auth/oauthErrorMessage';
import { SelfClientArgs, SignInArgs } from '../../../src/shared/ipc/areas/accounts';
import { createPkce } from '../../../src/main/auth/pkce';
import { readRedirectAnswer } from '../../../src/main/auth/redirectAnswer';
import { redactSecrets } from '../../../src/main/auth/redactSecrets';
import { checkScopeList } from '../../../src/main/auth/scopeList';
import { createHash } from 'node:crypto';

const profile = emulatorServiceProfile(
  {
    dcs: {
      us: { api: 'https://api.us.example', accounts: 'https://accounts.us.example' },
      eu: { api: 'https://api.eu.example', accounts: 'https://accounts.eu.example' },
      uae: { api: 'https://api.uae.example' },
    },
    commentSegment: 'record comments',
  },
  { id: 'svc', name: 'Example service' },
);

describe('the 10-per-10-minutes allowance', () => {
  const MIN = 60_000;
  test('allows up to 10 in the window, then waits until the oldest has left it', () => {
    const now = 100 * MIN;
    const nine = Array.from({ length: 9 }, (_, i) => now - 5 * MIN + i);
    expect(accessTokenAllowance(nine, now)).toEqual({ allowed: true });
    const ten = [now - 9 * MIN, ...nine];
    expect(accessTokenAllowance(ten, now)).toEqual({ allowed: false, waitMs: MIN + 1 });
    // Old entries do not count.
    expect(accessTokenAllowance([now - 10 * MIN, ...nine], now)).toEqual({ allowed: true });
    expect(tokensInWindow([now - 11 * MIN, ...ten], now)).toBe(10);
  });

  test('with more than 10 recorded (lost answers), waits for enough of them to leave', () => {
    const now = 50 * MIN;
    const twelve = Array.from({ length: 12 }, (_, i) => now - 9 * MIN + i * 1000);
    const decision = accessTokenAllowance(twelve, now);
    // Only 9 may remain: the third oldest must leave.
    expect(decision).toEqual({ allowed: false, waitMs: MIN + 2000 + 1 });
  });
});

describe('OAuth error messages', () => {
  test('every error the app can meet says what happened, that nothing was stored, and what to do', () => {
    const messages = OAUTH_ERROR_CODES.map((code) =>
      oauthErrorMessage(code, {
        profileName: 'Example service',
        dataCenter: 'eu',
        clientId: '1000.ABC',
        redirectUri: 'http://127.0.0.1:53682/callback',
      }),
    );
    expect(new Set(messages).size).toBe(OAUTH_ERROR_CODES.length);
    OAUTH_ERROR_CODES.forEach((code, i) => {
      expect(messages[i]).toContain(code);
      expect(messages[i]).toContain('Nothing was stored.');
    });
    expect(oauthErrorMessage('invalid_client', { profileName: 'X', dataCenter: 'eu' })).toContain(
      'X (data center EU) refused',
    );
    expect(oauthErrorMessage('mystery', { profileName: 'X', during: 'renewing access' })).toBe(
      'X answered renewing access with the error "mystery". Nothing was stored. Try again; if it persists, check the client registration in the developer console.',
    );
  });
});

describe('OAuth errors by field', () => {
  test('each error about one value names an argument of the sign-in forms, and its message speaks of it', () => {
    const keys = new Set([...Object.keys(SignInArgs.shape), ...Object.keys(SelfClientArgs.shape)]);
    const words: Record<string, RegExp> = {
      code: /grant code/,
      clientId: /client id/,
      clientSecret: /secret/,
      redirectUri: /redirect URI/,
      scopes: /scope/,
    };
    const named = OAUTH_ERROR_CODES.filter((code) => oauthErrorField(code) !== undefined);
    expect(named.length).toBeGreaterThanOrEqual(7);
    for (const code of named) {
      const field = oauthErrorField(code)!;
      expect(keys.has(field)).toBe(true);
      expect(oauthErrorMessage(code, { profileName: 'X', clientId: '1000.A' })).toMatch(
        words[field]!,
      );
    }
    // The rest is about the request, the service or the user's answer: beside the button.
    for (const code of ['access_denied', 'temporarily_unavailable', 'invalid_request', 'nope']) {
      expect(oauthErrorField(code)).toBeUndefined();
    }
  });
});

describe('scopes', () => {
  test('valid ones are kept once each; the first invalid one is named', () => {
    expect(
      checkScopeList(' PMS.portals.READ, PMSFiles.files.ALL,PMS.portals.READ ', profile),
    ).toEqual({
      ok: true,
      scopes: ['PMS.portals.READ', 'PMSFiles.files.ALL'],
    });
    expect(checkScopeList(['PMS.portals.READ', 'PMS.portals.read'], profile)).toEqual({
      ok: true,
      scopes: ['PMS.portals.READ', 'PMS.portals.read'],
    });
    const bad = checkScopeList('PMS.portals.READ,PMS.portals.WRITE', profile);
    expect(bad).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Enter a valid scope: "PMS.portals.WRITE"/),
    });
    expect(checkScopeList('Other.portals.READ', profile)).toMatchObject({
      ok: false,
      error: expect.stringContaining('names the service "Other"'),
    });
    expect(checkScopeList('  ', profile)).toMatchObject({
      ok: false,
      error: expect.stringContaining('none was given'),
    });
  });

  test('defaults: reading needs READ scopes only; writing adds the others', () => {
    const read = defaultScopes(profile, 'read');
    const write = defaultScopes(profile, 'write');
    expect(read).toContain('PMS.portals.READ');
    expect(read.every((scope) => scope.endsWith('.READ'))).toBe(true);
    expect(write).toEqual(expect.arrayContaining([...read, 'PMS.custom_fields.UPDATE']));
  });
});

describe('the loopback redirect', () => {
  test('only http on this computer with a fixed port', () => {
    expect(parseLoopbackRedirectUri('http://127.0.0.1:53682/callback')).toEqual({
      ok: true,
      redirect: { host: '127.0.0.1', port: 53682, path: '/callback' },
    });
    expect(parseLoopbackRedirectUri('http://localhost:8080/')).toMatchObject({
      ok: true,
      redirect: { host: '127.0.0.1', port: 8080 },
    });
    for (const [uri, why] of [
      ['https://127.0.0.1:1/x', 'plain http'],
      ['http://example.com:1/x', 'this computer'],
      ['http://127.0.0.1/x', 'no port'],
      ['http://127.0.0.1:1/x?a=1', 'query'],
      ['not a url', 'not a URL'],
    ] as const) {
      const checked = parseLoopbackRedirectUri(uri);
      expect(checked.ok).toBe(false);
      expect(!checked.ok && checked.error).toContain(why);
    }
  });

  test('reads the answer only when the state is ours', () => {
    const params = (text: string) => new URLSearchParams(text);
    expect(
      readRedirectAnswer(params('code=c&location=eu&accounts-server=https://a&state=s'), 's'),
    ).toEqual({
      kind: 'code',
      code: 'c',
      location: 'eu',
      accountsServer: 'https://a',
    });
    expect(readRedirectAnswer(params('code=c&state=other'), 's')).toEqual({
      kind: 'state_mismatch',
    });
    expect(readRedirectAnswer(params('code=c'), 's')).toEqual({ kind: 'state_mismatch' });
    expect(readRedirectAnswer(params('error=access_denied&state=s'), 's')).toEqual({
      kind: 'error',
      error: 'access_denied',
      description: null,
    });
    expect(readRedirectAnswer(params('state=s'), 's')).toEqual({ kind: 'malformed' });
  });
});

describe('data centers', () => {
  test('the code is exchanged at the accounts server the answer names, if the profile lists it', () => {
    expect(
      exchangeTarget(
        profile,
        { location: 'eu', accountsServer: 'https://accounts.eu.example/' },
        'us',
      ),
    ).toEqual({
      ok: true,
      dataCenter: 'eu',
      accountsUrl: 'https://accounts.eu.example',
    });
    expect(exchangeTarget(profile, { location: 'eu', accountsServer: null }, 'us')).toMatchObject({
      dataCenter: 'eu',
    });
    expect(exchangeTarget(profile, { location: null, accountsServer: null }, 'us')).toMatchObject({
      dataCenter: 'us',
    });
    const forged = exchangeTarget(
      profile,
      { location: 'eu', accountsServer: 'https://evil.example' },
      'us',
    );
    expect(forged).toMatchObject({
      ok: false,
      error: expect.stringContaining('the code was not sent there'),
    });
    expect(exchangeTarget(profile, { location: 'uae', accountsServer: null }, 'us').ok).toBe(false);
  });

  test('api_domain replaces the profile address for that account only', () => {
    expect(accountProfile(profile, 'eu', 'https://api.eu.example')).toBe(profile);
    expect(accountProfile(profile, 'eu', null)).toBe(profile);
    const moved = accountProfile(profile, 'eu', 'https://eu2.api.example/');
    expect(moved.dataCenters.eu).toEqual({
      api: 'https://eu2.api.example',
      accounts: 'https://accounts.eu.example',
    });
    expect(moved.dataCenters.us).toEqual(profile.dataCenters.us);
    expect(() => accountProfile(profile, 'eu', 'javascript:alert(1)')).toThrow();
  });
});

describe('the authorization request', () => {
  test('carries the spec parameters, offline access and a PKCE S256 challenge', () => {
    const pkce = createPkce();
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkce.challenge).toBe(createHash('sha256').update(pkce.verifier).digest('base64url'));
    expect(createPkce().verifier).not.toBe(pkce.verifier);
    const url = new URL(
      authorizationUrl({
        accountsUrl: 'https://accounts.eu.example/base',
        clientId: '1000.ABC',
        redirectUri: 'http://127.0.0.1:53682/callback',
        scopes: ['PMS.portals.READ', 'PMS.custom_fields.ALL'],
        state: 'st',
        codeChallenge: pkce.challenge,
      }),
    );
    expect(url.origin + url.pathname).toBe('https://accounts.eu.example/base/oauth/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      scope: 'PMS.portals.READ,PMS.custom_fields.ALL',
      client_id: '1000.ABC',
      response_type: 'code',
      access_type: 'offline',
      redirect_uri: 'http://127.0.0.1:53682/callback',
      state: 'st',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
  });
});

describe('log redaction', () => {
  test('no token, code or secret survives, wherever it appears', () => {
    const line = [
      'POST https://a.example/oauth/v2/token?refresh_token=1000.aaa.bbb&client_id=1000.ID&client_secret=s3cr3t&grant_type=refresh_token',
      'form code=1000.ccc&code_verifier=vvv&redirect_uri=http://127.0.0.1:1/cb',
      'Authorization: Bearer 1000.ddd.eee',
      '{"access_token":"1000.fff","refresh_token":"1000.ggg","api_domain":"https://api"}',
      'header PMS-oauthtoken 1000.hhh',
      'backup access_code=hunter22hunter22',
    ].join('\n');
    const redacted = redactSecrets(line);
    for (const secret of [
      '1000.aaa',
      's3cr3t',
      '1000.ccc',
      'vvv',
      '1000.ddd',
      '1000.fff',
      '1000.ggg',
      '1000.hhh',
      'hunter22',
    ]) {
      expect(redacted).not.toContain(secret);
    }
    expect(redacted).toContain('client_id=1000.ID');
    expect(redacted).toContain('"api_domain":"https://api"');
    expect(redacted).toContain('grant_type=refresh_token');
  });
});
