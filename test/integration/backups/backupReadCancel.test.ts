/**
 * Comparing a backup with the mirror, or opening it for browsing, cancelled while it reads: it
 * stops within the chunk it is reading (not at the end of the entry, nor of a batch), answers that
 * it was cancelled (not a failure), leaves nothing behind, and can be started again. The archive's
 * records are counted as the readers take them (the layout's own reader, wrapped).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalArchiveFormat } from '../../../src/main/backups/portalArchiveFormat';
import type { ArchiveDiff, BackupSnapshot } from '../../../src/shared/ipc/areas/backups';
import { backUp, call, CODE, setup } from './backupSession';

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
