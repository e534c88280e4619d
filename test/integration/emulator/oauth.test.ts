import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions, RunningEmulator } from '@portaldesk/emulator/index';
import { api, testEmulator } from '../../support/emulator';

const SCOPES = 'PMS.portals.READ,PMS.custom_fields.ALL';
const EU_USER = 'admin.eu@portaldesk.demo';
const OTHER_USER = 'maya.raman@portaldesk.demo';
const PASSWORD = 'portaldesk-demo';
const MINUTE = 60_000;

// Small data sets keep each emulator start fast.
const start = (options: EmulatorOptions = {}) => testEmulator({ records: 20, ...options });

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Token endpoint replies; the tests inspect them loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type TokenReply = any;

interface Reply {
  status: number;
  location: URL | null;
  headers: Headers;
  text: string;
}

async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location === null ? null : new URL(location),
    headers: response.headers,
    text: await response.text(),
  };
}

const postForm = (url: string, fields: Record<string, string>) =>
  send(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

function authQuery(emulator: RunningEmulator, overrides: Record<string, string | null> = {}) {
  const params: Record<string, string | null> = {
    scope: SCOPES,
    client_id: emulator.client.clientId,
    response_type: 'code',
    access_type: 'offline',
    redirect_uri: emulator.client.redirectUri,
    state: 'st-123',
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null) query.set(name, value);
  return query;
}

/** Opens the consent page and posts it back signed in as `email` with `decision`. */
async function consent(
  emulator: RunningEmulator,
  options: {
    base?: string;
    query?: Record<string, string | null>;
    email?: string;
    password?: string;
    decision?: string;
    tamper?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const base = options.base ?? emulator.dcs.us!.accounts!;
  const query = authQuery(emulator, options.query);
  const page = await send(`${base}/oauth/v2/auth?${query}`);
  expect(page.status).toBe(200);
  // The form carries the checked request back in hidden fields.
  const hidden = Object.fromEntries(
    [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&amp;/g, '&'),
    ]),
  );
  return postForm(`${base}/oauth/v2/auth/consent`, {
    ...hidden,
    ...options.tamper,
    email: options.email ?? emulator.user.email,
    password: options.password ?? PASSWORD,
    decision: options.decision ?? 'accept',
  });
}

/** A grant code through the consent form; returns the redirect's parameters. */
async function codeFor(
  emulator: RunningEmulator,
  options: Parameters<typeof consent>[1] = {},
): Promise<URLSearchParams> {
  const reply = await consent(emulator, options);
  expect(reply.status).toBe(302);
  return reply.location!.searchParams;
}

async function selfClient(emulator: RunningEmulator, body: Record<string, unknown>) {
  return api(emulator.dcs.us!.api, undefined, 'POST', '/__emulator/self-client', body, {
    'X-Emulator-Admin': emulator.adminSecret,
  });
}

async function selfClientCode(emulator: RunningEmulator, body: Record<string, unknown> = {}) {
  const reply = await selfClient(emulator, { scopes: SCOPES, ...body });
  expect(reply.status).toBe(200);
  return reply.body.code as string;
}

async function exchange(
  emulator: RunningEmulator,
  fields: Record<string, string>,
  base?: string,
): Promise<TokenReply> {
  const reply = await postForm(`${base ?? emulator.dcs.us!.accounts!}/oauth/v2/token`, {
    grant_type: 'authorization_code',
    client_id: emulator.client.clientId,
    client_secret: emulator.client.clientSecret,
    redirect_uri: emulator.client.redirectUri,
    ...fields,
  });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text);
}

async function refresh(
  emulator: RunningEmulator,
  params: Record<string, string>,
  base?: string,
): Promise<TokenReply> {
  const query = new URLSearchParams({
    grant_type: 'refresh_token',
    client_id: emulator.client.clientId,
    client_secret: emulator.client.clientSecret,
    ...params,
  });
  const reply = await send(`${base ?? emulator.dcs.us!.accounts!}/oauth/v2/token?${query}`, {
    method: 'POST',
  });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text);
}

const portals = (emulator: RunningEmulator, token: string, dc = 'us') =>
  api(emulator.dcs[dc]!.api, token, 'GET', '/api/v3/portals');

async function expectTokenWorks(emulator: RunningEmulator, token: string, dc = 'us') {
  const reply = await portals(emulator, token, dc);
  expect(reply.status).toBe(200);
  expect(Array.isArray(reply.body)).toBe(true);
}

async function expectTokenRefused(emulator: RunningEmulator, token: string, dc = 'us') {
  const reply = await portals(emulator, token, dc);
  expect(reply.status).toBe(400);
  expect(reply.body.errorCode).toBe('INVALID_OAUTHTOKEN');
}

const count = (emulator: RunningEmulator, sql: string, ...args: unknown[]) =>
  (emulator.state.db.prepare(`SELECT COUNT(*) AS n FROM ${sql}`).get(...args) as { n: number }).n;

const zpuidOf = (emulator: RunningEmulator, email: string) =>
  (
    emulator.state.db.prepare('SELECT zpuid FROM users WHERE email = ?').get(email) as {
      zpuid: string;
    }
  ).zpuid;

describe('authorization page', () => {
  it('serves a self-contained consent page that posts to the consent route', async () => {
    const emulator = await start();
    const reply = await send(`${emulator.dcs.us!.accounts}/oauth/v2/auth?${authQuery(emulator)}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(reply.text).toContain('action="/oauth/v2/auth/consent"');
    expect(reply.text).toContain('value="accept"');
    expect(reply.text).toContain('value="reject"');
    expect(reply.text).not.toMatch(/<script|<link|src=|https?:\/\/(?!127\.0\.0\.1)/);
    expect(count(emulator, 'oauth_grants')).toBe(0);
  });

  it('runs the whole flow with PKCE: consent, code, exchange, API call, refresh', async () => {
    const emulator = await start();
    const { verifier, challenge } = pkce();
    const redirect = await codeFor(emulator, {
      query: { code_challenge: challenge, code_challenge_method: 'S256' },
    });
    expect(redirect.get('location')).toBe('us');
    expect(redirect.get('accounts-server')).toBe(emulator.dcs.us!.accounts);
    expect(redirect.get('state')).toBe('st-123');
    const code = redirect.get('code')!;
    expect(code).toMatch(/^1000\./);

    // Without the verifier, or with a wrong one, the code is refused and stays unspent.
    expect(await exchange(emulator, { code })).toEqual({ error: 'invalid_code' });
    expect(await exchange(emulator, { code, code_verifier: pkce().verifier })).toEqual({
      error: 'invalid_code',
    });
    const tokens = await exchange(emulator, { code, code_verifier: verifier });
    expect(Object.keys(tokens).sort()).toEqual(
      [
        'access_token',
        'refresh_token',
        'expires_in_sec',
        'scope',
        'api_domain',
        'token_type',
        'expires_in',
      ].sort(),
    );
    expect(tokens).toMatchObject({
      expires_in_sec: 3600,
      expires_in: 3_600_000,
      scope: 'PMS.portals.READ PMS.custom_fields.ALL',
      api_domain: emulator.dcs.us!.api,
      token_type: 'Bearer',
    });
    await expectTokenWorks(emulator, tokens.access_token);
    // The earlier vendor scheme is accepted as well as Bearer.
    const vendor = await api(emulator.dcs.us!.api, undefined, 'GET', '/api/v3/portals', undefined, {
      Authorization: `PMS-oauthtoken ${tokens.access_token}`,
    });
    expect(vendor.status).toBe(200);
    // Any vendor's word, in any case: real clients send their own.
    for (const scheme of ['Acme-oauthtoken', 'zoho-OAuthToken', 'BEARER']) {
      const reply = await api(
        emulator.dcs.us!.api,
        undefined,
        'GET',
        '/api/v3/portals',
        undefined,
        {
          Authorization: `${scheme} ${tokens.access_token}`,
        },
      );
      expect(reply.status, scheme).toBe(200);
    }
    // Anything else is said back by its name.
    const basic = await api(emulator.dcs.us!.api, undefined, 'GET', '/api/v3/portals', undefined, {
      Authorization: `Basic ${tokens.access_token}`,
    });
    expect(basic.status).toBe(401);
    expect(JSON.stringify(basic.body)).toContain('Unsupported authorization scheme \\"Basic\\"');

    const renewed = await refresh(emulator, { refresh_token: tokens.refresh_token });
    expect(Object.keys(renewed).sort()).toEqual(
      ['access_token', 'scope', 'token_type', 'expires_in'].sort(),
    );
    expect(renewed).toMatchObject({
      scope: 'PMS.portals.READ PMS.custom_fields.ALL',
      token_type: 'Bearer',
      expires_in: 3600,
    });
    await expectTokenWorks(emulator, renewed.access_token);
    await expectTokenWorks(emulator, tokens.access_token);
  });

  it('gives no refresh token for access_type=online', async () => {
    const emulator = await start();
    const code = (await codeFor(emulator, { query: { access_type: null } })).get('code')!;
    const tokens = await exchange(emulator, { code });
    expect(tokens.access_token).toBeTypeOf('string');
    expect(tokens).not.toHaveProperty('refresh_token');
    expect(count(emulator, 'oauth_refresh_tokens')).toBe(0);
  });

  it('answers Reject with error=access_denied and the state, issuing nothing', async () => {
    const emulator = await start();
    const reply = await consent(emulator, { decision: 'reject', password: 'wrong' });
    expect(reply.status).toBe(302);
    const target = reply.location!;
    expect(`${target.origin}${target.pathname}`).toBe(emulator.client.redirectUri);
    expect(Object.fromEntries(target.searchParams)).toEqual({
      error: 'access_denied',
      state: 'st-123',
    });
    expect(count(emulator, 'oauth_grants')).toBe(0);
  });

  it('keeps a wrong password or an inactive user on the page', async () => {
    const emulator = await start();
    const wrong = await consent(emulator, { password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.location).toBeNull();
    expect(wrong.text).toContain('Wrong email or password.');
    const inactive = emulator.state.db
      .prepare("SELECT email FROM users WHERE status = 'deactivated'")
      .get() as { email: string };
    const refused = await consent(emulator, { email: inactive.email });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('deactivated');
    const undecided = await consent(emulator, { decision: 'maybe' });
    expect(undecided.status).toBe(400);
    expect(count(emulator, 'oauth_grants')).toBe(0);
  });

  it('signs in another seeded user on the consent page', async () => {
    const emulator = await start();
    const code = (await codeFor(emulator, { email: OTHER_USER.toUpperCase() })).get('code')!;
    const grant = emulator.state.db
      .prepare('SELECT zpuid FROM oauth_grants WHERE code = ?')
      .get(code);
    expect(grant).toEqual({ zpuid: zpuidOf(emulator, OTHER_USER) });
  });

  it('auto-approves as the demo user, or as the user a login_hint names', async () => {
    const emulator = await start({ autoApprove: true });
    const base = emulator.dcs.us!.accounts!;
    const { verifier, challenge } = pkce();
    const reply = await send(
      `${base}/oauth/v2/auth?${authQuery(emulator, { code_challenge: challenge, code_challenge_method: 'S256' })}`,
    );
    expect(reply.status).toBe(302);
    const params = reply.location!.searchParams;
    expect(params.get('location')).toBe('us');
    expect(params.get('state')).toBe('st-123');
    const tokens = await exchange(emulator, { code: params.get('code')!, code_verifier: verifier });
    await expectTokenWorks(emulator, tokens.access_token);

    const grantUser = async (hint: string) => {
      const r = await send(`${base}/oauth/v2/auth?${authQuery(emulator, { login_hint: hint })}`);
      const code = r.location!.searchParams.get('code');
      return (
        emulator.state.db.prepare('SELECT zpuid FROM oauth_grants WHERE code = ?').get(code) as {
          zpuid: string;
        }
      ).zpuid;
    };
    const demo = zpuidOf(emulator, emulator.user.email);
    expect(await grantUser(OTHER_USER)).toBe(zpuidOf(emulator, OTHER_USER));
    expect(await grantUser('nobody@portaldesk.demo')).toBe(demo);
    // Parameter errors are still shown, not auto-approved.
    const bad = await send(`${base}/oauth/v2/auth?${authQuery(emulator, { scope: 'PMS.nope' })}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('ERROR_invalid_scope');
  });

  const badRequests: [string, Record<string, string | null>, string][] = [
    ['response_type missing', { response_type: null }, 'ERROR_invalid_response_type'],
    ['response_type token', { response_type: 'token' }, 'ERROR_invalid_response_type'],
    ['scope missing', { scope: null }, 'ERROR_invalid_response_type'],
    ['access_type unknown', { access_type: 'forever' }, 'ERROR_invalid_response_type'],
    [
      'PKCE method plain',
      { code_challenge: pkce().challenge, code_challenge_method: 'plain' },
      'ERROR_invalid_response_type',
    ],
    [
      'PKCE challenge malformed',
      { code_challenge: 'short', code_challenge_method: 'S256' },
      'ERROR_invalid_response_type',
    ],
    ['client_id missing', { client_id: null }, 'ERROR_invalid_client'],
    ['client_id wrong', { client_id: '1000.NOPE' }, 'ERROR_invalid_client'],
    ['redirect_uri missing', { redirect_uri: null }, 'ERROR_invalid_redirect_uri'],
    [
      'redirect_uri differs',
      { redirect_uri: 'https://evil.example/callback' },
      'ERROR_invalid_redirect_uri',
    ],
    ['scope malformed', { scope: 'PMS.portals' }, 'ERROR_invalid_scope'],
    [
      'scope of an unknown service',
      { scope: 'PMS.portals.READ,Mail.messages.READ' },
      'ERROR_invalid_scope',
    ],
    ['scope operation unknown', { scope: 'PMS.portals.WRITE' }, 'ERROR_invalid_scope'],
  ];
  it.each(badRequests)(
    'shows an error page, never a redirect, for %s',
    async (_name, overrides, error) => {
      const emulator = await start();
      const reply = await send(
        `${emulator.dcs.us!.accounts}/oauth/v2/auth?${authQuery(emulator, overrides)}`,
      );
      expect(reply.status).toBe(400);
      expect(reply.location).toBeNull();
      expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
      expect(reply.text).toContain(`<h1>${error}</h1>`);
      expect(reply.text).not.toContain('evil.example');
    },
  );

  it('checks the consent form again: a tampered redirect_uri or scope is an error page', async () => {
    const emulator = await start();
    const evil = await consent(emulator, { tamper: { redirect_uri: 'https://evil.example/cb' } });
    expect(evil.status).toBe(400);
    expect(evil.location).toBeNull();
    expect(evil.text).toContain('ERROR_invalid_redirect_uri');
    const scope = await consent(emulator, { tamper: { scope: 'PMS.x' } });
    expect(scope.text).toContain('ERROR_invalid_scope');
    expect(count(emulator, 'oauth_grants')).toBe(0);
  });

  it('has no accounts server in an API-only data center', async () => {
    const emulator = await start({ dcs: ['us', 'sg'] });
    expect(emulator.dcs.sg!.accounts).toBeUndefined();
    const reply = await api(
      emulator.dcs.sg!.api,
      undefined,
      'GET',
      `/oauth/v2/auth?${authQuery(emulator)}`,
    );
    expect(reply.body.errorCode).toBe('URL_RULE_NOT_CONFIGURED');
    const token = await api(emulator.dcs.sg!.api, undefined, 'POST', '/oauth/v2/token');
    expect(token.body.errorCode).toBe('URL_RULE_NOT_CONFIGURED');
  });
});

describe('token endpoint', () => {
  it('refuses every bad code exchange with HTTP 200 and the spec error, spending nothing', async () => {
    // Strict placement: a refresh sent as form data is refused below as well.
    const emulator = await start({ strictOAuthPlacement: true });
    const code = (await codeFor(emulator)).get('code')!;
    const cases: [Record<string, string>, string][] = [
      [{ client_id: '1000.NOPE' }, 'invalid_client'],
      [{ client_id: '' }, 'invalid_client'],
      [{ client_secret: 'wrong' }, 'invalid_client'],
      [{ client_secret: '' }, 'invalid_client'],
      [{ code: '1000.unknown' }, 'invalid_code'],
      [{ code: '' }, 'invalid_code'],
      [{ redirect_uri: 'https://evil.example/cb' }, 'invalid_redirect_uri'],
      [{ redirect_uri: '' }, 'invalid_redirect_uri'],
      [{ code_verifier: pkce().verifier }, 'invalid_code'],
      [{ grant_type: 'password' }, 'unsupported_grant_type'],
      [{ grant_type: '' }, 'invalid_request'],
      // Form-data refresh is refused: its parameters belong in the query string.
      [{ grant_type: 'refresh_token' }, 'invalid_request'],
    ];
    for (const [fields, error] of cases) {
      expect(await exchange(emulator, { code, ...fields }), JSON.stringify(fields)).toEqual({
        error,
      });
    }
    // The code exchange sent as query parameters is refused too.
    const query = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: emulator.client.clientId,
      client_secret: emulator.client.clientSecret,
      redirect_uri: emulator.client.redirectUri,
    });
    const asQuery = await send(`${emulator.dcs.us!.accounts}/oauth/v2/token?${query}`, {
      method: 'POST',
    });
    expect(JSON.parse(asQuery.text)).toEqual({ error: 'invalid_request' });
    expect(count(emulator, 'oauth_access_tokens')).toBe(0);

    // None of that spent the code.
    const tokens = await exchange(emulator, { code });
    expect(tokens.access_token).toBeTypeOf('string');
    expect(await exchange(emulator, { code })).toEqual({ error: 'invalid_code' });
    expect(count(emulator, 'oauth_access_tokens')).toBe(1);
  });

  it('with strict placement, refreshes only with query parameters, refusing bad ones', async () => {
    const emulator = await start({ strictOAuthPlacement: true });
    const tokens = await exchange(emulator, { code: (await codeFor(emulator)).get('code')! });
    const refreshToken = tokens.refresh_token as string;
    const cases: [Record<string, string>, string][] = [
      [{ refresh_token: '1000.unknown' }, 'invalid_code'],
      [{ refresh_token: '' }, 'invalid_code'],
      [{ refresh_token: refreshToken, client_id: '1000.NOPE' }, 'invalid_client'],
      [{ refresh_token: refreshToken, client_secret: 'wrong' }, 'invalid_client'],
      [
        { refresh_token: refreshToken, redirect_uri: 'https://evil.example/cb' },
        'invalid_redirect_uri',
      ],
      [{ refresh_token: refreshToken, scope: 'PMS.portals.ALL' }, 'invalid_scope'],
      [{ refresh_token: refreshToken, scope: 'PMS.bad' }, 'invalid_scope'],
    ];
    for (const [params, error] of cases) {
      expect(await refresh(emulator, params), JSON.stringify(params)).toEqual({ error });
    }
    const asForm = await postForm(`${emulator.dcs.us!.accounts}/oauth/v2/token`, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: emulator.client.clientId,
      client_secret: emulator.client.clientSecret,
    });
    expect(asForm.status).toBe(200);
    expect(JSON.parse(asForm.text)).toEqual({ error: 'invalid_request' });
    expect(count(emulator, 'oauth_access_tokens')).toBe(1);

    // The optional scope and redirect_uri of the spec's sample: a narrower scope is honoured.
    const narrow = await refresh(emulator, {
      refresh_token: refreshToken,
      scope: 'PMS.custom_fields.READ',
      redirect_uri: emulator.client.redirectUri,
    });
    expect(narrow.scope).toBe('PMS.custom_fields.READ');
    const reply = await portals(emulator, narrow.access_token);
    expect(reply.status).toBe(403);
    expect(reply.body.errorCode).toBe('INVALID_OAUTHSCOPE');
  });

  it('by default also refreshes with the parameters in the form body, the query winning', async () => {
    const emulator = await start();
    const tokens = await exchange(emulator, { code: (await codeFor(emulator)).get('code')! });
    const refreshToken = tokens.refresh_token as string;
    const asForm = await postForm(`${emulator.dcs.us!.accounts}/oauth/v2/token`, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: emulator.client.clientId,
      client_secret: emulator.client.clientSecret,
    });
    expect(asForm.status).toBe(200);
    const renewed = JSON.parse(asForm.text) as { access_token?: string };
    expect(renewed.access_token).toBeTypeOf('string');
    await expectTokenWorks(emulator, renewed.access_token!);
    // Both places: the query's wrong secret wins over the body's right one.
    const both = await postForm(
      `${emulator.dcs.us!.accounts}/oauth/v2/token?${new URLSearchParams({ client_secret: 'wrong' })}`,
      {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: emulator.client.clientId,
        client_secret: emulator.client.clientSecret,
      },
    );
    expect(JSON.parse(both.text)).toEqual({ error: 'invalid_client' });
  });

  it('expires access tokens after 1 hour; the refresh token lives on', async () => {
    const emulator = await start();
    const tokens = await exchange(emulator, { code: await selfClientCode(emulator) });
    emulator.state.clock.advance(59 * MINUTE);
    await expectTokenWorks(emulator, tokens.access_token);
    emulator.state.clock.advance(MINUTE);
    await expectTokenRefused(emulator, tokens.access_token);
    emulator.state.clock.advance(1000 * 24 * 60 * MINUTE);
    const renewed = await refresh(emulator, { refresh_token: tokens.refresh_token });
    await expectTokenWorks(emulator, renewed.access_token);
  });

  it('revokes a refresh token and the access tokens made from it', async () => {
    const emulator = await start();
    const first = await exchange(emulator, { code: await selfClientCode(emulator) });
    const second = await exchange(emulator, { code: await selfClientCode(emulator) });
    const renewed = await refresh(emulator, { refresh_token: first.refresh_token });
    const revokeUrl = (token: string) =>
      `${emulator.dcs.us!.accounts}/oauth/v2/token/revoke?${new URLSearchParams({ token })}`;

    const unknown = await send(revokeUrl('1000.unknown'), { method: 'POST' });
    expect(JSON.parse(unknown.text)).toEqual({ error: 'invalid_code' });
    const access = await send(revokeUrl(first.access_token), { method: 'POST' });
    expect(JSON.parse(access.text)).toEqual({ error: 'invalid_code' });
    await expectTokenWorks(emulator, first.access_token);

    const revoked = await send(revokeUrl(first.refresh_token), { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect(JSON.parse(revoked.text)).toEqual({ status: 'success' });
    await expectTokenRefused(emulator, first.access_token);
    await expectTokenRefused(emulator, renewed.access_token);
    expect(await refresh(emulator, { refresh_token: first.refresh_token })).toEqual({
      error: 'invalid_code',
    });
    const again = await send(revokeUrl(first.refresh_token), { method: 'POST' });
    expect(JSON.parse(again.text)).toEqual({ error: 'invalid_code' });
    // Another refresh token of the same user and client is untouched.
    await expectTokenWorks(emulator, second.access_token);
    expect(
      (await refresh(emulator, { refresh_token: second.refresh_token })).access_token,
    ).toBeTypeOf('string');
  });
});

describe('token limits', () => {
  it('deletes the first access token when a refresh token makes its 11th in 10 minutes', async () => {
    const emulator = await start();
    const tokens = await exchange(emulator, { code: await selfClientCode(emulator) });
    const made = [tokens.access_token as string];
    for (let i = 2; i <= 10; i++) {
      made.push((await refresh(emulator, { refresh_token: tokens.refresh_token })).access_token);
    }
    // Ten: the limit itself evicts nothing.
    const ofRefresh = () =>
      count(emulator, 'oauth_access_tokens WHERE refresh_token = ?', tokens.refresh_token);
    expect(ofRefresh()).toBe(10);
    await expectTokenWorks(emulator, made[0]!);

    const eleventh = (await refresh(emulator, { refresh_token: tokens.refresh_token }))
      .access_token;
    expect(ofRefresh()).toBe(10);
    await expectTokenRefused(emulator, made[0]!);
    await expectTokenWorks(emulator, made[1]!);
    await expectTokenWorks(emulator, eleventh);

    // Once the window has passed, a new token evicts nothing.
    emulator.state.clock.advance(10 * MINUTE);
    await refresh(emulator, { refresh_token: tokens.refresh_token });
    expect(ofRefresh()).toBe(11);
    await expectTokenWorks(emulator, made[1]!);
  });

  it('deletes the first refresh token (and its access tokens) at the 21st in 10 minutes', async () => {
    const emulator = await start();
    const { db, clock } = emulator.state;
    const zpuid = zpuidOf(emulator, emulator.user.email);
    // Grant codes are limited to 10 per 10 minutes per client id, so 20 refresh tokens in one
    // window can only be made directly; one older token sits outside the window.
    const insert = db.prepare(
      `INSERT INTO oauth_refresh_tokens (token, client_id, zpuid, dc, scopes, created_ms)
       VALUES (?, ?, ?, 'us', 'PMS.portals.READ', ?)`,
    );
    const now = clock.now();
    insert.run('1000.old', emulator.client.clientId, zpuid, now - 11 * MINUTE);
    const seeded = Array.from({ length: 19 }, (_, i) => `1000.r${String(i).padStart(2, '0')}`);
    seeded.forEach((token, i) =>
      insert.run(token, emulator.client.clientId, zpuid, now - 5 * MINUTE + i),
    );
    const firstAccess = (await refresh(emulator, { refresh_token: seeded[0]! })).access_token;
    await expectTokenWorks(emulator, firstAccess);

    // The 20th evicts nothing.
    const twentieth = await exchange(emulator, { code: await selfClientCode(emulator) });
    expect(count(emulator, 'oauth_refresh_tokens')).toBe(21);
    await expectTokenWorks(emulator, firstAccess);

    const twentyFirst = await exchange(emulator, { code: await selfClientCode(emulator) });
    expect(count(emulator, 'oauth_refresh_tokens')).toBe(21);
    expect(count(emulator, 'oauth_refresh_tokens WHERE token = ?', seeded[0])).toBe(0);
    await expectTokenRefused(emulator, firstAccess);
    expect(await refresh(emulator, { refresh_token: seeded[0]! })).toEqual({
      error: 'invalid_code',
    });
    // The old one outside the window, the second and the newest all still work.
    for (const token of [
      '1000.old',
      seeded[1]!,
      twentieth.refresh_token,
      twentyFirst.refresh_token,
    ]) {
      expect((await refresh(emulator, { refresh_token: token })).access_token, token).toBeTypeOf(
        'string',
      );
    }
  });

  it('refuses the 11th grant code of a client in 10 minutes', async () => {
    const emulator = await start();
    for (let i = 0; i < 5; i++) await selfClientCode(emulator);
    for (let i = 0; i < 5; i++) await codeFor(emulator);
    expect(count(emulator, 'oauth_grants')).toBe(10);

    const viaConsole = await selfClient(emulator, { scopes: SCOPES });
    expect(viaConsole.status).toBe(429);
    expect(viaConsole.body.errorCode).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(viaConsole.headers.get('retry-after'))).toBeGreaterThan(0);
    const viaConsent = await consent(emulator);
    expect(viaConsent.status).toBe(302);
    expect(Object.fromEntries(viaConsent.location!.searchParams)).toEqual({
      error: 'temporarily_unavailable',
      state: 'st-123',
    });
    expect(count(emulator, 'oauth_grants')).toBe(10);

    emulator.state.clock.advance(10 * MINUTE);
    expect((await codeFor(emulator)).get('code')).toBeTruthy();
  });

  it('makes grant codes single use and valid 2 minutes', async () => {
    const emulator = await start();
    const [early, late] = [
      (await codeFor(emulator)).get('code')!,
      (await codeFor(emulator)).get('code')!,
    ];
    emulator.state.clock.advance(2 * MINUTE - 1000);
    expect((await exchange(emulator, { code: early })).access_token).toBeTypeOf('string');
    expect(await exchange(emulator, { code: early })).toEqual({ error: 'invalid_code' });
    emulator.state.clock.advance(1000);
    expect(await exchange(emulator, { code: late })).toEqual({ error: 'invalid_code' });
  });
});

describe('self client', () => {
  it('issues a code exchanged without redirect_uri, valid for the chosen minutes', async () => {
    const emulator = await start();
    const reply = await selfClient(emulator, {
      scopes: SCOPES,
      validity_minutes: 10,
      description: 'nightly sync',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      code: expect.stringMatching(/^1000\./),
      expires_in_sec: 600,
      location: 'us',
      accounts_server: emulator.dcs.us!.accounts,
    });
    emulator.state.clock.advance(10 * MINUTE - 1000);
    const tokens = await exchange(emulator, { code: reply.body.code, redirect_uri: '' });
    expect(tokens.refresh_token).toBeTypeOf('string');
    expect(tokens.scope).toBe('PMS.portals.READ PMS.custom_fields.ALL');

    const short = await selfClient(emulator, { scopes: SCOPES });
    expect(short.body.expires_in_sec).toBe(180);
    emulator.state.clock.advance(3 * MINUTE);
    expect(await exchange(emulator, { code: short.body.code })).toEqual({ error: 'invalid_code' });
  });

  it('refuses invalid scopes, durations, users and clients, issuing nothing', async () => {
    const emulator = await start();
    for (const scopes of ['', 'PMS.portals', 'Mail.messages.READ', 'PMS.portals.READ,nope', 42]) {
      const reply = await selfClient(emulator, { scopes });
      expect(reply.status, String(scopes)).toBe(400);
      expect(reply.body).toMatchObject({
        errorCode: 'INVALID_PARAMETER_VALUE',
        message: 'Enter a valid scope',
      });
    }
    for (const validity_minutes of [2, 11, 3.5, '5']) {
      const reply = await selfClient(emulator, { scopes: SCOPES, validity_minutes });
      expect(reply.status, String(validity_minutes)).toBe(400);
      expect(reply.body.message).toContain('validity_minutes');
    }
    const user = await selfClient(emulator, { scopes: SCOPES, email: 'nobody@portaldesk.demo' });
    expect(user.body.message).toContain('email');
    const client = await selfClient(emulator, { scopes: SCOPES, client_id: '1000.NOPE' });
    expect(client.body.message).toContain('client_id');
    const description = await selfClient(emulator, {
      scopes: SCOPES,
      description: 'x'.repeat(251),
    });
    expect(description.status).toBe(400);
    const noSecret = await api(emulator.dcs.us!.api, undefined, 'POST', '/__emulator/self-client', {
      scopes: SCOPES,
    });
    expect(noSecret.status).toBe(403);
    expect(count(emulator, 'oauth_grants')).toBe(0);

    expect((await selfClient(emulator, { scopes: SCOPES, validity_minutes: 3 })).status).toBe(200);
    const longest = await selfClient(emulator, { scopes: SCOPES, description: 'x'.repeat(250) });
    expect(longest.status).toBe(200);
    const other = await selfClient(emulator, { scopes: SCOPES, email: OTHER_USER });
    expect(other.status).toBe(200);
    const tokens = await exchange(emulator, { code: other.body.code });
    const holder = emulator.state.db
      .prepare('SELECT zpuid FROM oauth_access_tokens WHERE token = ?')
      .get(tokens.access_token);
    expect(holder).toEqual({ zpuid: zpuidOf(emulator, OTHER_USER) });
  });
});

describe('data centers', () => {
  it('sends a user of another data center there, and refuses the code anywhere else', async () => {
    const emulator = await start({ dcs: ['us', 'eu'], multiDc: true });
    const eu = emulator.dcs.eu!;
    const redirect = await codeFor(emulator, { email: EU_USER });
    expect(redirect.get('location')).toBe('eu');
    expect(redirect.get('accounts-server')).toBe(eu.accounts);
    const code = redirect.get('code')!;
    const euSecret = emulator.clientSecrets.eu!;
    expect(euSecret).not.toBe(emulator.client.clientSecret);

    // Exchanged at the US accounts server: a data-center mismatch.
    expect(await exchange(emulator, { code })).toEqual({ error: 'invalid_client' });
    expect(await exchange(emulator, { code, client_secret: euSecret })).toEqual({
      error: 'invalid_client',
    });
    // At the EU server, only the EU secret is accepted (Multi-DC).
    expect(await exchange(emulator, { code }, eu.accounts)).toEqual({ error: 'invalid_client' });
    const tokens = await exchange(emulator, { code, client_secret: euSecret }, eu.accounts);
    expect(tokens.api_domain).toBe(eu.api);
    await expectTokenWorks(emulator, tokens.access_token, 'eu');
    await expectTokenRefused(emulator, tokens.access_token, 'us');

    // The refresh token belongs to the EU data center too.
    expect(
      await refresh(
        emulator,
        { refresh_token: tokens.refresh_token, client_secret: euSecret },
        eu.accounts,
      ),
    ).toMatchObject({ token_type: 'Bearer' });
    expect(await refresh(emulator, { refresh_token: tokens.refresh_token })).toEqual({
      error: 'invalid_client',
    });
    const revokeAtUs = await send(
      `${emulator.dcs.us!.accounts}/oauth/v2/token/revoke?token=${tokens.refresh_token}`,
      { method: 'POST' },
    );
    expect(JSON.parse(revokeAtUs.text)).toEqual({ error: 'invalid_code' });
    await expectTokenWorks(emulator, tokens.access_token, 'eu');

    // A US user's token is refused by the EU API.
    const us = await exchange(emulator, { code: (await codeFor(emulator)).get('code')! });
    await expectTokenWorks(emulator, us.access_token, 'us');
    await expectTokenRefused(emulator, us.access_token, 'eu');
    expect(
      await exchange(emulator, {
        code: (await codeFor(emulator)).get('code')!,
        client_secret: euSecret,
      }),
    ).toEqual({
      error: 'invalid_client',
    });
  });

  it('without Multi-DC, generates tokens only in the home data center', async () => {
    const emulator = await start({ dcs: ['us', 'eu'] });
    expect(emulator.clientSecrets.eu).toBe(emulator.client.clientSecret);
    const code = (await codeFor(emulator, { email: EU_USER, base: emulator.dcs.eu!.accounts })).get(
      'code',
    )!;
    expect(await exchange(emulator, { code }, emulator.dcs.eu!.accounts)).toEqual({
      error: 'invalid_client',
    });
    expect(await exchange(emulator, { code })).toEqual({ error: 'invalid_client' });
    const us = await exchange(emulator, {
      code: (await codeFor(emulator, { base: emulator.dcs.eu!.accounts })).get('code')!,
    });
    await expectTokenWorks(emulator, us.access_token);
  });
});

describe('time scale', () => {
  it('reports lifetimes in real seconds and milliseconds', async () => {
    const emulator = await start({ timeScale: 60 });
    const issued = await selfClient(emulator, { scopes: SCOPES });
    expect(issued.body.expires_in_sec).toBe(3);
    const tokens = await exchange(emulator, { code: issued.body.code });
    expect(tokens.expires_in_sec).toBe(60);
    expect(tokens.expires_in).toBe(60_000);
    const renewed = await refresh(emulator, { refresh_token: tokens.refresh_token });
    expect(renewed.expires_in).toBe(60);
    const row = emulator.state.db
      .prepare('SELECT expires_ms - created_ms AS life FROM oauth_access_tokens WHERE token = ?')
      .get(tokens.access_token);
    expect(row).toEqual({ life: 3_600_000 });
  });

  // At scale 60 the spec's hour is one real minute: a client renewing five minutes early would
  // always hold an expired token. The flag keeps the hour real.
  const REAL_MINUTE_AT_60 = 60 * MINUTE;
  async function tokenAtScale60(options: EmulatorOptions) {
    const emulator = await start({ timeScale: 60, ...options });
    const code = await selfClientCode(emulator);
    return { emulator, tokens: await exchange(emulator, { code }) };
  }

  it('with --unscaled-token-lifetime, a token stays valid for its real hour at scale 60', async () => {
    const { emulator, tokens } = await tokenAtScale60({ unscaledTokenLifetime: true });
    expect(tokens.expires_in_sec).toBe(3600);
    expect(tokens.expires_in).toBe(3_600_000);
    const renewed = await refresh(emulator, { refresh_token: tokens.refresh_token });
    expect(renewed.expires_in).toBe(3600);
    // 59 real minutes later (59 emulated hours) both still work; past the real hour, neither.
    emulator.state.clock.advance(59 * REAL_MINUTE_AT_60);
    await expectTokenWorks(emulator, tokens.access_token);
    await expectTokenWorks(emulator, renewed.access_token);
    emulator.state.clock.advance(REAL_MINUTE_AT_60 + 1000);
    await expectTokenRefused(emulator, tokens.access_token);
    await expectTokenRefused(emulator, renewed.access_token);
    // Only the lifetime is unscaled: a Self Client code still lives its scaled 3 minutes.
    expect((await selfClient(emulator, { scopes: SCOPES })).body.expires_in_sec).toBe(3);
  });

  it('without the flag, the same token expires after one real minute at scale 60', async () => {
    const { emulator, tokens } = await tokenAtScale60({});
    expect(tokens.expires_in_sec).toBe(60);
    emulator.state.clock.advance(REAL_MINUTE_AT_60 - 1000);
    await expectTokenWorks(emulator, tokens.access_token);
    emulator.state.clock.advance(2000);
    await expectTokenRefused(emulator, tokens.access_token);
  });
});
