/**
 * Every OAuth error of the spec, provoked against the emulator, becomes a message that says
 * what to fix; nothing is stored on any of them. The accounts page's ERROR_… codes are shown
 * in the browser (never redirected), so there the test reads the page the user would see and
 * checks PortalDesk's explanation of that code.
 */
import { describe, expect, test } from 'vitest';
import { OAuthError } from '../../../src/main/auth/oauthError';
import { oauthErrorMessage } from '../../../src/main/auth/oauthErrorMessage';
import { exchangeCode } from '../../../src/main/auth/tokenEndpoint';
import { api } from '../../support/emulator';
import { authSession, freePort } from './authSession';

type Session = Awaited<ReturnType<typeof authSession>>;

function expectNothingStored(s: Session) {
  expect(s.manager.state().accounts).toEqual([]);
  expect(s.secrets.entries.size).toBe(0);
}

/** A grant code the test browser fetched, without PortalDesk's listener. */
async function rawCode(s: Session, scopes = 'PMS.portals.READ'): Promise<string> {
  const url = new URL('/oauth/v2/auth', s.emulator.dcs.us!.accounts);
  url.search = new URLSearchParams({
    scope: scopes,
    client_id: s.emulator.client.clientId,
    response_type: 'code',
    access_type: 'offline',
    redirect_uri: s.redirectUri,
  }).toString();
  const reply = await fetch(url, { redirect: 'manual' });
  return new URL(reply.headers.get('location')!).searchParams.get('code')!;
}

describe('errors on the accounts page (shown in the browser)', () => {
  test('ERROR_invalid_client: an unknown client id', async () => {
    const s = await authSession();
    const signIn = s.manager.signIn(s.signInArgs({ clientId: '1000.NOSUCHCLIENT' }));
    await expect(signIn).rejects.toThrow(/No answer came back.*ERROR_… code says what to fix/);
    expect(s.visits[0]!.status).toBe(400);
    expect(s.visits[0]!.body).toContain('ERROR_invalid_client');
    expect(
      oauthErrorMessage('ERROR_invalid_client', {
        profileName: 'Test service',
        clientId: '1000.NOSUCHCLIENT',
      }),
    ).toMatch(/does not know the client id "1000.NOSUCHCLIENT".*Copy the client id again/);
    expectNothingStored(s);
  });

  test('ERROR_invalid_redirect_uri: a redirect URI other than the registered one', async () => {
    const s = await authSession();
    const other = `http://127.0.0.1:${await freePort()}/callback`;
    await expect(s.manager.signIn(s.signInArgs({ redirectUri: other }))).rejects.toThrow(
      /No answer came back/,
    );
    expect(s.visits[0]!.body).toContain('ERROR_invalid_redirect_uri');
    expect(
      oauthErrorMessage('ERROR_invalid_redirect_uri', {
        profileName: 'Test service',
        clientId: s.emulator.client.clientId,
        redirectUri: other,
      }),
    ).toContain(
      `The redirect URI registered for client "${s.emulator.client.clientId}" is not "${other}"`,
    );
    expectNothingStored(s);
  });

  test('Enter a valid scope: checked before anything is sent', async () => {
    const s = await authSession();
    for (const scopes of ['', 'PMS.portals.WRITE', 'portals', 'Other.portals.READ']) {
      await expect(s.manager.signIn(s.signInArgs({ scopes }))).rejects.toThrow(
        /^Enter a valid scope/,
      );
    }
    expect(s.visits).toEqual([]);
    // The accounts page refuses what gets past a sloppier client with ERROR_invalid_scope.
    const url = new URL('/oauth/v2/auth', s.emulator.dcs.us!.accounts);
    url.search = new URLSearchParams({
      scope: 'PMS.portals.WRITE',
      client_id: s.emulator.client.clientId,
      response_type: 'code',
      redirect_uri: s.redirectUri,
    }).toString();
    expect(await (await fetch(url)).text()).toContain('ERROR_invalid_scope');
    expect(oauthErrorMessage('ERROR_invalid_scope', { profileName: 'Test service' })).toContain(
      'Enter a valid scope',
    );
    expectNothingStored(s);
  });

  test('ERROR_invalid_response_type: a request without its mandatory keys', async () => {
    const s = await authSession();
    const url = new URL('/oauth/v2/auth', s.emulator.dcs.us!.accounts);
    url.search = new URLSearchParams({ client_id: s.emulator.client.clientId }).toString();
    expect(await (await fetch(url)).text()).toContain('ERROR_invalid_response_type');
    expect(
      oauthErrorMessage('ERROR_invalid_response_type', { profileName: 'Test service' }),
    ).toMatch(/malformed.*mandatory parameter is missing/);
  });
});

describe('errors that come back to PortalDesk', () => {
  test('access_denied: the user rejects the consent page', async () => {
    const s = await authSession({ emulator: { autoApprove: false } });
    s.setBrowser({});
    // The browser shows the consent page; the user presses Reject.
    const signIn = s.manager.signIn(s.signInArgs()).catch((error: unknown) => error);
    await expect.poll(() => s.visits.length).toBe(1);
    const page = s.visits[0]!.body;
    const fields = Object.fromEntries(
      [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"'),
      ]),
    );
    const reject = await fetch(new URL('/oauth/v2/auth/consent', s.emulator.dcs.us!.accounts), {
      method: 'POST',
      body: new URLSearchParams({ ...fields, decision: 'reject' }),
      redirect: 'manual',
    });
    const back = reject.headers.get('location')!;
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');
    const shown = await fetch(back);
    expect(shown.status).toBe(400);
    expect(await signIn).toMatchObject({
      message: expect.stringContaining(
        'The sign-in was rejected in the browser (access_denied). Nothing was stored. Start again and choose Accept',
      ),
    });
    expectNothingStored(s);
  });

  test('temporarily_unavailable: the 11th grant code in 10 minutes', async () => {
    const s = await authSession();
    for (let i = 0; i < 10; i++) {
      const reply = await api(
        s.emulator.dcs.us!.accounts!,
        undefined,
        'POST',
        '/__emulator/self-client',
        { scopes: 'PMS.portals.READ' },
        s.adminHeaders,
      );
      expect(reply.status).toBe(200);
    }
    await expect(s.manager.signIn(s.signInArgs())).rejects.toThrow(
      /not issuing sign-in codes right now \(temporarily_unavailable.*Wait a few minutes/,
    );
    expectNothingStored(s);
  });

  test('invalid_client: a wrong client secret', async () => {
    const s = await authSession();
    await expect(
      s.manager.signIn(s.signInArgs({ clientSecret: 'not-the-secret' })),
    ).rejects.toThrow(
      /refused client "1000.PORTALDESKDEMO" or its secret \(invalid_client\)\. Nothing was stored\. Check the client secret/,
    );
    expectNothingStored(s);
  });

  test('invalid_client: a client without Multi-DC signing in at another data center', async () => {
    const s = await authSession({ emulator: { dcs: ['us', 'eu'], multiDc: false } });
    const euUser = s.emulator.state.db
      .prepare("SELECT email FROM users WHERE dc = 'eu' AND status = 'active' LIMIT 1")
      .get() as { email: string };
    s.setBrowser({ authUrl: (url) => url.searchParams.set('login_hint', euUser.email) });
    await expect(s.manager.signIn(s.signInArgs())).rejects.toThrow(
      /invalid_client.*enable Multi-DC/,
    );
    expectNothingStored(s);
  });

  test('invalid_code: an expired or reused code, a wrong PKCE verifier', async () => {
    const s = await authSession();
    const base = {
      accountsUrl: s.emulator.dcs.us!.accounts!,
      clientId: s.emulator.client.clientId,
      clientSecret: s.clientSecret,
      redirectUri: s.redirectUri,
      codeVerifier: null,
    };
    const code = await rawCode(s);
    s.emulator.state.clock.advance(2 * 60_000 + 1);
    const expired = exchangeCode({ ...base, code }, { profileName: 'Test service' });
    await expect(expired).rejects.toBeInstanceOf(OAuthError);
    await expect(expired).rejects.toThrow(/grant code was refused \(invalid_code\): it expired/);
  });

  test('invalid_redirect_uri: the token request names another redirect URI', async () => {
    const s = await authSession();
    const code = await rawCode(s);
    const other = 'http://127.0.0.1:1/elsewhere';
    const exchange = exchangeCode(
      {
        accountsUrl: s.emulator.dcs.us!.accounts!,
        clientId: s.emulator.client.clientId,
        clientSecret: s.clientSecret,
        code,
        redirectUri: other,
        codeVerifier: null,
      },
      { profileName: 'Test service', clientId: s.emulator.client.clientId, redirectUri: other },
    );
    await expect(exchange).rejects.toMatchObject({ code: 'invalid_redirect_uri' });
    await expect(exchange).rejects.toThrow(
      `redirect URI "${other}" differs from the one registered`,
    );
  });

  test('a Self Client code with a bad scope is refused before asking; a good one signs in', async () => {
    const s = await authSession();
    const args = {
      profileId: 'svc',
      dataCenter: 'us',
      clientId: s.emulator.client.clientId,
      clientSecret: s.clientSecret,
      code: 'whatever',
    };
    await expect(s.manager.selfClient({ ...args, scopes: 'PMS.portals' })).rejects.toThrow(
      /^Enter a valid scope/,
    );
    expect(s.tokenCalls).toEqual([]);

    const console = await api(
      s.emulator.dcs.us!.accounts!,
      undefined,
      'POST',
      '/__emulator/self-client',
      { scopes: 'PMS.portals.ALL,PMS.custom_fields.READ' },
      s.adminHeaders,
    );
    const account = await s.manager.selfClient({
      ...args,
      code: console.body.code,
      scopes: 'PMS.portals.ALL, PMS.custom_fields.READ',
    });
    expect(account).toMatchObject({ kind: 'self_client', status: 'signed_in', redirectUri: null });
    expect(account.scopes).toEqual(['PMS.portals.ALL', 'PMS.custom_fields.READ']);
    expect(account.portals.length).toBeGreaterThan(0);
    // The same code again: invalid_code, explained.
    await expect(
      s.manager.selfClient({ ...args, code: console.body.code, scopes: 'PMS.portals.ALL' }),
    ).rejects.toThrow(/invalid_code/);
  });
});
