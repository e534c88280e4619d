/**
 * Backups acted on twice at once: a ready backup deleted while it is being verified again. The
 * file being read must not be taken from under the check, and a backup deleted here must not come
 * back as "failed" or "verified".
 */
import { describe, expect, it } from 'vitest';
import type { BackupView } from '../../../src/shared/ipc/areas/backups';
import { testEmulator } from '../../support/emulator';
import { backUp, call, CODE, filesUnder, overview, setup } from './backupSession';

const DAY = 86_400_000;

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;

describe('backups acted on at once', () => {
  it('refuses to delete a ready backup while it is verified again, and the check ends as it began', async () => {
    const { engine, portalId, dataDir } = await setup();
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');
    const verifying = engine.dispatcher.dispatch(
      'backups.verify',
      { id: backup.id, accessCode: CODE },
      internal,
    );
    const deleting = await engine.dispatcher.dispatch(
      'backups.delete',
      { id: backup.id },
      internal,
    );
    const verified = await verifying;
    // delete's own words: a backup being verified is not deleted from under the check.
    expect(deleting.ok ? 'deleted' : deleting.error.message).toMatch(/wait for it to finish/);
    expect(verified.ok).toBe(true);
    expect((verified as { value: BackupView }).value).toMatchObject({
      stage: 'ready',
      problem: null,
    });
    expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip$/)]);
  });
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
