/**
 * A download whose file opens with the code and checks out, but is another backup's archive: an
 * older export of the portal (a replayed link), or another portal's. It is removed, and nothing
 * here is replaced. The service's link for this backup gives that file, so downloading it again
 * would bring the same one: the backup carries its own kind of failure (`another_backup`, kept
 * across a restart), its words say what happened, that nothing was kept or replaced, and to make
 * a new backup (reporting it if that one comes wrong too), and no download of it is offered or
 * accepted. A ready backup found to be another's when verified again is refused the same way.
 */
import { TextReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_REUSE_MS } from '../../../src/main/backups/reuseNotice';
import type { BackupView } from '../../../src/shared/ipc/areas/backups';
import { testEmulator } from '../../support/emulator';
import { backUp, call, CODE, filesUnder, overview, refusal, setup, sha256 } from './backupSession';

const DAY = 86_400_000;

/** What a failed backup of this kind must say, and must not. */
function expectAnotherBackupWords(backup: BackupView) {
  expect(backup.problem).toMatch(/nothing was replaced/);
  expect(backup.problem).toMatch(/Downloading it again would fetch the same file/);
  expect(backup.problem).toMatch(/make a new backup/);
  expect(backup.problem).toMatch(/report it to the service's support/);
  expect(backup.problem).not.toMatch(/download it again|try again/i);
}

/** An archive of the emulator's layout, encrypted with the code, saying which backup it is. */
async function archiveNaming(exportId: string, portalId: string): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), {
    password: CODE,
    encryptionStrength: 3,
    useWebWorkers: false,
  });
  await writer.add(
    'portal.json',
    new TextReader(
      JSON.stringify({
        export: { id: exportId, generated_time: '2026-11-26T00:00:00.000Z' },
        portal_details: { id: Number(portalId) },
      }),
    ),
  );
  for (const name of ['users.json', 'modules.json', 'comments.json', 'entities.json']) {
    await writer.add(name, new TextReader('[]'));
  }
  return writer.close();
}

describe("a download that brings another backup's archive", () => {
  it('fails as its own kind: removed, nothing replaced, a new backup offered, never a download of the same file', async () => {
    const emulator = await testEmulator({ records: 40 });
    let replay: string | null = null;
    let first: string | null = null;
    let fetched = 0;
    const { engine, portalId, dataDir, start } = await setup({
      emulator,
      engine: {
        backups: {
          // The first download's link is remembered; later ones are answered from it.
          fetch: (input, init) => {
            fetched++;
            const url = String(input);
            first ??= url;
            return fetch(replay ?? url, init);
          },
        },
      },
    });
    const older = await backUp(engine, portalId);
    expect(older.stage).toBe('ready');
    const olderBytes = readFileSync(older.file!);
    emulator.state.clock.advance(2 * DAY);
    replay = first;

    const newer = await backUp(engine, portalId);
    expect(newer.exportId).not.toBe(older.exportId);
    expect(newer).toMatchObject({ stage: 'failed', failure: 'another_backup' });
    expect(newer.problem).toMatch(
      new RegExp(`^The downloaded archive is backup ${older.exportId}, not ${newer.exportId}`),
    );
    expectAnotherBackupWords(newer);
    // The service returns this backup for 24 hours: a new one after that.
    expect(newer.newBackupFrom).toBe(
      new Date(new Date(newer.completedTime!).getTime() + BACKUP_REUSE_MS).toISOString(),
    );
    // Nothing replaced: the older backup is as it was, and the wrong file is gone.
    const olderAfter = (await overview(engine)).backups.find((b) => b.id === older.id)!;
    expect(olderAfter).toMatchObject({ stage: 'ready', sha256: older.sha256, problem: null });
    expect(readFileSync(older.file!).equals(olderBytes)).toBe(true);
    expect(filesUnder(dataDir)).toEqual([
      path.relative(path.join(dataDir, 'backups'), older.file!),
    ]);

    // No download of the same file: refused in the row's words, nothing fetched.
    const before = fetched;
    expect(await refusal(engine, 'backups.download', { id: newer.id, accessCode: CODE })).toBe(
      newer.problem,
    );
    expect(fetched).toBe(before);

    // Within the 24 hours, a new request gets this backup back: not downloaded again.
    const again = await backUp(engine, portalId);
    expect(again.id).toBe(newer.id);
    expect(fetched).toBe(before);
    expect(again).toMatchObject({ stage: 'failed', failure: 'another_backup', reused: true });
    expect(again.problem).toMatch(
      /download gave another backup's file\. It was not downloaded again/,
    );

    engine.close();
    const restarted = start();
    await restarted.backups.start();
    const kept = (await overview(restarted)).backups.find((b) => b.id === newer.id)!;
    expect(kept).toMatchObject({ stage: 'failed', failure: 'another_backup' });
  });

  it("is another portal's archive, even under the export id asked for", async () => {
    const emulator = await testEmulator({ records: 40 });
    let served: Uint8Array | null = null;
    const { engine, portalId, dataDir } = await setup({
      emulator,
      engine: {
        backups: {
          fetch: async () => {
            // Named as the backup asked for, but of another portal.
            const row = engine.store.db
              .prepare('SELECT export_id FROM backups ORDER BY id DESC LIMIT 1')
              .get() as { export_id: string };
            served = await archiveNaming(row.export_id, String(Number(portalId) + 1));
            return new Response(served, {
              status: 200,
              headers: { 'Content-Length': String(served.length), ETag: '"other"' },
            });
          },
        },
      },
    });
    const backup = await backUp(engine, portalId);
    expect(served).not.toBeNull();
    expect(backup).toMatchObject({ stage: 'failed', failure: 'another_backup' });
    expect(backup.problem).toMatch(
      new RegExp(`^The downloaded archive is a backup of portal \\d+, not of portal ${portalId}`),
    );
    expectAnotherBackupWords(backup);
    expect(filesUnder(dataDir)).toEqual([]);
  });
});

describe('a ready backup found to be another backup when verified again', () => {
  it('is no longer offered as this backup, keeps its file, and is not downloaded again', async () => {
    const { engine, portalId, dataDir } = await setup();
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');
    const digest = sha256(backup.file!);
    // As a backup verified before the check for another backup's file existed leaves it.
    engine.store.db
      .prepare('UPDATE backups SET export_id = ? WHERE id = ?')
      .run(`${backup.exportId}0`, Number(backup.id));

    const refused = await refusal(engine, 'backups.verify', { id: backup.id, accessCode: CODE });
    expect(refused).toMatch(
      new RegExp(`^The downloaded archive is backup ${backup.exportId}, not ${backup.exportId}0`),
    );
    const after = (await overview(engine)).backups.find((b) => b.id === backup.id)!;
    expect(after).toMatchObject({ stage: 'failed', failure: 'another_backup', verification: null });
    expect(after.problem).toMatch(/It is no longer offered as this backup/);
    expect(after.problem).toMatch(/file stays until you Delete it/);
    expect(after.problem).toMatch(/make a new backup/);
    expect(after.problem).not.toMatch(/try again|download it again/i);
    // The file is left as it was, for the user to delete.
    expect(filesUnder(dataDir)).toHaveLength(1);
    expect(sha256(path.join(dataDir, 'backups', filesUnder(dataDir)[0]!))).toBe(digest);
    expect(await refusal(engine, 'backups.download', { id: backup.id, accessCode: CODE })).toBe(
      after.problem,
    );
    await call(engine, 'backups.delete', { id: backup.id });
    expect(filesUnder(dataDir)).toEqual([]);
  });
});
