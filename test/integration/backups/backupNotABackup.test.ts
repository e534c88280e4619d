/**
 * A download whose file is not a backup PortalDesk can read (a zip bomb, a file that is no ZIP
 * archive): refused by its verification and removed, with words that say what happened and what
 * helps. Downloading it again would fetch the same file from the service, so the words say to make
 * a new backup (and to contact the service's support if that one is refused too), not to download
 * again, and the backup carries that kind of failure as data (`failure: 'not_a_backup'`, kept
 * across a restart) so the view offers the actions that fit it instead of "Try again". A download
 * damaged on its way, by contrast, is one to try again; a link the service no longer serves is gone.
 */
import { BlobWriter, TextReader, ZipWriter } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { MAX_INFLATE_RATIO } from '../../../src/main/backups/archiveLimits';
import { BACKUP_REUSE_MS } from '../../../src/main/backups/reuseNotice';
import { backUp, CODE, filesUnder, overview, refusal, setup } from './backupSession';

/** The emulator's entries, encrypted with the code, with entities.json a run of one byte. */
async function zipBomb(): Promise<Uint8Array> {
  const writer = new ZipWriter(new BlobWriter(), {
    password: CODE,
    encryptionStrength: 3,
    useWebWorkers: false,
    dataDescriptor: false,
  });
  await writer.add('portal.json', new TextReader('{"export":{}}'));
  await writer.add('modules.json', new TextReader('[]'));
  await writer.add('comments.json', new TextReader('[]'));
  await writer.add('entities.json', new TextReader(' '.repeat(8 * 1024 * 1024)));
  return new Uint8Array(await (await writer.close()).arrayBuffer());
}

/** A link that answers with `body` as the whole file, counting how often it was fetched. */
function serving(body: () => Promise<Uint8Array>) {
  const served = { times: 0 };
  const fetch = async () => {
    served.times++;
    const bytes = await body();
    return new Response(bytes, {
      status: 200,
      headers: { 'Content-Length': String(bytes.length), ETag: '"served"' },
    });
  };
  return { served, fetch };
}

describe('a downloaded file that is not a backup', () => {
  it('is removed, says to make a new backup rather than download the same file, and keeps that kind across a restart', async () => {
    const bomb = await zipBomb();
    // Far past the ratio any backup's data deflates to: refused before it is inflated.
    expect((8 * 1024 * 1024) / bomb.length).toBeGreaterThan(MAX_INFLATE_RATIO);
    // The service's link serves the bomb (a hostile or broken service).
    const { fetch } = serving(async () => bomb);
    const { engine, portalId, dataDir, start } = await setup({
      engine: { backups: { fetch } },
    });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('failed');
    expect(backup.problem).toMatch(/^This file is not a backup PortalDesk can read: /);
    expect(backup.problem).not.toMatch(/download it again/i);
    expect(backup.problem).toMatch(/Downloading it again would fetch the same file/);
    expect(backup.problem).toMatch(/make a new backup/);
    expect(backup.problem).toMatch(/support/);
    expect(filesUnder(dataDir)).toEqual([]);
    // As data: the view offers no download of it, and a new backup once the service makes one.
    expect(backup.failure).toBe('not_a_backup');
    expect(backup.newBackupFrom).toBe(
      new Date(new Date(backup.completedTime!).getTime() + BACKUP_REUSE_MS).toISOString(),
    );

    engine.close();
    const again = start();
    await again.backups.start();
    const after = (await overview(again)).backups.find((b) => b.id === backup.id)!;
    expect(after).toMatchObject({ stage: 'failed', failure: 'not_a_backup' });
  });

  it('is a file that is no ZIP archive at all (a page served in its place)', async () => {
    const page = new TextEncoder().encode('<html><body>Service unavailable</body></html>');
    const { fetch } = serving(async () => page);
    const { engine, portalId, dataDir } = await setup({ engine: { backups: { fetch } } });
    const backup = await backUp(engine, portalId);
    expect(backup).toMatchObject({ stage: 'failed', failure: 'not_a_backup' });
    expect(backup.problem).toMatch(/^This file is not a backup PortalDesk can read: /);
    expect(backup.problem).not.toMatch(/download it again/i);
    expect(filesUnder(dataDir)).toEqual([]);
  });

  it('is not downloaded again when a new request within 24 hours gets it back from the service', async () => {
    const bomb = await zipBomb();
    const { served, fetch } = serving(async () => bomb);
    const { engine, portalId, dataDir } = await setup({ engine: { backups: { fetch } } });
    const first = await backUp(engine, portalId);
    expect(first).toMatchObject({ stage: 'failed', failure: 'not_a_backup' });
    expect(served.times).toBe(1);

    // The service's 24-hour reuse answers with the same backup: fetching it would bring the same.
    const second = await backUp(engine, portalId);
    expect(second.id).toBe(first.id);
    expect(served.times).toBe(1);
    expect(second).toMatchObject({ stage: 'failed', failure: 'not_a_backup', reused: true });
    expect(second.problem).toMatch(/returned this backup again/);
    expect(second.problem).toMatch(/It was not downloaded again/);
    expect((await overview(engine)).backups.filter((b) => b.portalId === portalId)).toHaveLength(1);
    expect(filesUnder(dataDir)).toEqual([]);
  });
});

describe('a download asked for a backup whose file is not a backup', () => {
  it('is refused by the engine in the words the row shows, nothing fetched and the row unchanged', async () => {
    const bomb = await zipBomb();
    const { served, fetch } = serving(async () => bomb);
    const { engine, portalId, dataDir } = await setup({ engine: { backups: { fetch } } });
    const backup = await backUp(engine, portalId);
    expect(backup).toMatchObject({ stage: 'failed', failure: 'not_a_backup' });
    expect(served.times).toBe(1);

    // The view offers no download of it; a caller of the contract (a script, another window)
    // asking anyway meets the row's own words, with a code given or without one.
    for (const args of [{ id: backup.id, accessCode: CODE }, { id: backup.id }]) {
      expect(await refusal(engine, 'backups.download', args)).toBe(backup.problem);
    }
    expect(served.times).toBe(1);
    const after = (await overview(engine)).backups.find((b) => b.id === backup.id)!;
    expect(after).toMatchObject({
      stage: 'failed',
      failure: 'not_a_backup',
      problem: backup.problem,
    });
    expect(filesUnder(dataDir)).toEqual([]);
  });
});

describe('failures of another kind', () => {
  it('a download damaged on its way is one to try again', async () => {
    // The service's own archive with one byte of its data changed on the way.
    const fetch = async (url: string | URL | Request) => {
      const real = await globalThis.fetch(url);
      const bytes = new Uint8Array(await real.arrayBuffer());
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      return new Response(bytes, {
        status: 200,
        headers: { 'Content-Length': String(bytes.length), ETag: '"changed"' },
      });
    };
    const { engine, portalId } = await setup({ engine: { backups: { fetch } } });
    const backup = await backUp(engine, portalId);
    expect(backup).toMatchObject({ stage: 'failed', failure: 'retry', newBackupFrom: null });
    expect(backup.problem).toMatch(/download it again/);
  });

  it('a link the service no longer serves is gone: a new backup, not another try', async () => {
    const fetch = async () => new Response('gone', { status: 410 });
    const { engine, portalId } = await setup({ engine: { backups: { fetch } } });
    const backup = await backUp(engine, portalId);
    expect(backup).toMatchObject({ stage: 'failed', failure: 'gone' });
    expect(backup.problem).toMatch(/make a new backup/);
  });

  it("a download asked for a backup that is gone is refused by the engine in its row's words", async () => {
    let served = 0;
    const fetch = async () => {
      served++;
      return new Response('gone', { status: 410 });
    };
    const { engine, portalId, dataDir } = await setup({ engine: { backups: { fetch } } });
    const backup = await backUp(engine, portalId);
    expect(backup).toMatchObject({ stage: 'failed', failure: 'gone' });
    const fetched = served;
    // The view offers only "Back up again"; a caller of the contract asking anyway meets the
    // row's own words (the service no longer offers it: make a new backup), nothing fetched.
    for (const args of [{ id: backup.id, accessCode: CODE }, { id: backup.id }]) {
      expect(await refusal(engine, 'backups.download', args)).toBe(backup.problem);
    }
    expect(served).toBe(fetched);
    const after = (await overview(engine)).backups.find((b) => b.id === backup.id)!;
    expect(after).toMatchObject({ stage: 'failed', failure: 'gone', problem: backup.problem });
    expect(filesUnder(dataDir)).toEqual([]);
  });
});
