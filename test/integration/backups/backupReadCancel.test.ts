/**
 * Comparing a backup with the mirror, or opening it for browsing, cancelled while it reads: it
 * stops within the chunk it is reading (not at the end of the entry, nor of a batch), answers that
 * it was cancelled (not a failure), leaves nothing behind, and can be started again. Cancelled
 * while the keychain is asked for the backup's code (a prompt to unlock it may wait for minutes),
 * it stops at once, and what the keychain answers later opens nothing. The archive's
 * records are counted as the readers take them (the layout's own reader, wrapped).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalArchiveFormat } from '../../../src/main/backups/portalArchiveFormat';
import type { ArchiveDiff, BackupSnapshot } from '../../../src/shared/ipc/areas/backups';
import { backUp, call, CODE, setup } from './backupSession';

/** Whether `promise` settles within `ms` (real time): a wait that ended, or one still held. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

afterEach(() => vi.restoreAllMocks());

/** Counts the records the archive's readers take; `onRecord` sees each count as it grows. */
function countRecords(onRecord: (taken: number) => void) {
  const counted = { taken: 0 };
  const records = portalArchiveFormat.records!.bind(portalArchiveFormat);
  vi.spyOn(portalArchiveFormat, 'records').mockImplementation(() => {
    const reader = records();
    return {
      add(entry, element) {
        const read = reader.add(entry, element);
        if (read) onRecord(++counted.taken);
        return read;
      },
    };
  });
  return counted;
}

const snapshotFiles = (dataDir: string) => {
  const folder = path.join(dataDir, 'snapshots');
  return existsSync(folder) ? readdirSync(folder) : [];
};

describe('reading a backup, cancelled', () => {
  it('stops a comparison within its chunk, says it was cancelled, and compares again after', async () => {
    const { engine, portalId } = await setup({ records: 2000 });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');
    const total = backup.verification!.records!;
    expect(total).toBeGreaterThan(1000);

    let cancelledAt: number | null = null;
    let cancelling: Promise<unknown> | null = null;
    const counted = countRecords((taken) => {
      if (taken !== 50) return;
      cancelledAt = taken;
      cancelling = call(engine, 'backups.cancelCompare', { id: backup.id });
    });
    const answer = await call<ArchiveDiff | { cancelled: string }>(engine, 'backups.compare', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(cancelledAt).toBe(50);
    expect(await cancelling).toEqual({ cancelled: true });
    expect(answer).toEqual({ cancelled: expect.stringMatching(/^Comparison cancelled\./) });
    // Within the chunk being read (a few hundred records), not on to the entry's end.
    expect(counted.taken - 50).toBeLessThan(total / 3);

    // Nothing runs now: cancelling again stops nothing; comparing again runs to the end.
    expect(await call(engine, 'backups.cancelCompare', { id: backup.id })).toEqual({
      cancelled: false,
    });
    vi.restoreAllMocks();
    const diff = await call<ArchiveDiff>(engine, 'backups.compare', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(diff.modules.reduce((sum, module) => sum + module.archived, 0)).toBeGreaterThan(1000);
  });

  it('stops opening a backup for browsing within its chunk, keeps nothing, and opens it after', async () => {
    const { engine, portalId, dataDir } = await setup({ records: 2000 });
    const backup = await backUp(engine, portalId);
    const total = backup.verification!.records!;
    let cancelledAt: number | null = null;
    const counted = countRecords((taken) => {
      if (taken !== 50) return;
      cancelledAt = taken;
      void call(engine, 'backups.closeBrowse', { id: backup.id });
    });
    const answer = await call<BackupSnapshot | { cancelled: string }>(engine, 'backups.browse', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(cancelledAt).toBe(50);
    expect(answer).toEqual({ cancelled: expect.stringMatching(/^Browsing cancelled\./) });
    // Within the chunk being read, not on to the next batch of records stored.
    expect(counted.taken - 50).toBeLessThan(total / 3);
    expect(snapshotFiles(dataDir)).toEqual([]);

    vi.restoreAllMocks();
    const opened = await call<BackupSnapshot>(engine, 'backups.browse', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(opened).toMatchObject({ backupId: backup.id });
    expect(snapshotFiles(dataDir)).toEqual([`backup-${backup.id}.sqlite`]);
  });
});

describe('reading a backup, cancelled while the keychain is asked for its code', () => {
  /** The keychain answers only when let go (a locked keychain waiting for its password). */
  function holdKeychain(secrets: {
    getPassword(service: string, account: string): Promise<string | null>;
  }) {
    let letGo!: () => void;
    const answered = new Promise<void>((resolve) => (letGo = resolve));
    const asked = { times: 0 };
    const read = secrets.getPassword.bind(secrets);
    secrets.getPassword = async (service, account) => {
      asked.times++;
      await answered;
      return read(service, account);
    };
    return { asked, letGo };
  }

  it('stops opening for browsing at once, reads nothing of the archive, and keeps nothing', async () => {
    const { engine, portalId, dataDir, secrets } = await setup();
    const backup = await backUp(engine, portalId, { keepCode: true });
    const counted = countRecords(() => undefined);
    const keychain = holdKeychain(secrets);
    const browsing = call<BackupSnapshot | { cancelled: string }>(engine, 'backups.browse', {
      id: backup.id,
    });
    await vi.waitFor(() => expect(keychain.asked.times).toBe(1));

    await call(engine, 'backups.closeBrowse', { id: backup.id });
    // Answered without the keychain's answer: the Cancel does not wait for it.
    expect(await settlesWithin(browsing, 2_000)).toBe(true);
    expect(await browsing).toEqual({ cancelled: expect.stringMatching(/^Browsing cancelled\./) });

    // The keychain's late answer opens nothing.
    keychain.letGo();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(counted.taken).toBe(0);
    expect(snapshotFiles(dataDir)).toEqual([]);
    expect(engine.backups.snapshots.reading(backup.id)).toBeUndefined();

    // Browsed again, it opens (the kept code, read now).
    const opened = await call<BackupSnapshot>(engine, 'backups.browse', { id: backup.id });
    expect(opened).toMatchObject({ backupId: backup.id });
  });

  it('leaves the backup being browsed open when the keychain refuses the next one its code', async () => {
    const { engine, emulator, portalId, secrets } = await setup();
    const first = await backUp(engine, portalId, { keepCode: true });
    // Past the service's 24-hour reuse: a second, new backup.
    emulator.state.clock.advance(25 * 3_600_000);
    const second = await backUp(engine, portalId);
    expect(second.id).not.toBe(first.id);
    await call(engine, 'backups.browse', { id: first.id });
    secrets.getPassword = () => Promise.reject(new Error('the keychain is locked'));
    await expect(call(engine, 'backups.browse', { id: second.id })).rejects.toThrow(
      /keychain could not be read \(the keychain is locked\)/,
    );
    expect(engine.backups.snapshots.reading(first.id)).toBeDefined();
  });

  it('stops a comparison at once too', async () => {
    const { engine, portalId, secrets } = await setup();
    const backup = await backUp(engine, portalId, { keepCode: true });
    const counted = countRecords(() => undefined);
    const keychain = holdKeychain(secrets);
    const comparing = call<ArchiveDiff | { cancelled: string }>(engine, 'backups.compare', {
      id: backup.id,
    });
    await vi.waitFor(() => expect(keychain.asked.times).toBe(1));

    const cancelling = call(engine, 'backups.cancelCompare', { id: backup.id });
    expect(await settlesWithin(cancelling, 2_000)).toBe(true);
    expect(await cancelling).toEqual({ cancelled: true });
    expect(await comparing).toEqual({
      cancelled: expect.stringMatching(/^Comparison cancelled\./),
    });
    keychain.letGo();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(counted.taken).toBe(0);
  });
});
