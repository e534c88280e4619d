/**
 * An AccountManager on a fresh store against a fresh emulator, with an in-memory keychain and a
 * window-less "browser" that follows the accounts server's redirects (the emulator approves at
 * once) and lets a test look at or tamper with the way back.
 */
import { afterEach } from 'vitest';
import type { EmulatorOptions } from '@portaldesk/emulator/index';
import { emulatorServiceProfile } from '../../../src/main/api/client/emulatorProfile';
import { AccountManager, type AccountManagerOptions } from '../../../src/main/auth/accountManager';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import { freeLoopbackPort } from '../../../src/main/http/freeLoopbackPort';
import type { TokenClock } from '../../../src/main/auth/tokenManager';
import { Store } from '../../../src/main/store/store';
import { testEmulator, type RunningEmulator } from '../../support/emulator';
import { tempDir } from '../../support/tempDir';

const managers: AccountManager[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const manager of managers.splice(0)) manager.close();
  for (const store of stores.splice(0)) store.close();
});

export const freePort = freeLoopbackPort;

/** One visit of the browser: where it went and what it saw. */
export interface Visit {
  authUrl: string;
  /** The loopback URL the accounts server redirected to (with code and state), if any. */
  redirect: string | null;
  status: number;
  body: string;
}

export interface BrowserBehaviour {
  /** Rewrites the authorization URL before visiting it (e.g. adds login_hint). */
  authUrl?: (url: URL) => void;
  /** Rewrites the way back before following it (e.g. another state). Null: do not go back. */
  redirect?: (url: URL) => URL | null;
}

/** Follows the accounts server's answer by hand, so tests can see and change each step. */
export function windowlessBrowser(visits: Visit[], behaviour: () => BrowserBehaviour) {
  return async (url: string): Promise<void> => {
    const how = behaviour();
    const auth = new URL(url);
    how.authUrl?.(auth);
    const first = await fetch(auth, { redirect: 'manual' });
    const location = first.headers.get('location');
    const visit: Visit = {
      authUrl: auth.toString(),
      redirect: location,
      status: first.status,
      body: '',
    };
    visits.push(visit);
    if (!location) {
      visit.body = await first.text();
      return;
    }
    await first.body?.cancel();
    const back = how.redirect ? how.redirect(new URL(location)) : new URL(location);
    if (back === null) return;
    const answer = await fetch(back);
    visit.status = answer.status;
    visit.body = await answer.text();
  };
}

/** The emulator's own clock; a wait advances it instead of passing real time. */
export function emulatorClock(emulator: RunningEmulator): TokenClock & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    now: () => emulator.state.clock.now(),
    sleep: async (ms) => {
      slept.push(ms);
      emulator.state.clock.advance(ms);
    },
  };
}

export interface AuthSessionOptions {
  emulator?: EmulatorOptions;
  manager?: Partial<AccountManagerOptions>;
}

export async function authSession(options: AuthSessionOptions = {}) {
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const emulator = await testEmulator({
    records: 20,
    autoApprove: true,
    redirectUri,
    ...options.emulator,
  });
  const profile = emulatorServiceProfile(emulator, { id: 'svc', name: 'Test service' });
  const dataDir = tempDir('portaldesk-auth-');
  const store = Store.open({ dataDir, mode: 'test' });
  stores.push(store);
  const secrets = new MemorySecretStore();
  const visits: Visit[] = [];
  let behaviour: BrowserBehaviour = {};
  const tokenCalls: URL[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname.startsWith('/oauth/v2/token')) tokenCalls.push(url);
    return fetch(input, init);
  };
  const newManager = (extra: Partial<AccountManagerOptions> = {}) => {
    const manager = new AccountManager({
      db: store.db,
      secrets,
      demo: null,
      openExternal: windowlessBrowser(visits, () => behaviour),
      fetch: countingFetch,
      signInTimeoutMs: 2_000,
      ...options.manager,
      ...extra,
    });
    managers.push(manager);
    return manager;
  };
  const manager = newManager();
  manager.addProfile(profile);
  const clientSecret = emulator.clientSecrets[Object.keys(emulator.dcs)[0]!]!;
  const signInArgs = (overrides: Record<string, unknown> = {}) => ({
    profileId: profile.id,
    dataCenter: Object.keys(emulator.dcs)[0]!,
    clientId: emulator.client.clientId,
    clientSecret,
    redirectUri,
    scopes: 'PMS.portals.ALL,PMS.custom_fields.ALL',
    ...overrides,
  });
  const adminHeaders = {
    'X-Emulator-Admin': emulator.adminSecret,
    'Content-Type': 'application/json',
  };
  /** Access tokens the emulator holds per refresh token. */
  const accessTokenRows = () =>
    emulator.state.db
      .prepare(
        'SELECT token, refresh_token AS refreshToken, created_ms AS createdMs FROM oauth_access_tokens ORDER BY created_ms',
      )
      .all() as { token: string; refreshToken: string | null; createdMs: number }[];
  const refreshCalls = () =>
    tokenCalls.filter((url) => url.searchParams.get('grant_type') === 'refresh_token');
  return {
    emulator,
    profile,
    store,
    dataDir,
    secrets,
    manager,
    newManager,
    visits,
    setBrowser: (next: BrowserBehaviour) => {
      behaviour = next;
    },
    redirectUri,
    clientSecret,
    signInArgs,
    adminHeaders,
    accessTokenRows,
    tokenCalls,
    refreshCalls,
  };
}
