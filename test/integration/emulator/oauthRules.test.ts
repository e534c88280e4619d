import { describe, expect, it } from 'vitest';
import {
  checkAuthRequest,
  checkScopes,
  redirectTo,
} from '@portaldesk/emulator/accounts/authRequest';
import { clientMayGenerateAt, type OAuthClient } from '@portaldesk/emulator/accounts/clients';
import {
  grantAllowance,
  inWindow,
  pkceChallenge,
  pkceMatches,
  reportedLifetime,
  tokensToEvict,
  TOKEN_WINDOW_MS,
} from '@portaldesk/emulator/accounts/tokenRules';

const NOW = 1_000_000_000;
const made = (...ages: number[]) => ages.map((age, i) => ({ id: i, created_ms: NOW - age }));

describe('token rules', () => {
  it('counts only tokens of the last 10 minutes, oldest first', () => {
    const tokens = made(TOKEN_WINDOW_MS, TOKEN_WINDOW_MS - 1, 5, 0);
    expect(inWindow(tokens, NOW).map((t) => t.id)).toEqual([1, 2, 3]);
  });

  it('evicts the oldest of the window only once the limit is reached', () => {
    const nine = made(9, 8, 7, 6, 5, 4, 3, 2, 1);
    expect(tokensToEvict(nine, NOW, 10)).toEqual([]);
    const ten = made(10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    expect(tokensToEvict(ten, NOW, 10).map((t) => t.id)).toEqual([0]);
    // Out of order input, and an old token outside the window that is never evicted.
    const mixed = [...made(3, 1, 2), { id: 99, created_ms: NOW - TOKEN_WINDOW_MS - 1 }];
    expect(tokensToEvict(mixed, NOW, 3).map((t) => t.id)).toEqual([0]);
    expect(tokensToEvict(mixed, NOW, 2).map((t) => t.id)).toEqual([0, 2]);
  });

  it('allows 10 grants per 10 minutes and says when the 11th may come', () => {
    expect(grantAllowance(made(9, 8, 7, 6, 5, 4, 3, 2, 1), NOW)).toEqual({ allowed: true });
    const ten = made(60_000, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    expect(grantAllowance(ten, NOW)).toEqual({
      allowed: false,
      retryAfterMs: TOKEN_WINDOW_MS - 60_000,
    });
    expect(grantAllowance(ten, NOW + TOKEN_WINDOW_MS - 60_000)).toEqual({ allowed: true });
  });

  it('reports emulated lifetimes in real time, rounded down, at least 1', () => {
    expect(reportedLifetime(3_600_000, 1)).toEqual({ seconds: 3600, ms: 3_600_000 });
    expect(reportedLifetime(3_600_000, 60)).toEqual({ seconds: 60, ms: 60_000 });
    expect(reportedLifetime(3_600_000, 7)).toEqual({ seconds: 514, ms: 514_285 });
    expect(reportedLifetime(1_000, 1_000_000)).toEqual({ seconds: 1, ms: 1 });
  });

  it('checks PKCE S256 verifiers', () => {
    // RFC 7636 appendix B.
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(pkceChallenge(verifier)).toBe(challenge);
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches(`${verifier}x`, challenge)).toBe(false);
    expect(pkceMatches('short', pkceChallenge('short'))).toBe(false);
  });
});

const CLIENT: OAuthClient = {
  clientId: '1000.DEMO',
  name: 'Demo',
  redirectUri: 'http://127.0.0.1:53682/callback',
  secrets: { us: 's', eu: 's-eu' },
  multiDc: true,
};

describe('authorization request', () => {
  const params = (extra: Record<string, string> = {}) =>
    new URLSearchParams({
      scope: 'PMS.portals.READ, PMS.custom_fields.ALL,PMS.portals.READ',
      client_id: CLIENT.clientId,
      response_type: 'code',
      redirect_uri: CLIENT.redirectUri,
      ...extra,
    });

  it('accepts a valid request, defaulting access_type to online', () => {
    const check = checkAuthRequest(params({ state: 'a b' }), CLIENT);
    expect(check).toEqual({
      ok: true,
      request: {
        clientId: CLIENT.clientId,
        redirectUri: CLIENT.redirectUri,
        scopes: ['PMS.portals.READ', 'PMS.custom_fields.ALL'],
        accessType: 'online',
        state: 'a b',
        codeChallenge: null,
        loginHint: null,
      },
    });
  });

  it('reports the first problem in the order of the spec table', () => {
    const error = (p: URLSearchParams, client: OAuthClient | null = CLIENT) => {
      const check = checkAuthRequest(p, client);
      return check.ok ? 'ok' : check.error;
    };
    const all = params({ response_type: 'token', client_id: 'x', redirect_uri: 'y', scope: 'z' });
    expect(error(all)).toBe('ERROR_invalid_response_type');
    expect(error(params({ client_id: 'x', redirect_uri: 'y', scope: 'z' }))).toBe(
      'ERROR_invalid_client',
    );
    expect(error(params(), null)).toBe('ERROR_invalid_client');
    expect(error(params({ redirect_uri: 'y', scope: 'z' }))).toBe('ERROR_invalid_redirect_uri');
    expect(error(params({ redirect_uri: `${CLIENT.redirectUri}/` }))).toBe(
      'ERROR_invalid_redirect_uri',
    );
    expect(error(params({ scope: 'z' }))).toBe('ERROR_invalid_scope');
    expect(error(params({ scope: '' }))).toBe('ERROR_invalid_response_type');
    expect(error(params({ code_challenge_method: 'S256' }))).toBe('ERROR_invalid_response_type');
    expect(error(params({ access_type: 'offline' }))).toBe('ok');
  });

  it('parses scope lists', () => {
    expect(checkScopes('PMS.portals.READ,PMSFiles.files.READ')).toEqual({
      scopes: ['PMS.portals.READ', 'PMSFiles.files.READ'],
    });
    expect(checkScopes(' , ')).toEqual({ invalid: '(none)' });
    expect(checkScopes('PMS.portals.READ,CRM.users.READ')).toEqual({ invalid: 'CRM.users.READ' });
    expect(checkScopes('PMS.portals.EDIT')).toEqual({ invalid: 'PMS.portals.EDIT' });
  });

  it('adds redirect parameters, keeping an existing query and skipping nulls', () => {
    expect(
      redirectTo('http://h/cb?x=1', { code: 'c d', state: null, 'accounts-server': 'a' }),
    ).toBe('http://h/cb?x=1&code=c+d&accounts-server=a');
  });
});

describe('client secrets per data center', () => {
  it('needs Multi-DC outside the home data center, and that data center own secret', () => {
    expect(clientMayGenerateAt(CLIENT, 'us', 'us', 's')).toBe(true);
    expect(clientMayGenerateAt(CLIENT, 'eu', 'us', 's-eu')).toBe(true);
    expect(clientMayGenerateAt(CLIENT, 'eu', 'us', 's')).toBe(false);
    expect(clientMayGenerateAt(CLIENT, 'in', 'us', 's')).toBe(false);
    expect(clientMayGenerateAt(CLIENT, 'us', 'us', null)).toBe(false);
    const single = { ...CLIENT, multiDc: false, secrets: { us: 's', eu: 's' } };
    expect(clientMayGenerateAt(single, 'us', 'us', 's')).toBe(true);
    expect(clientMayGenerateAt(single, 'eu', 'us', 's')).toBe(false);
  });
});
