/**
 * A verification cancelled while it runs: it stops at the next chunk, the file is kept as it was,
 * the backup says it was cancelled and what to do, and a second verification can start. Cancelled
 * from the progress it pushes (so always mid-way): a ready backup checked again, and a download's
 * first verification.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/engine';
import type { BackupView } from '../../../src/shared/ipc/areas/backups';
import { backUp, call, CODE, filesUnder, overview, setup, sha256 } from './backupSession';

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;

/**
 * Cancels `id`'s verification at its first progress short of the end, and records the bytes
 * each later progress reported.
 */
function cancelMidway(engine: Engine, id: () => string | null) {
  const seen = { cancelledAt: null as number | null, total: 0, after: [] as number[] };
  let cancelling: Promise<BackupView> | null = null;
  engine.events.subscribe((name, payload) => {
    if (name !== 'backups.changed') return;
    const backup = (payload as { backup: BackupView | null }).backup;
    if (!backup || backup.id !== id() || !backup.verifying) return;
    const { bytes, totalBytes } = backup.verifying;
    if (seen.cancelledAt !== null) {
      seen.after.push(bytes);
      return;
    }
    if (bytes > 0 && bytes < totalBytes) {
      seen.cancelledAt = bytes;
      seen.total = totalBytes;
      cancelling = engine.backups.cancelVerify(backup.id);
    }
  });
  return { seen, cancelled: () => cancelling };
}

describe('a verification cancelled while it runs', () => {
  it("keeps a ready backup's file and its earlier verification, and can be started again", async () => {
    const { engine, portalId, dataDir } = await setup({ records: 2000 });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');
    const { seen, cancelled } = cancelMidway(engine, () => backup.id);

    const verified = await call<BackupView>(engine, 'backups.verify', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(seen.cancelledAt).not.toBeNull();
    await expect(cancelled()).resolves.toMatchObject({ id: backup.id, verifying: null });
    // Stopped at the next chunk: it never read on to the end.
    expect(Math.max(0, ...seen.after)).toBeLessThan(seen.total);
    expect(verified).toMatchObject({
      stage: 'ready',
      verifying: null,
      verification: backup.verification,
      file: backup.file,
      sha256: backup.sha256,
    });
    // What the user asked for is a note, not a problem.
    expect(verified.problem).toBeNull();
    expect(verified.note).toMatch(/^Verification cancelled\. The file is kept unchanged/);
    expect(sha256(backup.file!)).toBe(backup.sha256);
    expect(filesUnder(dataDir)).toHaveLength(1);

    // Nothing runs now: cancelling again changes nothing; verifying again runs to the end.
    const outcome = await engine.dispatcher.dispatch(
      'backups.cancelVerify',
      { id: backup.id },
      internal,
    );
    expect(outcome).toMatchObject({ ok: true, value: { stage: 'ready', verifying: null } });
    seen.cancelledAt = -1; // the listener only records from here on
    const again = await call<BackupView>(engine, 'backups.verify', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(again).toMatchObject({ problem: null, note: null });
    expect(again.verification!.verifiedAt > backup.verification!.verifiedAt).toBe(true);
  });

  it('keeps a download whose first verification was cancelled, waiting to be verified', async () => {
    const { engine, portalId, dataDir } = await setup({ records: 2000 });
    let id: string | null = null;
    engine.events.subscribe((name, payload) => {
      const backup = (payload as { backup: BackupView | null }).backup;
      if (name === 'backups.changed' && backup?.stage === 'verifying') id ??= backup.id;
    });
    const { seen } = cancelMidway(engine, () => id);
    const backup = await backUp(engine, portalId);
    expect(seen.cancelledAt).not.toBeNull();
    seen.cancelledAt = -1; // that listener cancels no more
    expect(backup).toMatchObject({ id, stage: 'needs_code', verifying: null, verification: null });
    expect(backup.problem).toBeNull();
    expect(backup.note).toMatch(/^Verification cancelled\. The download is kept/);
    expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip\.part$/)]);

    // Verified by hand and cancelled again: the same, said by the cancel's own answer too.
    const second = cancelMidway(engine, () => backup.id);
    const waiting = await call<BackupView>(engine, 'backups.verify', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(second.seen.cancelledAt).not.toBeNull();
    for (const view of [waiting, await second.cancelled()]) {
      expect(view).toMatchObject({ stage: 'needs_code', verifying: null, verification: null });
      expect(view!.problem).toBeNull();
      expect(view!.note).toMatch(/^Verification cancelled\. The download is kept/);
    }
    second.seen.cancelledAt = -1;

    const verified = await call<BackupView>(engine, 'backups.verify', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(verified).toMatchObject({ stage: 'ready', problem: null, note: null });
    expect((await overview(engine)).backups.find((b) => b.id === backup.id)?.stage).toBe('ready');
    expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip$/)]);
  });
});
