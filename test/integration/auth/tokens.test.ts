/**
 * The token manager against the emulator: one refresh however many callers, the 10-per-10-minutes
 * ledger under a burst, a refused refresh token, restarts, and sign-out. The manager runs on the
 * emulator's clock, and its waits advance that clock instead of passing real time.
 */
import { describe, expect, test } from 'vitest';
import { createApiClient } from '../../../src/main/api/client/apiClient';
import { passThroughScheduler } from '../../../src/main/api/client/passThroughScheduler';
import type { SignedInAccount } from '../../../src/main/auth/accountManager';
import { api } from '../../support/emulator';
import { authSession, emulatorClock } from './authSession';

const HOUR_MS = 3_600_000;
const WINDOW_MS = 600_000;

function clientFor(account: SignedInAccount) {
  return createApiClient({
    profile: account.profile,
    dataCenter: account.dataCenter,
    tokens: account.tokens,
    scheduler: passThroughScheduler(),
    sleep: async () => undefined,
  });
}

/** The most access tokens of one refresh token created within any 10-minute window. */
function busiestWindow(createdMs: number[]): number {
  const sorted = [...createdMs].sort((a, b) => a - b);
  let most = 0;
  for (const start of sorted) {
    most = Math.max(most, sorted.filter((t) => t >= start && t < start + WINDOW_MS).length);
  }
  return most;
}

async function signedInSession() {
  const s = await authSession();
  const clock = emulatorClock(s.emulator);
  const manager = s.newManager({ clock });
  await manager.signIn(s.signInArgs());
  const account = manager.signedIn()[0]!;
  const refreshToken = [...s.secrets.entries.values()].find((v) => v.startsWith('1000.'))!;
  return { ...s, manager, clock, account, refreshToken };
}

describe('the token manager', () => {
  test('reuses the access token, and after its expiry many callers share exactly one refresh', async () => {
    const s = await signedInSession();
    const first = await s.account.tokens.accessToken();
    expect(await s.account.tokens.accessToken()).toBe(first);
    expect(s.refreshCalls()).toHaveLength(0);

    s.emulator.state.clock.advance(HOUR_MS + 1);
    const client = clientFor(s.account);
    const [tokens, replies] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => s.account.tokens.accessToken())),
      Promise.all(Array.from({ length: 20 }, () => client.listPortals({}))),
    ]);
    expect(s.refreshCalls()).toHaveLength(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    expect(replies.every((reply) => reply.items.length === s.emulator.portals.length)).toBe(true);
    // The refresh sent its parameters in the query string (the spec's quirk), to the accounts server.
    const refresh = s.refreshCalls()[0]!;
    expect(refresh.origin).toBe(s.emulator.dcs.us!.accounts);
    expect(refresh.searchParams.get('client_id')).toBe(s.emulator.client.clientId);
  });

  test('a burst of 50 calls across a forced expiry, with 10 tokens already spent, waits instead of evicting the first', async () => {
    const s = await signedInSession();
    // Nine refreshes (the service kept refusing tokens): with the exchange's, 10 in the window.
    for (let i = 0; i < 9; i++) {
      await s.account.tokens.refresh(await s.account.tokens.accessToken());
    }
    const before = s.accessTokenRows().filter((row) => row.refreshToken === s.refreshToken);
    expect(before).toHaveLength(10);
    expect(s.clock.slept).toEqual([]);

    // The service expires the token in use before its time.
    const current = await s.account.tokens.accessToken();
    s.emulator.state.db
      .prepare('UPDATE oauth_access_tokens SET expires_ms = ? WHERE token = ?')
      .run(s.emulator.state.clock.now(), current);
    const refreshesBefore = s.refreshCalls().length;
    const client = clientFor(s.account);
    const replies = await Promise.all(Array.from({ length: 50 }, () => client.listPortals({})));

    expect(replies).toHaveLength(50);
    expect(s.refreshCalls().length - refreshesBefore).toBe(1);
    // It waited (on the emulator's clock) until the first token left the window …
    expect(s.clock.slept).toHaveLength(1);
    expect(s.clock.slept[0]).toBeGreaterThan(WINDOW_MS - 60_000);
    // … so the service never deleted a token: the first one is still there and valid.
    const after = s.accessTokenRows().filter((row) => row.refreshToken === s.refreshToken);
    expect(after).toHaveLength(11);
    expect(after.map((row) => row.token)).toContain(before[0]!.token);
    expect(busiestWindow(after.map((row) => row.createdMs))).toBeLessThanOrEqual(10);
    const firstStillWorks = await api(
      s.emulator.dcs.us!.api,
      before[0]!.token,
      'GET',
      '/api/v3/portals',
    );
    expect(firstStillWorks.status).toBe(200);
    // The account page's figures: the older tokens have left the window by now.
    const status = s.manager.state().accounts[0]!.tokens!;
    expect(status).toMatchObject({ refreshLimit: 10, waitingUntil: null });
    expect(status.refreshesInWindow).toBeGreaterThanOrEqual(1);
    expect(status.refreshesInWindow).toBeLessThanOrEqual(10);
  });

  test('the ledger survives a restart: a relaunch cannot spend the window twice', async () => {
    const s = await signedInSession();
    for (let i = 0; i < 9; i++) {
      await s.account.tokens.refresh(await s.account.tokens.accessToken());
    }
    s.manager.close();
    const relaunched = s.newManager({ clock: s.clock });
    const account = relaunched.signedIn()[0]!;
    expect(account.accountId).toBe(s.account.accountId);
    expect(relaunched.state().accounts[0]!.tokens?.refreshesInWindow).toBe(10);
    // No access token is kept across the restart: the first call needs one, and must wait.
    const token = await account.tokens.accessToken();
    expect(s.clock.slept).toHaveLength(1);
    const rows = s.accessTokenRows().filter((row) => row.refreshToken === s.refreshToken);
    expect(rows).toHaveLength(11);
    expect(rows.at(-1)!.token).toBe(token);
  });

  test('a refused refresh token signs the account out, keeps its local data and tells why; signing in again restores it', async () => {
    const s = await signedInSession();
    const id = s.account.accountId;
    s.store.db
      .prepare(
        `INSERT INTO portals (id, account_id, dc, name, timezone, mirrored_at) VALUES ('777', ?, 'us', 'kept', 'UTC', 'now')`,
      )
      .run(id);
    const signedOut: string[] = [];
    s.manager.onSignedOut((accountId) => signedOut.push(accountId));
    // The user revoked PortalDesk's access elsewhere.
    await fetch(`${s.emulator.dcs.us!.accounts}/oauth/v2/token/revoke?token=${s.refreshToken}`, {
      method: 'POST',
    });
    s.emulator.state.clock.advance(HOUR_MS + 1);

    await expect(s.account.tokens.accessToken()).rejects.toThrow(
      /no longer accepts this account's sign-in.*signed out\. All local data and queued edits are kept; sign in again/,
    );
    expect(signedOut).toEqual([id]);
    const summary = s.manager.state().accounts[0]!;
    expect(summary).toMatchObject({ status: 'signed_out', tokens: null });
    expect(summary.statusMessage).toMatch(/sign in again/);
    expect(s.manager.signedIn()).toEqual([]);
    expect(s.store.db.prepare("SELECT name FROM portals WHERE id = '777'").get()).toEqual({
      name: 'kept',
    });
    expect([...s.secrets.entries.values()]).not.toContain(s.refreshToken);

    const again = await s.manager.signInAgain(id);
    expect(again).toMatchObject({ accountId: id, status: 'signed_in', statusMessage: null });
    expect(s.manager.signedIn().map((a) => a.accountId)).toEqual([id]);
  });
});

describe('sign-out', () => {
  test('revokes the refresh token, removes the keychain entries and keeps the local data', async () => {
    const s = await signedInSession();
    const id = s.account.accountId;
    const result = await s.manager.signOut(id, false);
    expect(result.message).toMatch(/Its local data and queued edits are kept/);
    const row = s.emulator.state.db
      .prepare('SELECT revoked FROM oauth_refresh_tokens WHERE token = ?')
      .get(s.refreshToken) as { revoked: number };
    expect(row.revoked).toBe(1);
    expect(s.secrets.entries.size).toBe(0);
    expect(result.state.accounts[0]).toMatchObject({ accountId: id, status: 'signed_out' });
    expect(s.manager.signedIn()).toEqual([]);
  });

  test('with "delete local data" forgets the account and everything mirrored for it', async () => {
    const s = await signedInSession();
    const id = s.account.accountId;
    s.store.db
      .prepare(
        `INSERT INTO portals (id, account_id, dc, name, timezone, mirrored_at) VALUES ('777', ?, 'us', 'gone', 'UTC', 'now')`,
      )
      .run(id);
    const result = await s.manager.signOut(id, true);
    expect(result.message).toMatch(/deleted its local data/);
    expect(result.state.accounts).toEqual([]);
    expect(s.store.db.prepare('SELECT COUNT(*) AS n FROM portals').get()).toEqual({ n: 0 });
    expect(s.store.db.prepare('SELECT COUNT(*) AS n FROM access_token_ledger').get()).toEqual({
      n: 0,
    });
  });
});
