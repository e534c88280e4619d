/**
 * The Backups view's numbers: a download is never said to be at 100 % before its last byte, and a
 * size is never written as 1024 of a unit when it is one of the next.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  nextStep,
  percentOf,
  stageTone,
} from '../../../../src/renderer/src/features/backups/backupFormat';
import {
  BackupFailure,
  BackupStage,
  type BackupView,
} from '../../../../src/shared/ipc/areas/backups';

const transfer = (bytes: number, totalBytes: number) =>
  ({ bytes, totalBytes }) as unknown as BackupView;

describe('backup numbers', () => {
  it('says 100 % only once every byte is there', () => {
    expect(percentOf(transfer(995, 1000))).toBe(99);
    expect(percentOf(transfer(1000, 1000))).toBe(100);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (total, f) => {
          const bytes = Math.min(total, Math.floor(total * f));
          const percent = percentOf(transfer(bytes, total))!;
          expect(percent === 100).toBe(bytes === total);
          expect(percent).toBeLessThanOrEqual((bytes / total) * 100);
        },
      ),
    );
  });

  it('writes sizes under 1024 of their unit', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MB');
    expect(formatBytes(10 * 1024 - 1)).toBe('10 KB');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (bytes) => {
        const [number, unit] = formatBytes(bytes).split(' ');
        if (unit !== 'TB') expect(Number(number)).toBeLessThan(1024);
      }),
    );
  });
});

describe("a stage label's tone", () => {
  it('reads a code the user stopped verifying with as plain, a code missing otherwise as a problem', () => {
    expect(stageTone({ stage: 'needs_code', note: null })).toBe('danger');
    expect(
      stageTone({
        stage: 'needs_code',
        note: 'Verification cancelled. The download is kept, not verified yet.',
      }),
    ).toBe('plain');
    expect(stageTone({ stage: 'failed', note: null })).toBe('danger');
    expect(stageTone({ stage: 'ready', note: 'Verification cancelled.' })).toBe('ok');
    expect(stageTone({ stage: 'paused', note: 'Download paused.' })).toBe('plain');
    expect(stageTone({ stage: 'on_service', note: null })).toBe('muted');
  });
});

describe('what a backup not here can be asked for next', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');
  const backups = fc.record({
    stage: fc.constantFrom(...BackupStage.options),
    exportId: fc.option(fc.constant('680'), { nil: null }),
    failure: fc.option(fc.constantFrom(...BackupFailure.options), { nil: null }),
    newBackupFrom: fc.option(
      fc
        .integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 })
        .map((ms) => new Date(now.getTime() + ms).toISOString()),
      { nil: null },
    ),
  });

  it('never offers a download of what would fetch the same file, nor a new backup the service would not make', () => {
    fc.assert(
      fc.property(backups, (backup) => {
        const next = nextStep(backup, now);
        const unfetchable =
          backup.stage === 'failed' &&
          (backup.failure === 'not_a_backup' ||
            backup.failure === 'another_backup' ||
            backup.failure === 'gone');
        if (next?.kind === 'download') {
          expect(unfetchable).toBe(false);
          expect(backup.exportId).not.toBeNull();
        }
        if (unfetchable) expect(next?.kind).not.toBe('download');
        if (
          next?.kind === 'backUpAgain' &&
          (backup.failure === 'not_a_backup' || backup.failure === 'another_backup')
        )
          expect(backup.newBackupFrom === null || backup.newBackupFrom <= now.toISOString()).toBe(
            true,
          );
        if (next?.kind === 'backUpAfter') expect(next.at > now.toISOString()).toBe(true);
        // Failed on the way (or before its kind was kept): tried again, as before.
        if (backup.stage === 'failed' && !unfetchable && backup.exportId !== null)
          expect(next).toEqual({ kind: 'download', label: 'Try again' });
      }),
    );
  });
});
