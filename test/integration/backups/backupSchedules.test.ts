/**
 * Backups that run by themselves: the access code kept in the keychain (opt-in) and forgotten,
 * daily schedules with missed runs and retention, and a backup the service no longer knows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATION_MS } from '@portaldesk/emulator/backup/exportRules';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import { ACCESS_CODE_SERVICE } from '../../../src/main/backups/accessCodeKeychain';
import type { BackupPortal, BackupsOverview } from '../../../src/shared/ipc/areas/backups';
import { testEngine } from '../../support/engine';
import { grantToken, testEmulator } from '../../support/emulator';
import { backUp, call, CODE, filesUnder, overview, refusal, setup } from './backupSession';

const DAY = 86_400_000;

/**
 * The app's clock and the service's, started together at the next 10:00 (local) on the service's
 * clock, so a 03:00 slot comes 17 hours after a backup made now, on whatever day the tests run
 * (a fixed date failed once the real day reached it: the service's backups were then newer than
 * the app's clock).
 */
function startTogether(emulator: Awaited<ReturnType<typeof testEmulator>>): Date {
  const start = new Date(emulator.state.clock.now());
  start.setHours(10, 0, 0, 0);
  if (start.getTime() < emulator.state.clock.now()) start.setDate(start.getDate() + 1);
  emulator.state.clock.advance(Math.max(0, start.getTime() - emulator.state.clock.now()));
  return start;
}

describe('scheduled backups', () => {
  it('run when due with the kept code, keep the last N scheduled ones, and stop when the code is forgotten', async () => {
    const emulator = await testEmulator({ records: 40 });
    let now = startTogether(emulator);
    const { engine, portalId, secrets, dataDir } = await setup({
      emulator,
      engine: { backups: { now: () => now, autoStart: false } },
    });
    const portalOf = async () =>
      (await overview(engine)).portals.find((p) => p.portalId === portalId)!;

    // Opt-in: the code goes to the keychain, never to the store.
    const manual = await backUp(engine, portalId, { keepCode: true });
    expect(manual.stage).toBe('ready');
    expect([...secrets.entries.values()]).toContain(CODE);
    expect([...secrets.entries.keys()].some((key) => key.startsWith(ACCESS_CODE_SERVICE))).toBe(
      true,
    );
    expect((await portalOf()).accessCode).toBe('kept');

    const portal = await call<BackupPortal>(engine, 'backups.setSchedule', {
      portalId,
      schedule: { frequency: 'daily', hour: 3, weekday: 0, keep: 1 },
    });
    const nextDayAtThree = new Date(now);
    nextDayAtThree.setDate(nextDayAtThree.getDate() + 1);
    nextDayAtThree.setHours(3, 0, 0, 0);
    expect(portal.nextRun).toBe(nextDayAtThree.toISOString());
    expect(portal.scheduleProblem).toBeNull();

    // Two days pass with the app closed: the missed run happens once, at the next look.
    const runScheduled = async (days: number) => {
      now = new Date(now.getTime() + days * DAY);
      emulator.state.clock.advance(days * DAY);
      await engine.backups.runSchedules();
      await engine.backups.idle();
    };
    await runScheduled(2);
    let backups = (await overview(engine)).backups;
    const first = backups.filter((b) => b.scheduled);
    expect(first).toHaveLength(1);
    expect(first[0]!.stage).toBe('ready');
    // Nothing more is due until the next slot.
    await engine.backups.runSchedules();
    await engine.backups.idle();
    expect((await overview(engine)).backups.filter((b) => b.scheduled)).toHaveLength(1);

    await runScheduled(2);
    backups = (await overview(engine)).backups;
    const scheduled = backups.filter((b) => b.scheduled);
    // Keep 1: the older scheduled file went (the service still lists it); the manual one stays.
    expect(scheduled.filter((b) => b.stage === 'ready')).toHaveLength(1);
    expect(scheduled.find((b) => b.id === first[0]!.id)).toMatchObject({
      stage: 'on_service',
      file: null,
    });
    expect(backups.find((b) => b.id === manual.id)!.stage).toBe('ready');
    expect(filesUnder(dataDir)).toHaveLength(2);

    // Forgotten: the keychain entry goes, and a due schedule says why it cannot run.
    await call(engine, 'backups.forgetCode', { portalId });
    expect([...secrets.entries.values()]).not.toContain(CODE);
    expect((await portalOf()).scheduleProblem).toMatch(/need the access code kept/);
    await runScheduled(2);
    expect((await overview(engine)).backups.filter((b) => b.scheduled)).toHaveLength(2);
    expect((await portalOf()).scheduleProblem).toMatch(/no access code is kept/);
  });

  it("runs again once the service's 24-hour reuse ends instead of skipping a day", async () => {
    const emulator = await testEmulator({ records: 40 });
    let now = startTogether(emulator);
    const { engine, portalId } = await setup({
      emulator,
      engine: { backups: { now: () => now, autoStart: false } },
    });
    await backUp(engine, portalId, { keepCode: true });
    await call(engine, 'backups.setSchedule', {
      portalId,
      schedule: { frequency: 'daily', hour: 3, weekday: 0, keep: 7 },
    });
    const tick = async (ms: number) => {
      now = new Date(now.getTime() + ms);
      emulator.state.clock.advance(ms);
      await engine.backups.runSchedules();
      await engine.backups.idle();
    };
    const newOnes = async () =>
      (await overview(engine)).backups.filter((b) => b.scheduled && !b.reused);
    // The slot comes 17 hours after the manual backup: the service returns that one.
    await tick(17 * 3_600_000 + 60_000);
    expect(await newOnes()).toHaveLength(0);
    const portal = (await overview(engine)).portals.find((p) => p.portalId === portalId)!;
    expect(portal.scheduleProblem).toMatch(/runs again after .*when the service makes new ones/);
    // Not before the reuse ends...
    await tick(60 * 60_000);
    expect(await newOnes()).toHaveLength(0);
    // ...and once it has ended, the slot's own backup is made the same day.
    await tick(7 * 3_600_000);
    const made = await newOnes();
    expect(made).toHaveLength(1);
    expect(made[0]!.stage).toBe('ready');
  });

  it('refuses to start when the keychain cannot keep the code, and starts nothing', async () => {
    const { engine, portalId, secrets } = await setup();
    secrets.unavailable = 'No Secret Service is running.';
    const outcome = await engine.dispatcher.dispatch(
      'backups.start',
      { portalIds: [portalId], accessCode: CODE, attachmentNeeded: false, keepCode: true },
      { transport: 'internal', trusted: true, description: 'test' },
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error.message).toMatch(
        /could not be kept in the keychain.*Nothing was started/,
      );
    expect((await overview(engine)).backups).toEqual([]);
  });
});

describe('keeping codes for several portals', () => {
  it("gives a portal its earlier code back when the keychain refuses the next portal's", async () => {
    const { engine, emulator, secrets } = await setup();
    const [first, second] = emulator.portals as [string, string];
    await secrets.setPassword(ACCESS_CODE_SERVICE, `portal:${first}`, 'the earlier code');
    const setPassword = secrets.setPassword.bind(secrets);
    secrets.setPassword = async (service, account, password) => {
      if (account === `portal:${second}`) throw new Error('The keychain is locked.');
      return setPassword(service, account, password);
    };
    const outcome = await engine.dispatcher.dispatch(
      'backups.start',
      { portalIds: [first, second], accessCode: CODE, attachmentNeeded: false, keepCode: true },
      { transport: 'internal', trusted: true, description: 'test' },
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error.message).toMatch(/keychain is locked.*Nothing was started/);
    expect(await secrets.getPassword(ACCESS_CODE_SERVICE, `portal:${first}`)).toBe(
      'the earlier code',
    );
    expect(await secrets.getPassword(ACCESS_CODE_SERVICE, `portal:${second}`)).toBeNull();
    expect((await overview(engine)).backups).toEqual([]);
  });
});

describe('forgetting a kept code', () => {
  it('says so when the keychain refuses, and the code is then still kept and said to be', async () => {
    const { engine, portalId, secrets } = await setup();
    await backUp(engine, portalId, { keepCode: true });
    secrets.deletePassword = async () => {
      throw new Error('The keychain is locked.');
    };
    expect(await refusal(engine, 'backups.forgetCode', { portalId })).toMatch(
      /could not be removed.*still kept/,
    );
    const portal = (await overview(engine)).portals.find((p) => p.portalId === portalId)!;
    expect(portal.accessCode).toBe('kept');
  });
});

describe('an engine closed as soon as it started', () => {
  it('leaves its backups alone: nothing reads the closed store afterwards', async () => {
    const rejections: unknown[] = [];
    const listener = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', listener);
    try {
      // Starts backups (autoStart: the keychain is read, then unfinished backups resumed)...
      const engine = testEngine({ secrets: new MemorySecretStore() });
      // ...and closes before the keychain answered.
      engine.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(rejections).toEqual([]);
  });
});

describe('a data directory that cannot hold backups', () => {
  it('fails the backup in words and writes nothing', async () => {
    const { engine, portalId, dataDir } = await setup();
    // Where the backups folder should be, a file: the folder cannot be made (as a folder without
    // write permission would refuse; the tests run as root, which permissions do not stop).
    writeFileSync(path.join(dataDir, 'backups'), 'not a folder');
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('failed');
    expect(backup.problem).toMatch(/backups folder could not be made.*Nothing was downloaded/);
    expect(readFileSync(path.join(dataDir, 'backups'), 'utf8')).toBe('not a folder');
  });
});

describe('a backup the service no longer knows', () => {
  it('fails in words and leaves nothing half downloaded', async () => {
    const { engine, emulator, portalId, dataDir } = await setup();
    await fetch(`${emulator.dcs.us!.api}/api/v3/portal/${portalId}/portal_export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${grantToken(emulator)}` },
      body: new URLSearchParams({ access_code: CODE }),
    });
    emulator.state.clock.advance(GENERATION_MS);
    const merged = await call<BackupsOverview>(engine, 'backups.refreshHistory', { portalId });
    const remote = merged.backups[0]!;
    // The service forgets every backup (the emulator's reset).
    const reset = await fetch(`${emulator.dcs.us!.api}/__emulator/reset`, {
      method: 'POST',
      headers: { 'X-Emulator-Admin': emulator.adminSecret },
    });
    expect(reset.ok).toBe(true);
    await call(engine, 'backups.download', { id: remote.id, accessCode: CODE });
    await engine.backups.idle();
    const after = (await overview(engine)).backups.find((b) => b.id === remote.id)!;
    expect(after.stage).toBe('failed');
    expect(after.problem).toMatch(/no longer knows this backup/);
    expect(filesUnder(dataDir)).toEqual([]);
  });
});
