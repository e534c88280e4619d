/**
 * Sync as the app runs it, through the engine's contract: accounts from an account source,
 * every request through the persisted request scheduler, the run log, status snapshots pushed
 * as `sync.status` events.
 */
import { describe, expect, it } from 'vitest';
import { emulatorServiceProfile } from '../../../src/main/api/client/emulatorProfile';
import type { TokenProvider } from '../../../src/main/api/client/tokenProvider';
import type { Engine } from '../../../src/main/engine';
import type { AccountSource, SyncableAccount } from '../../../src/main/sync/syncService';
import type { SyncStatus } from '../../../src/shared/ipc/areas/sync';
import { testEngine } from '../../support/engine';
import { grantToken, testEmulator, type RunningEmulator } from '../../support/emulator';
import { tempDir } from '../../support/tempDir';

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;

function tokensFor(emulator: RunningEmulator, dc: string, email?: string): TokenProvider {
  const mint = () => grantToken(emulator, { dc, ...(email ? { email } : {}) });
  let token = mint();
  return {
    accessToken: async () => token,
    refresh: async () => (token = mint()),
  };
}

/** An account source the test controls: sign in and out at will. */
function accountSource(initial: SyncableAccount[] = []) {
  const accounts = [...initial];
  const signedInListeners = new Set<(account: SyncableAccount) => void>();
  const signedOutListeners = new Set<(accountId: string) => void>();
  const source: AccountSource = {
    signedIn: () => [...accounts],
    onSignedIn: (listener) => {
      signedInListeners.add(listener);
      return () => signedInListeners.delete(listener);
    },
    onSignedOut: (listener) => {
      signedOutListeners.add(listener);
      return () => signedOutListeners.delete(listener);
    },
  };
  return {
    source,
    signIn(account: SyncableAccount) {
      accounts.push(account);
      for (const listener of signedInListeners) listener(account);
    },
    signOut(accountId: string) {
      accounts.splice(
        accounts.findIndex((a) => a.accountId === accountId),
        1,
      );
      for (const listener of signedOutListeners) listener(accountId);
    },
  };
}

async function call(engine: Engine, name: string, args?: unknown) {
  return engine.dispatcher.dispatch(name, args, internal);
}

async function status(engine: Engine): Promise<SyncStatus> {
  const outcome = await call(engine, 'sync.status');
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value as SyncStatus;
}

const quickSync = {
  engine: { retryDelaysMs: [0, 0], commentBackfill: false },
  client: { sleep: async () => undefined },
};

/** An engine with automatic syncs on, and one account of an emulator with `records` signing in. */
async function signedInEngine(records: number) {
  const emulator = await testEmulator({ records });
  const accounts = accountSource();
  const engine = testEngine({
    accounts: accounts.source,
    autoSync: true,
    sync: quickSync,
    pushRates: {},
  });
  accounts.signIn({
    accountId: 'acc-1',
    profile: emulatorServiceProfile(emulator),
    dataCenter: 'us',
    tokens: tokensFor(emulator, 'us'),
  });
  return { emulator, accounts, engine };
}

describe('the sync service in the engine', () => {
  it('refuses to sync with nobody signed in, and says what to do', async () => {
    const engine = testEngine({ autoSync: false });
    const outcome = await call(engine, 'sync.start');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/No account is signed in.*Sign in/);
    expect((await status(engine)).log).toEqual([]);
  });

  it('syncs two data centers, logs the runs, pushes status and keeps the budgets across a restart', async () => {
    const emulator = await testEmulator({ records: 60, dcs: ['us', 'eu'], multiDc: true });
    const profile = emulatorServiceProfile(emulator);
    const dcs = ['us', 'eu'];
    const emails: Record<string, string> = {
      us: emulator.user.email,
      eu: 'admin.eu@portaldesk.demo',
    };
    const accounts = accountSource(
      dcs.map((dc) => ({
        accountId: `acc-${dc}`,
        label: `admin (${dc})`,
        profile,
        dataCenter: dc,
        tokens: tokensFor(emulator, dc, emails[dc]),
      })),
    );
    const dataDir = tempDir();
    const engine = testEngine({
      dataDir,
      accounts: accounts.source,
      autoSync: false,
      sync: quickSync,
      pushRates: {},
    });
    const pushed: SyncStatus[] = [];
    engine.events.subscribe((name, payload) => {
      if (name === 'sync.status') pushed.push(payload as SyncStatus);
    });

    const started = await call(engine, 'sync.start');
    expect(started.ok).toBe(true);
    expect((started as { value: SyncStatus }).value.running).toHaveLength(2);
    await engine.sync.idle();

    const after = await status(engine);
    expect(after.running).toEqual([]);
    expect(after.online).toBe(true);
    expect(after.log.map((run) => [run.accountId, run.state]).sort()).toEqual(
      dcs.map((dc) => [`acc-${dc}`, 'done']).sort(),
    );
    for (const run of after.log) {
      expect(run.calls).toBeGreaterThan(0);
      expect(run.endedAt).not.toBeNull();
    }
    // Portals of both data centers are mirrored, each under its own account.
    const portals = engine.store.db
      .prepare('SELECT account_id AS accountId, dc FROM portals ORDER BY dc')
      .all() as { accountId: string; dc: string }[];
    expect(new Set(portals.map((p) => p.dc))).toEqual(new Set(dcs));
    for (const portal of portals) expect(portal.accountId).toBe(`acc-${portal.dc}`);
    expect(after.lastSynced.length).toBeGreaterThan(0);
    expect(after.progress.some((p) => p.phase === 'done' && p.moduleId !== null)).toBe(true);
    // The budgets the Sync view shows: every key the sync used, with calls spent.
    expect(after.budgets.length).toBeGreaterThan(0);
    expect(after.budgets.reduce((sum, b) => sum + b.spent, 0)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pushed.length).toBeGreaterThan(0);
    expect(pushed.at(-1)!.running).toEqual([]);

    // A restart remembers the log and what each endpoint spent.
    const spent = new Map(after.budgets.map((b) => [b.key, b.spent]));
    engine.close();
    const again = testEngine({ dataDir, accounts: accounts.source, autoSync: false });
    const restored = await status(again);
    expect(restored.log.map((run) => run.runId).sort()).toEqual(
      after.log.map((run) => run.runId).sort(),
    );
    for (const budget of restored.budgets) {
      expect(budget.spent).toBe(spent.get(budget.key));
    }
  });

  it('says offline when the service cannot be reached, keeps what it had, and plans a retry', async () => {
    const emulator = await testEmulator({ records: 20 });
    const profile = emulatorServiceProfile(emulator);
    const unreachable = {
      ...profile,
      dataCenters: { us: { api: 'http://127.0.0.1:9', accounts: 'http://127.0.0.1:9' } },
    };
    const accounts = accountSource([
      {
        accountId: 'acc-1',
        profile: unreachable,
        dataCenter: 'us',
        tokens: tokensFor(emulator, 'us'),
      },
    ]);
    const engine = testEngine({
      accounts: accounts.source,
      autoSync: true,
      sync: quickSync,
      pushRates: {},
    });
    // Start-up sync: automatic, straight away.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await engine.sync.idle();
    const after = await status(engine);
    expect(after.online).toBe(false);
    expect(after.log[0]!.state).toBe('offline');
    expect(after.log[0]!.message).toMatch(/offline.*kept/i);
    // The first retry after going offline comes within a quarter of a minute.
    expect(after.nextAutoSyncAt).not.toBeNull();
    expect(after.nextAutoSyncAt! - after.at).toBeGreaterThan(0);
    expect(after.nextAutoSyncAt! - after.at).toBeLessThanOrEqual(15_000);
  });

  it('follows the settings: the periodic sync moves with its interval, stops at 0, and bad values change nothing', async () => {
    const { engine } = await signedInEngine(20);
    await engine.sync.idle();
    const minutesToNext = async () => {
      const now = await status(engine);
      return now.nextAutoSyncAt === null ? null : (now.nextAutoSyncAt - now.at) / 60_000;
    };
    // The default: every 15 minutes after a run that reached the service.
    expect(await minutesToNext()).toBeGreaterThan(14.9);
    expect(await minutesToNext()).toBeLessThanOrEqual(15);

    // A new interval counts from the end of that run.
    expect((await call(engine, 'settings.set', { autoSyncMinutes: 60 })).ok).toBe(true);
    expect(await minutesToNext()).toBeGreaterThan(59.9);
    expect(await minutesToNext()).toBeLessThanOrEqual(60);

    // 0: no periodic sync at all.
    await call(engine, 'settings.set', { autoSyncMinutes: 0 });
    expect(await minutesToNext()).toBeNull();

    // A value the settings cannot hold is refused and changes nothing.
    const refused = await call(engine, 'settings.set', { autoSyncMinutes: -5 });
    expect(refused.ok).toBe(false);
    expect(await minutesToNext()).toBeNull();
    expect(await call(engine, 'settings.get')).toMatchObject({
      ok: true,
      value: { autoSyncMinutes: 0 },
    });

    await call(engine, 'settings.set', { autoSyncMinutes: 5 });
    expect(await minutesToNext()).toBeGreaterThan(4.9);
    expect(await minutesToNext()).toBeLessThanOrEqual(5);
  });

  it("syncs an account as soon as it signs in, and reads a record's comments on demand", async () => {
    const { emulator, accounts, engine } = await signedInEngine(40);
    expect((await status(engine)).running).toHaveLength(1);
    await engine.sync.idle();
    expect((await status(engine)).log[0]!.state).toBe('done');

    const withComments = emulator.state.db
      .prepare(
        `SELECT e.id AS recordId, e.module_id AS moduleId, m.portal_id AS portalId, count(*) AS n
         FROM comments c JOIN entities e ON e.id = c.entity_id JOIN modules m ON m.id = e.module_id
         GROUP BY e.id ORDER BY n DESC LIMIT 1`,
      )
      .get() as { recordId: number; moduleId: number; portalId: number; n: number };
    const fetched = await call(engine, 'sync.fetchComments', {
      portalId: String(withComments.portalId),
      moduleId: String(withComments.moduleId),
      recordId: String(withComments.recordId),
    });
    const timeline = emulator.state.db
      .prepare('SELECT count(*) AS n FROM status_timeline WHERE entity_id = ?')
      .get(withComments.recordId) as { n: number };
    expect(fetched).toEqual({ ok: true, value: { stored: withComments.n, timeline: timeline.n } });
    expect(
      engine.mirror.comments.statusTimeline(
        String(withComments.portalId),
        String(withComments.recordId),
      ),
    ).toHaveLength(timeline.n);

    // Signed out: the mirror stays, and reading comments says why it cannot.
    accounts.signOut('acc-1');
    const refused = await call(engine, 'sync.fetchComments', {
      portalId: String(withComments.portalId),
      moduleId: String(withComments.moduleId),
      recordId: String(withComments.recordId),
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/signed out.*kept.*sign in again/);
  });
});
