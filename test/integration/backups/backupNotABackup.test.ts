/**
 * A download whose file is a zip bomb (an entry declaring far more than any backup's data deflates
 * to): refused by its verification and removed, with words that say what happened and what helps.
 * Downloading it again would fetch the same file from the service, so the words say to make a new
 * backup (and to contact the service's support if that one is refused too), not to download again.
 */
import { BlobWriter, TextReader, ZipWriter } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { MAX_INFLATE_RATIO } from '../../../src/main/backups/archiveLimits';
import { backUp, CODE, filesUnder, setup } from './backupSession';

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

describe('a downloaded zip bomb', () => {
  it('is removed, and the backup says to make a new one rather than download the same file', async () => {
    const bomb = await zipBomb();
    // Far past the ratio any backup's data deflates to: refused before it is inflated.
    expect((8 * 1024 * 1024) / bomb.length).toBeGreaterThan(MAX_INFLATE_RATIO);
    const { engine, portalId, dataDir } = await setup({
      engine: {
        backups: {
          // The service's link serves the bomb (a hostile or broken service).
          fetch: async () =>
            new Response(bomb, {
              status: 200,
              headers: { 'Content-Length': String(bomb.length), ETag: '"bomb"' },
            }),
        },
      },
    });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('failed');
    expect(backup.problem).toMatch(/^This file is not a backup PortalDesk can read: /);
    expect(backup.problem).not.toMatch(/download it again/i);
    expect(backup.problem).toMatch(/Downloading it again would fetch the same file/);
    expect(backup.problem).toMatch(/make a new backup/);
    expect(backup.problem).toMatch(/support/);
    expect(filesUnder(dataDir)).toEqual([]);
  });
});
