import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { AccessTokenLedger } from '../../../src/main/auth/accessTokenLedger';
import { TokenManager, type TokenClock } from '../../../src/main/auth/tokenManager';
import { applyMigrations } from '../../../src/main/store/migrate';
import { registerSqlFunctions } from '../../../src/main/store/sqlFunctions';
import { appMigrations } from '../../../src/main/store/store';

const MIN = 60_000;

/** A token endpoint in memory: answers each refresh after `delayMs` of fake time. */
function fakeAccounts(clock: { t: number }) {
  const refreshes: URL[] = [];
  let answer: () => object = () => ({ access_token: `at-${refreshes.length}`, expires_in: 3600 });
  const fetch: typeof globalThis.fetch = async (input) => {
    refreshes.push(new URL(String(input)));
    clock.t += 50;
    return new Response(JSON.stringify(answer()), { status: 200 });
  };
  return { refreshes, fetch, answerWith: (next: () => object) => (answer = next) };
}

function setup(options: { initial?: boolean } = {}) {
  const db = new Database(':memory:');
  // As Store.open: migrations may call the app's SQL functions (0016 fills name keys).
  registerSqlFunctions(db);
  applyMigrations(db, appMigrations, 'test');
  const ledger = new AccessTokenLedger(db);
  const time = { t: 1_000 * MIN };
  const slept: number[] = [];
  const clock: TokenClock = {
    now: () => time.t,
    sleep: async (ms) => {
      slept.push(ms);
      time.t += ms;
    },
  };
  const accounts = fakeAccounts(time);
  const refused: string[] = [];
  const create = () =>
    new TokenManager({
      refreshTokenId: 'rt_1',
      accountsUrl: 'https://accounts.example',
      clientId: '1000.ID',
      context: { profileName: 'Example service', dataCenter: 'us' },
      credentials: async () => ({ refreshToken: 'R', clientSecret: 'S' }),
      ledger,
      clock,
      endpoint: { fetch: accounts.fetch },
      ...(options.initial
        ? { initial: { accessToken: 'first', expiresAt: time.t + 60 * MIN } }
        : {}),
      onRefreshTokenRefused: (message) => refused.push(message),
    });
  return { db, ledger, time, slept, clock, accounts, refused, manager: create(), create };
}

describe('TokenManager', () => {
  test('keeps a token until shortly before it expires; concurrent callers share one refresh', async () => {
    const s = setup({ initial: true });
    expect(await s.manager.accessToken()).toBe('first');
    s.time.t += 59.5 * MIN; // inside the last minute: renewed ahead of the expiry
    const tokens = await Promise.all(Array.from({ length: 25 }, () => s.manager.accessToken()));
    expect(new Set(tokens)).toEqual(new Set(['at-1']));
    expect(s.accounts.refreshes).toHaveLength(1);
    // The refresh's parameters travel in the query string.
    expect(Object.fromEntries(s.accounts.refreshes[0]!.searchParams)).toEqual({
      refresh_token: 'R',
      client_id: '1000.ID',
      client_secret: 'S',
      grant_type: 'refresh_token',
    });
    // A caller still holding the refused old token gets the new one without another refresh.
    expect(await s.manager.refresh('first')).toBe('at-1');
    expect(s.accounts.refreshes).toHaveLength(1);
  });

  test('the 11th token in 10 minutes waits for the window, and the ledger outlives the manager', async () => {
    const s = setup();
    // The first call asks for one, then nine refreshes: 10 in the window.
    for (let i = 0; i < 9; i++) await s.manager.refresh(await s.manager.accessToken());
    expect(s.accounts.refreshes).toHaveLength(10);
    expect(s.slept).toEqual([]);
    const restarted = s.create();
    expect(restarted.status().refreshesInWindow).toBe(10);
    await restarted.accessToken();
    expect(s.accounts.refreshes).toHaveLength(11);
    expect(s.slept).toHaveLength(1);
    expect(s.slept[0]).toBeGreaterThan(9 * MIN);
  });

  test('a refusal frees its ledger entry; a lost answer stays counted', async () => {
    const s = setup();
    s.accounts.answerWith(() => ({ error: 'invalid_client' }));
    await expect(s.manager.accessToken()).rejects.toThrow(/invalid_client/);
    expect(s.manager.status().refreshesInWindow).toBe(0);
    s.accounts.answerWith(() => ({ unexpected: true }));
    await expect(s.manager.accessToken()).rejects.toThrow(/no usable access token/);
    expect(s.manager.status().refreshesInWindow).toBe(1);
  });

  test('invalid_code for the refresh token signs out once, and later calls say so without asking', async () => {
    const s = setup();
    s.accounts.answerWith(() => ({ error: 'invalid_code' }));
    const both = await Promise.allSettled([s.manager.accessToken(), s.manager.accessToken()]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(s.refused).toHaveLength(1);
    expect(s.refused[0]).toMatch(/signed out\. All local data and queued edits are kept/);
    await expect(s.manager.refresh('x')).rejects.toThrow(/sign in again/);
    expect(s.accounts.refreshes).toHaveLength(1);
  });
});
