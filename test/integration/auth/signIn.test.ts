/**
 * The browser flow against the emulator, without a window: the emulator approves at once and
 * the test's "browser" follows the redirect back to PortalDesk's loopback listener.
 */
import { describe, expect, test } from 'vitest';
import { followRedirects } from '../../../src/main/auth/followRedirects';
import { exchangeCode } from '../../../src/main/auth/tokenEndpoint';
import { api } from '../../support/emulator';
import { authSession } from './authSession';

function grantRow(emulator: Awaited<ReturnType<typeof authSession>>['emulator'], code: string) {
  return emulator.state.db.prepare('SELECT dc, used FROM oauth_grants WHERE code = ?').get(code) as
    { dc: string; used: number } | undefined;
}

describe('the browser flow', () => {
  test('signs in, lists the portals, keeps the grant in the keychain and nothing secret elsewhere', async () => {
    const s = await authSession();
    const account = await s.manager.signIn(s.signInArgs());

    expect(account.status).toBe('signed_in');
    expect(account.dataCenter).toBe('us');
    expect(account.label).toBe(account.portals.find((p) => p.isDefault)?.name);
    expect(account.portals.map((p) => p.portalId).sort()).toEqual([...s.emulator.portals].sort());
    expect(account.active).toBe(true);
    expect(account.tokens?.refreshesInWindow).toBe(1);

    // The authorization request: offline, PKCE S256, state, the registered redirect URI.
    const auth = new URL(s.visits[0]!.authUrl);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      response_type: 'code',
      access_type: 'offline',
      client_id: s.emulator.client.clientId,
      redirect_uri: s.redirectUri,
      code_challenge_method: 'S256',
      scope: 'PMS.portals.ALL,PMS.custom_fields.ALL',
    });
    expect(auth.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(s.visits[0]!.body).toContain('You can close this tab');

    // Keychain: the refresh token and the client secret; SQLite: neither.
    const stored = [...s.secrets.entries.values()];
    const refreshToken = stored.find((value) => value.startsWith('1000.'))!;
    expect(stored).toContain(s.clientSecret);
    const dump = JSON.stringify(
      ['accounts', 'account_portals', 'access_token_ledger', 'service_profiles', 'settings'].map(
        (table) => s.store.db.prepare(`SELECT * FROM ${table}`).all(),
      ),
    );
    expect(dump).not.toContain(refreshToken);
    expect(dump).not.toContain(s.clientSecret);
    expect(JSON.stringify(s.manager.state())).not.toContain(refreshToken);

    // The sync engine's view: a usable token provider at the account's data center.
    const [signedIn] = s.manager.signedIn();
    const token = await signedIn!.tokens.accessToken();
    const portals = await api(
      signedIn!.profile.dataCenters.us!.api,
      token,
      'GET',
      '/api/v3/portals',
    );
    expect(portals.status).toBe(200);
  });

  test('follows `location` and `accounts-server` to another data center, with its own Multi-DC secret', async () => {
    const s = await authSession({ emulator: { dcs: ['us', 'eu'], multiDc: true } });
    const euUser = s.emulator.state.db
      .prepare("SELECT email FROM users WHERE dc = 'eu' AND status = 'active' ORDER BY id LIMIT 1")
      .get() as { email: string };
    // The user signs in with an account that lives in the EU, from the US sign-in page.
    s.setBrowser({ authUrl: (url) => url.searchParams.set('login_hint', euUser.email) });
    const seen: string[] = [];
    s.manager.onSignedIn((account) => seen.push(`${account.accountId}@${account.dataCenter}`));

    const account = await s.manager.signIn(
      s.signInArgs({ dataCenter: 'us', otherSecrets: { eu: s.emulator.clientSecrets.eu } }),
    );

    const redirect = new URL(s.visits[0]!.redirect!);
    expect(redirect.searchParams.get('location')).toBe('eu');
    expect(redirect.searchParams.get('accounts-server')).toBe(s.emulator.dcs.eu!.accounts);
    // Exchanged at the EU accounts server, and every API call goes to the EU's api_domain.
    const exchange = s.tokenCalls.find((url) => url.pathname === '/oauth/v2/token')!;
    expect(exchange.origin).toBe(s.emulator.dcs.eu!.accounts);
    expect(account.dataCenter).toBe('eu');
    expect(account.accountsUrl).toBe(s.emulator.dcs.eu!.accounts);
    expect(account.apiDomain).toBe(s.emulator.dcs.eu!.api);
    expect(account.portals).toHaveLength(1);
    expect(seen).toEqual([`${account.accountId}@eu`]);

    const [signedIn] = s.manager.signedIn();
    expect(signedIn!.dataCenter).toBe('eu');
    const reply = await api(
      signedIn!.profile.dataCenters.eu!.api,
      await signedIn!.tokens.accessToken(),
      'GET',
      '/api/v3/portals',
    );
    expect(reply.body.map((p: { id: string }) => p.id)).toEqual(
      account.portals.map((p) => p.portalId),
    );

    // A second account side by side, in the US; the first stays active.
    s.setBrowser({});
    const second = await s.manager.signIn(
      s.signInArgs({ dataCenter: 'us', otherSecrets: { eu: s.emulator.clientSecrets.eu } }),
    );
    expect(second.dataCenter).toBe('us');
    expect(s.manager.state().accounts.map((a) => [a.dataCenter, a.active])).toEqual([
      ['eu', true],
      ['us', false],
    ]);
    expect(s.manager.signedIn()).toHaveLength(2);
  });

  test('under Multi-DC, an answer from a data center whose secret is missing stores nothing and says which secret to enter', async () => {
    const s = await authSession({ emulator: { dcs: ['us', 'eu'], multiDc: true } });
    const euUser = s.emulator.state.db
      .prepare("SELECT email FROM users WHERE dc = 'eu' AND status = 'active' LIMIT 1")
      .get() as { email: string };
    s.setBrowser({ authUrl: (url) => url.searchParams.set('login_hint', euUser.email) });
    await expect(s.manager.signIn(s.signInArgs({ dataCenter: 'us' }))).rejects.toThrow(
      /lives in data center EU.*enter the client secret for EU/,
    );
    expect(s.manager.state().accounts).toEqual([]);
    expect(s.secrets.entries.size).toBe(0);
  });

  test('an answer with another state is refused and never exchanged; the sign-in times out saying so', async () => {
    const s = await authSession();
    s.setBrowser({
      redirect: (url) => {
        url.searchParams.set('state', 'forged-or-stale');
        return url;
      },
    });
    await expect(s.manager.signIn(s.signInArgs())).rejects.toThrow(
      /No answer came back.*1 answer\(s\) belonging to an older sign-in were ignored/,
    );
    const visit = s.visits[0]!;
    expect(visit.status).toBe(400);
    expect(visit.body).toContain('belongs to another sign-in');
    const code = new URL(visit.redirect!).searchParams.get('code')!;
    expect(grantRow(s.emulator, code)?.used).toBe(0);
    expect(s.tokenCalls).toEqual([]);
    expect(s.manager.state()).toMatchObject({ accounts: [], pendingSignIn: null });
  });

  test('a grant code cannot be exchanged twice', async () => {
    const s = await authSession();
    await s.manager.signIn(s.signInArgs());
    const code = new URL(s.visits[0]!.redirect!).searchParams.get('code')!;
    expect(grantRow(s.emulator, code)?.used).toBe(1);

    const again = exchangeCode(
      {
        accountsUrl: s.emulator.dcs.us!.accounts!,
        clientId: s.emulator.client.clientId,
        clientSecret: s.clientSecret,
        code,
        redirectUri: s.redirectUri,
        codeVerifier: null,
      },
      { profileName: 'Test service' },
    );
    await expect(again).rejects.toMatchObject({ code: 'invalid_code' });
    await expect(again).rejects.toThrow(/already used/);
  });

  test('a pending sign-in is shown with its address, refuses a second one, and can be cancelled', async () => {
    const s = await authSession({ manager: { signInTimeoutMs: 60_000 } });
    s.setBrowser({ redirect: () => null });
    const running = s.manager.signIn(s.signInArgs());
    await expect
      .poll(() => s.manager.state().pendingSignIn?.authUrl ?? null)
      .toMatch(/oauth\/v2\/auth/);
    await expect(s.manager.signIn(s.signInArgs())).rejects.toThrow(/still waiting for the browser/);
    expect(s.manager.cancelSignIn()).toEqual({ cancelled: true });
    await expect(running).rejects.toThrow('The sign-in was cancelled; nothing was stored.');
    expect(s.manager.state().pendingSignIn).toBeNull();
  });

  test('the listener answers on the registered port only while a sign-in waits', async () => {
    const s = await authSession({ manager: { signInTimeoutMs: 60_000 } });
    s.setBrowser({ redirect: () => null });
    const running = s.manager.signIn(s.signInArgs());
    await expect.poll(() => s.manager.state().pendingSignIn?.authUrl ?? null).not.toBeNull();
    const other = await fetch(new URL('/favicon.ico', s.redirectUri));
    expect(other.status).toBe(404);
    s.manager.cancelSignIn();
    await expect(running).rejects.toThrow(/cancelled/);
    await expect(fetch(s.redirectUri)).rejects.toThrow();
  });

  test('the demo-style windowless browser reaches the listener through the redirects', async () => {
    const s = await authSession({
      manager: { openExternal: async (url: string) => void (await followRedirects(url)) },
    });
    const account = await s.manager.signIn(s.signInArgs());
    expect(account.status).toBe('signed_in');
  });
});
