/**
 * Backups acted on twice at once, or stopped between two steps: a ready backup deleted while it
 * is verified again, schedules looked at by two overlapping ticks, and a backup killed between
 * its rename and its row, then deleted while it waits for a code, a download asked for again
 * while the keychain answers the first request, a ready backup whose file was moved away, and
 * one renamed before a kill and found damaged at the next start, a due schedule while the
 * keychain cannot be read, a download that brings another backup's archive, and a portal first
 * mirrored after the engine started, with a code kept for it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATION_MS } from '@portaldesk/emulator/backup/exportRules';
import { ACCESS_CODE_SERVICE } from '../../../src/main/backups/accessCodeKeychain';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import type {
  BackupPortal,
  BackupsOverview,
  BackupView,
} from '../../../src/shared/ipc/areas/backups';
import { grantToken, testEmulator } from '../../support/emulator';
import { backUp, call, CODE, filesUnder, overview, refusal, setup } from './backupSession';

const DAY = 86_400_000;

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;

describe('backups acted on at once', () => {
  it.each([
    ['typed', CODE],
    ['kept in the keychain', undefined],
  ])(
    'never deletes a ready backup under its check (code %s), and the check ends in words',
    async (_how, accessCode) => {
      const { engine, portalId, dataDir } = await setup();
      const backup = await backUp(engine, portalId, { keepCode: true });
      expect(backup.stage).toBe('ready');
      const verifying = engine.dispatcher.dispatch(
        'backups.verify',
        { id: backup.id, ...(accessCode ? { accessCode } : {}) },
        internal,
      );
      const deleting = await engine.dispatcher.dispatch(
        'backups.delete',
        { id: backup.id },
        internal,
      );
      const verified = await verifying;
      await engine.backups.idle();
      const row = (await overview(engine)).backups.find((b) => b.id === backup.id);
      if (deleting.ok) {
        // Deleted before the check began: the check is refused in words and leaves nothing.
        expect(verified.ok ? 'verified' : verified.error.message).toMatch(
          /still being worked on|Only a downloaded backup can be verified|does not exist/,
        );
        expect(row).toMatchObject({ stage: 'on_service', problem: null, verification: null });
        expect(filesUnder(dataDir)).toEqual([]);
      } else {
        // delete's own words: a backup being verified is not deleted from under the check.
        expect(deleting.error.message).toMatch(/wait for it to finish/);
        expect(verified.ok).toBe(true);
        expect((verified as { value: BackupView }).value).toMatchObject({
          stage: 'ready',
          problem: null,
        });
        expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip$/)]);
      }
    },
  );
});

describe('schedules looked at twice at once', () => {
  it('start one backup for a due slot, however many looks overlap (a keychain slow to answer)', async () => {
    const emulator = await testEmulator({ records: 40 });
    let now = new Date(emulator.state.clock.now());
    const { engine, portalId } = await setup({
      emulator,
      engine: { backups: { now: () => now, autoStart: false } },
    });
    await backUp(engine, portalId, { keepCode: true });
    await call(engine, 'backups.setSchedule', {
      portalId,
      schedule: { frequency: 'daily', hour: 3, weekday: 0, keep: 7 },
    });
    // Two days on: the service's reuse has ended and the slot is due.
    now = new Date(now.getTime() + 2 * DAY);
    emulator.state.clock.advance(2 * DAY);
    await Promise.all([engine.backups.runSchedules(), engine.backups.runSchedules()]);
    await engine.backups.idle();
    const { backups, portals } = await overview(engine);
    const scheduled = backups.filter((b) => b.scheduled);
    expect(scheduled.map((b) => [b.stage, b.reused])).toEqual([['ready', false]]);
    const portal = portals.find((p) => p.portalId === portalId)!;
    // The slot ran: no word of a reuse, and the next run is the next day's slot.
    expect(portal.scheduleProblem).toBeNull();
    expect(new Date(portal.nextRun!).getTime()).toBeGreaterThan(now.getTime());
  });
});

describe('a backup killed between its rename and its row', () => {
  it('leaves no file behind once deleted, when no code was kept to finish it', async () => {
    const { engine, portalId, dataDir, start } = await setup({
      engine: { backups: { autoStart: false } },
    });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');
    // As a kill -9 leaves it: the file renamed, the row still verifying; the code was typed, not kept.
    engine.store.db
      .prepare("UPDATE backups SET stage = 'verifying', file = NULL, sha256 = NULL")
      .run();
    engine.close();
    const again = start();
    await again.backups.start();
    await again.backups.idle();
    const waiting = (await overview(again)).backups.find((b) => b.id === backup.id)!;
    expect(waiting.stage).toBe('needs_code');
    expect(filesUnder(dataDir)).toHaveLength(1);
    await call(again, 'backups.delete', { id: backup.id });
    expect(filesUnder(dataDir)).toEqual([]);
  });
});

describe('a download asked for twice while the keychain is slow', () => {
  it('leaves the backup the first request made ready, not waiting for a code again', async () => {
    const { engine, emulator, portalId, secrets } = await setup();
    // A backup on the service, listed here, not downloaded.
    await fetch(`${emulator.dcs.us!.api}/api/v3/portal/${portalId}/portal_export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${grantToken(emulator)}` },
      body: new URLSearchParams({ access_code: CODE }),
    });
    emulator.state.clock.advance(GENERATION_MS);
    const listed = await call<BackupsOverview>(engine, 'backups.refreshHistory', { portalId });
    const id = listed.backups[0]!.id;
    // The keychain answers (nothing kept) only when let go.
    let letGo!: () => void;
    const answered = new Promise<void>((resolve) => (letGo = resolve));
    const read = secrets.getPassword.bind(secrets);
    secrets.getPassword = async (service, account) => {
      await answered;
      return read(service, account);
    };
    // Download without a code (the keychain is asked), then with the code typed.
    const first = engine.dispatcher.dispatch('backups.download', { id }, internal);
    await call(engine, 'backups.download', { id, accessCode: CODE });
    await engine.backups.idle();
    expect((await overview(engine)).backups.find((b) => b.id === id)!.stage).toBe('ready');
    letGo();
    const outcome = await first;
    expect(outcome.ok ? 'downloaded again' : outcome.error.message).toMatch(
      /already downloaded and verified/,
    );
    await engine.backups.idle();
    const after = (await overview(engine)).backups.find((b) => b.id === id)!;
    expect(after).toMatchObject({ stage: 'ready', problem: null });
  });
});

describe('a ready backup whose file was moved away', () => {
  it('is refused in words by compare and browse, saying what to do', async () => {
    const { engine, portalId } = await setup();
    const backup = await backUp(engine, portalId);
    rmSync(backup.file!);
    for (const request of ['backups.compare', 'backups.browse']) {
      const message = await refusal(engine, request, { id: backup.id, accessCode: CODE });
      expect(message, request).not.toMatch(/unexpectedly/);
      expect(message, request).toMatch(/moved or deleted outside PortalDesk/);
    }
  });
});

describe('a backup killed between its rename and its row, found damaged at the next start', () => {
  it('is removed, as its words say', async () => {
    const { engine, portalId, dataDir, start } = await setup({
      engine: { backups: { autoStart: false } },
    });
    const backup = await backUp(engine, portalId, { keepCode: true });
    engine.store.db
      .prepare("UPDATE backups SET stage = 'verifying', file = NULL, sha256 = NULL")
      .run();
    engine.close();
    const bytes = readFileSync(backup.file!);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(backup.file!, bytes);
    const again = start();
    await again.backups.start();
    await again.backups.idle();
    const after = (await overview(again)).backups.find((b) => b.id === backup.id)!;
    expect(after.stage).toBe('failed');
    expect(after.problem).toMatch(/The damaged download was removed/);
    expect(filesUnder(dataDir)).toEqual([]);
  });
});

describe('a due schedule while the keychain cannot be read', () => {
  it('says the keychain could not be read, not that no code is kept, and runs once it can', async () => {
    const emulator = await testEmulator({ records: 40 });
    let now = new Date(emulator.state.clock.now());
    const { engine, portalId, secrets } = await setup({
      emulator,
      engine: { backups: { now: () => now, autoStart: false } },
    });
    await backUp(engine, portalId, { keepCode: true });
    await call(engine, 'backups.setSchedule', {
      portalId,
      schedule: { frequency: 'daily', hour: 3, weekday: 0, keep: 7 },
    });
    now = new Date(now.getTime() + 2 * DAY);
    emulator.state.clock.advance(2 * DAY);
    const read = secrets.getPassword.bind(secrets);
    secrets.getPassword = () => Promise.reject(new Error('the keychain is locked'));
    await engine.backups.runSchedules();
    await engine.backups.idle();
    const portal = (await overview(engine)).portals.find((p) => p.portalId === portalId)!;
    // Not "no code kept": one may be, it cannot be read now.
    expect(portal.accessCode).toBe('unreadable');
    expect(portal.scheduleProblem).toMatch(/the keychain is locked/);
    expect(portal.scheduleProblem).not.toMatch(/no access code is kept/);
    secrets.getPassword = read;
    await engine.backups.runSchedules();
    await engine.backups.idle();
    const { backups, portals } = await overview(engine);
    expect(backups.filter((b) => b.scheduled).map((b) => b.stage)).toEqual(['ready']);
    expect(portals.find((p) => p.portalId === portalId)!.scheduleProblem).toBeNull();
  });
});

describe('a request without a code while the keychain cannot be read', () => {
  it('says the keychain could not be read, not that no code is kept', async () => {
    const { engine, portalId, secrets } = await setup();
    const backup = await backUp(engine, portalId, { keepCode: true });
    secrets.getPassword = () => Promise.reject(new Error('the keychain is locked'));
    for (const request of ['backups.verify', 'backups.compare', 'backups.browse']) {
      const message = await refusal(engine, request, { id: backup.id });
      expect(message, request).toMatch(/keychain could not be read \(the keychain is locked\)/);
    }
  });
});

describe('a keychain that cannot be read when the engine starts', () => {
  it('says a code may be kept but cannot be read now, not that none is kept, and reads it again when asked', async () => {
    const { engine, portalId, secrets, start } = await setup({
      engine: { backups: { autoStart: false } },
    });
    await backUp(engine, portalId, { keepCode: true });
    await call(engine, 'backups.setSchedule', {
      portalId,
      schedule: { frequency: 'daily', hour: 3, weekday: 0, keep: 7 },
    });
    engine.close();
    const read = secrets.getPassword.bind(secrets);
    secrets.getPassword = () => Promise.reject(new Error('the keychain is locked'));
    const again = start();
    await again.backups.start();
    const portal = (await overview(again)).portals.find((p) => p.portalId === portalId)!;
    expect(portal).toMatchObject({
      accessCode: 'unreadable',
      keychainProblem: 'the keychain is locked',
    });
    expect(portal.scheduleProblem).toMatch(/keychain could not be read \(the keychain is locked\)/);
    expect(portal.scheduleProblem).not.toMatch(/back up once|no access code/i);

    // Unlocked: read again when asked, and the portal says the code is kept.
    secrets.getPassword = read;
    const reread = await call<BackupPortal>(again, 'backups.readKeychain', { portalId });
    expect(reread).toMatchObject({
      accessCode: 'kept',
      keychainProblem: null,
      scheduleProblem: null,
    });
  });

  it('leaves a download it goes on with waiting for the code in words that say so', async () => {
    const { engine, portalId, secrets, start } = await setup({
      engine: { backups: { autoStart: false } },
    });
    const backup = await backUp(engine, portalId, { keepCode: true });
    // As a kill -9 leaves it: the file renamed, the row still verifying.
    engine.store.db
      .prepare("UPDATE backups SET stage = 'verifying', file = NULL, sha256 = NULL")
      .run();
    engine.close();
    secrets.getPassword = () => Promise.reject(new Error('the keychain is locked'));
    const again = start();
    await again.backups.start();
    await again.backups.idle();
    const after = (await overview(again)).backups.find((b) => b.id === backup.id)!;
    expect(after.stage).toBe('needs_code');
    expect(after.problem).toMatch(/keychain could not be read \(the keychain is locked\)/);
    expect(after.problem).not.toMatch(/no access code is kept/);
  });
});

describe("a download that brings another backup's archive", () => {
  it('is not verified as this backup (an older archive replayed with the same code)', async () => {
    const emulator = await testEmulator({ records: 40 });
    let replay: string | null = null;
    let first: string | null = null;
    const { engine, portalId, dataDir } = await setup({
      emulator,
      engine: {
        backups: {
          // The first download's link is remembered; later ones are answered from it.
          fetch: (input, init) => {
            const url = String(input);
            first ??= url;
            return fetch(replay ?? url, init);
          },
        },
      },
    });
    const older = await backUp(engine, portalId);
    expect(older.stage).toBe('ready');
    emulator.state.clock.advance(2 * DAY);
    replay = first;
    const newer = await backUp(engine, portalId);
    expect(newer.exportId).not.toBe(older.exportId);
    expect(newer.stage).toBe('failed');
    expect(newer.problem).toMatch(new RegExp(`backup ${older.exportId}, not ${newer.exportId}`));
    expect(filesUnder(dataDir)).toEqual([expect.stringContaining(older.exportId!)]);
  });
});

describe('a portal first mirrored after the engine started', () => {
  it('says the code kept for it in the keychain, as soon as it is listed', async () => {
    const emulator = await testEmulator({ records: 40 });
    const portalId = emulator.portals[0]!;
    // Kept by an earlier install (or another data directory) before this engine knew the portal.
    const secrets = new MemorySecretStore();
    await secrets.setPassword(ACCESS_CODE_SERVICE, `portal:${portalId}`, CODE);
    let asked = 0;
    const read = secrets.getPassword.bind(secrets);
    secrets.getPassword = (service, account) => {
      if (service === ACCESS_CODE_SERVICE && account === `portal:${portalId}`) asked++;
      return read(service, account);
    };
    // The engine starts (and reads the keychain for the portals it knows: none), then syncs.
    const { engine } = await setup({ emulator, engine: { secrets } });
    const portal = (await overview(engine)).portals.find((p) => p.portalId === portalId)!;
    expect(portal).toMatchObject({ accessCode: 'kept', keychainProblem: null });
    // Asked once for it (when the sync listed it, and this look waited for that answer), not at
    // every look.
    await overview(engine);
    expect(asked).toBe(1);
  });
});
