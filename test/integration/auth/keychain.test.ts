/**
 * The real OS keychain (@napi-rs/keyring's keytar API). On Linux it needs a Secret Service: CI
 * runs this file inside `dbus-run-session` with an unlocked gnome-keyring-daemon. Elsewhere it
 * fails, saying how to run it, unless PORTALDESK_NO_KEYCHAIN_TEST=1 says to skip it.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { KEYCHAIN_SERVICE } from '../../../src/main/auth/accountManager';
import { KeychainSecretStore } from '../../../src/main/auth/keychainSecretStore';
import { KeychainUnavailableError } from '../../../src/main/auth/secretStore';
import { authSession } from './authSession';

const skip = process.env.PORTALDESK_NO_KEYCHAIN_TEST === '1';

async function requireKeychain(store: KeychainSecretStore): Promise<void> {
  try {
    await store.ensureAvailable();
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n\nRun this file under a Secret Service, e.g.\n  XDG_DATA_HOME=$(mktemp -d) dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; npx vitest run test/integration/auth/keychain.test.ts'\nor set PORTALDESK_NO_KEYCHAIN_TEST=1 to skip it.`,
    );
  }
}

describe.skipIf(skip)('the OS keychain', () => {
  test('stores, reads and deletes a secret', async () => {
    const store = new KeychainSecretStore();
    await requireKeychain(store);
    const account = `test-${randomBytes(6).toString('hex')}`;
    expect(await store.getPassword(KEYCHAIN_SERVICE, account)).toBeNull();
    await store.setPassword(KEYCHAIN_SERVICE, account, 'secret value ✓');
    expect(await store.getPassword(KEYCHAIN_SERVICE, account)).toBe('secret value ✓');
    expect(await store.deletePassword(KEYCHAIN_SERVICE, account)).toBe(true);
    expect(await store.deletePassword(KEYCHAIN_SERVICE, account)).toBe(false);
    expect(await store.getPassword(KEYCHAIN_SERVICE, account)).toBeNull();
  });

  test('a sign-in keeps its refresh token and client secret there, a restart reads them, sign-out removes them', async () => {
    const keychain = new KeychainSecretStore();
    await requireKeychain(keychain);
    const s = await authSession({ manager: { secrets: keychain } });
    const account = await s.manager.signIn(s.signInArgs());
    const refreshToken = await keychain.getPassword(
      KEYCHAIN_SERVICE,
      `${account.accountId}:refresh_token`,
    );
    expect(refreshToken).toMatch(/^1000\./);
    expect(await keychain.getPassword(KEYCHAIN_SERVICE, `${account.accountId}:client_secret`)).toBe(
      s.clientSecret,
    );

    // A relaunch holds no access token: it refreshes with what the keychain gives back.
    s.manager.close();
    const relaunched = s.newManager({ secrets: keychain });
    const token = await relaunched.signedIn()[0]!.tokens.accessToken();
    expect(token).toMatch(/^1000\./);
    expect(s.refreshCalls()).toHaveLength(1);

    await relaunched.signOut(account.accountId, true);
    expect(
      await keychain.getPassword(KEYCHAIN_SERVICE, `${account.accountId}:refresh_token`),
    ).toBeNull();
    expect(
      await keychain.getPassword(KEYCHAIN_SERVICE, `${account.accountId}:client_secret`),
    ).toBeNull();
  });
});

test('without a keychain, sign-in refuses before anything is sent and says how to enable one', async () => {
  const s = await authSession();
  s.secrets.unavailable = new KeychainSecretStore('linux')['unavailable'](
    new Error('no Secret Service'),
  ).message;
  await expect(s.manager.signIn(s.signInArgs())).rejects.toThrow(
    /No keychain is available.*never keeps a token in clear text.*gnome-keyring.*dbus-run-session/,
  );
  expect(s.visits).toEqual([]);
  expect(s.manager.state().accounts).toEqual([]);
  expect(new KeychainUnavailableError('x')).toBeInstanceOf(Error);
});
