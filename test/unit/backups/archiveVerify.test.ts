/**
 * verifyArchive on small archives made here with zip.js (AES-256, deflated): text whose UTF-8
 * characters and JSON elements straddle every boundary the verification cuts the inflated bytes
 * at (zlib's output chunks, zip.js's 256 KiB chunks, the 32 KiB pieces decoded at a time), and
 * damaged archives, refused in the same words as before those boundaries existed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BlobWriter, TextReader, Uint8ArrayReader, ZipWriter } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import {
  anotherBackupProblem,
  DamagedArchiveError,
  NotABackupError,
  verifyArchive,
  WrongAccessCodeError,
} from '../../../src/main/backups/archiveVerify';
import { tempDir } from '../../support/tempDir';

const CODE = 'archive verify test code';

async function archive(entries: [string, string | Uint8Array][], level?: number) {
  const writer = new ZipWriter(new BlobWriter(), {
    password: CODE,
    encryptionStrength: 3,
    useWebWorkers: false,
    dataDescriptor: false,
    ...(level === undefined ? {} : { level }),
  });
  for (const [name, data] of entries) {
    await writer.add(
      name,
      typeof data === 'string' ? new TextReader(data) : new Uint8ArrayReader(data),
    );
  }
  const bytes = new Uint8Array(await (await writer.close()).arrayBuffer());
  const file = path.join(tempDir(), 'backup.zip');
  writeFileSync(file, bytes);
  return { file, bytes };
}

/** Records whose text mixes 1-, 2-, 3- and 4-byte characters, so some straddle every cut. */
function records(count: number): string {
  const names = ['plain', 'Über', 'München — prüfen', '😀 emoji', '日本語', 'a\\"quoted\\"'];
  const items = Array.from({ length: count }, (_, i) => ({
    id: String(1_000_000 + i),
    module: i % 3 === 0 ? 'assets' : 'tickets',
    name: `${names[i % names.length]} ${'x'.repeat(i % 37)}`,
    tags: [i, i * 0.5, i % 2 === 0, null],
    trashed_time: i % 10 === 0 ? '2026-01-01T00:00:00Z' : null,
  }));
  return `[${items.map((item) => JSON.stringify(item)).join(',\n')}]`;
}

const LAYOUT: [string, string][] = [
  ['portal.json', '{"export":{"generated_time":"2026-11-26T00:00:00Z"}}'],
  ['modules.json', '[{"api_name":"assets","plural_name":"Assets"},{"api_name":"tickets"}]'],
  ['comments.json', '[{"id":"1"},{"id":"2"}]'],
];

describe('verifying an archive', () => {
  it('counts every element of entries far larger than the chunks they are read in', async () => {
    const entities = records(12_000); // ~1.2 MB: several 256 KiB chunks, dozens of 32 KiB pieces
    const { file } = await archive([...LAYOUT, ['entities.json', entities]]);
    const check = await verifyArchive(file, CODE);
    const parsed = JSON.parse(entities) as { module: string; trashed_time: string | null }[];
    expect(check.entries.find((entry) => entry.name === 'entities.json')).toEqual({
      name: 'entities.json',
      bytes: Buffer.byteLength(entities),
      items: parsed.length,
    });
    expect(check.counts).toMatchObject({
      records: parsed.length,
      comments: 2,
      modules: 2,
      recordsByModule: {
        assets: parsed.filter((r) => r.module === 'assets' && !r.trashed_time).length,
        tickets: parsed.filter((r) => r.module === 'tickets' && !r.trashed_time).length,
      },
      generatedAt: '2026-11-26T00:00:00Z',
    });
  });

  it('reads a stored (not deflated) entry the same way', async () => {
    const text = records(3_000);
    const { file } = await archive([['a.json', text]], 0);
    const check = await verifyArchive(file, CODE);
    expect(check.entries).toEqual([
      { name: 'a.json', bytes: Buffer.byteLength(text), items: 3_000 },
    ]);
  });

  it('refuses invalid UTF-8 wherever it falls, a piece boundary included', async () => {
    for (const at of [0, 32_767, 32_768, 262_144, 300_001]) {
      const bytes = new TextEncoder().encode(records(4_000));
      bytes[at] = 0xff;
      const { file } = await archive([['a.json', bytes]]);
      await expect(verifyArchive(file, CODE)).rejects.toThrow(
        new DamagedArchiveError("The backup's a.json is not UTF-8 text."),
      );
    }
  });

  it('refuses text that ends in the middle of a character', async () => {
    const { file } = await archive([['a.json', new TextEncoder().encode('["é"]').slice(0, 3)]]);
    await expect(verifyArchive(file, CODE)).rejects.toThrow(
      new DamagedArchiveError("The backup's a.json is not UTF-8 text."),
    );
  });

  it('refuses invalid JSON with where it is', async () => {
    const text = records(4_000);
    const at = text.indexOf('"id":"1002000"') + 5;
    const { file } = await archive([['a.json', `${text.slice(0, at)}0${text.slice(at)}`]]);
    await expect(verifyArchive(file, CODE)).rejects.toThrow(
      /^The backup's a\.json is not valid JSON: invalid JSON at character \d+: /,
    );
    const cut = await archive([['a.json', text.slice(0, -100)]]);
    await expect(verifyArchive(cut.file, CODE)).rejects.toThrow(
      /^The backup's a\.json is not valid JSON: unexpected end of input at character \d+: the element starting at character \d+ is incomplete\.$/,
    );
  });

  it('refuses a wrong access code, a changed byte and a cut file in words', async () => {
    const { file, bytes } = await archive([...LAYOUT, ['entities.json', records(4_000)]]);
    await expect(verifyArchive(file, 'another code')).rejects.toBeInstanceOf(WrongAccessCodeError);

    // A byte of the last entry's AES authentication code (the 10 bytes before the central
    // directory, whose offset the end record holds): the data decrypts, the code does not match.
    const directory = Buffer.from(bytes).readUInt32LE(bytes.length - 22 + 16);
    const changed = bytes.slice();
    changed[directory - 5]! ^= 0x40;
    writeFileSync(file, changed);
    await expect(verifyArchive(file, CODE)).rejects.toThrow(
      new DamagedArchiveError(
        'The backup is damaged: its entry entities.json does not match its checksum (changed or corrupted after it was made).',
      ),
    );

    // A byte of its compressed data: refused as damaged, by whichever check meets it first
    // (the JSON, the UTF-8, inflating, or the code at the end).
    const garbled = bytes.slice();
    garbled[Math.floor(directory * 0.8)]! ^= 0x40;
    writeFileSync(file, garbled);
    await expect(verifyArchive(file, CODE)).rejects.toBeInstanceOf(DamagedArchiveError);

    // Cut before its table of contents' end: no ZIP archive any more. A download is verified only
    // once it holds every byte the service said the file has, so this is the service's file.
    writeFileSync(file, bytes.subarray(0, bytes.length - 30));
    await expect(verifyArchive(file, CODE)).rejects.toBeInstanceOf(NotABackupError);
    await expect(verifyArchive(file, CODE)).rejects.toThrow(
      /^This file is not a backup PortalDesk can read: it is not a ZIP archive \(end of central directory not found\)/,
    );
  });

  it('says a file that is no backup archive at all is not a backup, and a changed byte is damage', async () => {
    const { file, bytes } = await archive([...LAYOUT, ['entities.json', records(400)]]);
    const notABackup = async (content: Uint8Array | string) => {
      writeFileSync(file, content);
      const error = await verifyArchive(file, CODE).catch((caught: unknown) => caught);
      return error instanceof NotABackupError ? 'not a backup' : String(error);
    };
    expect(await notABackup('<html><body>Service unavailable</body></html>')).toBe('not a backup');
    expect(await notABackup('')).toBe('not a backup');
    const plain = new ZipWriter(new BlobWriter(), { useWebWorkers: false });
    await plain.add('portal.json', new TextReader('{}'));
    const unencrypted = new Uint8Array(await (await plain.close()).arrayBuffer());
    expect(await notABackup(unencrypted)).toBe('not a backup');

    const directory = Buffer.from(bytes).readUInt32LE(bytes.length - 22 + 16);
    const changed = bytes.slice();
    changed[directory - 5]! ^= 0x40;
    expect(await notABackup(changed)).toMatch(/^DamagedArchiveError: The backup is damaged/);
  });

  /**
   * An archive whose entry names were changed after it was made: AES authenticates each entry's
   * data, never its name, so a name is renamed in both headers (local and central) byte for byte.
   */
  async function renamed(entries: [string, string][], from: string, to: string) {
    expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
    const { file, bytes } = await archive(entries);
    const text = Buffer.from(bytes);
    const changed = Buffer.from(text.toString('latin1').replaceAll(from, to), 'latin1');
    expect(changed.equals(text)).toBe(false);
    writeFileSync(file, changed);
    return file;
  }

  it('refuses an archive that names an entry twice (the counts would take it twice)', async () => {
    const entities = records(50);
    const file = await renamed(
      [...LAYOUT, ['entities.json', entities], ['entitieZ.json', entities]],
      'entitieZ.json',
      'entities.json',
    );
    await expect(verifyArchive(file, CODE)).rejects.toThrow(
      new DamagedArchiveError(
        'The backup is not the archive the service made: its table of contents can be read more than one way (duplicate filename).',
      ),
    );
  });

  it('refuses entry names that point outside the archive, wherever it is unpacked', async () => {
    for (const name of ['../a.json', '/etc.json', 'C:/x.json', 'a\\..\\b', 'a/../..']) {
      const file = await renamed(
        [...LAYOUT, ['entities.json', records(5)], ['X'.repeat(name.length), '[]']],
        'X'.repeat(name.length),
        name,
      );
      await expect(verifyArchive(file, CODE), name).rejects.toThrow(DamagedArchiveError);
      await expect(verifyArchive(file, CODE), name).rejects.toThrow(
        /^The backup is not the archive the service made: it names an entry outside the archive/,
      );
    }
  });

  it('refuses bytes after the archive (a resumed download that appended a repeat)', async () => {
    const { file, bytes } = await archive([...LAYOUT, ['entities.json', records(50)]]);
    for (const extra of [bytes.subarray(bytes.length - 100), new Uint8Array(1)]) {
      writeFileSync(file, Buffer.concat([bytes, extra]));
      await expect(verifyArchive(file, CODE)).rejects.toThrow(
        /^The backup is not the archive the service made: its table of contents can be read more than one way \(/,
      );
    }
    writeFileSync(file, bytes);
    await expect(verifyArchive(file, CODE)).resolves.toMatchObject({ format: expect.any(String) });
  });

  it('says when the archive names another backup than the one asked for', async () => {
    const { file } = await archive([
      [
        'portal.json',
        '{"export":{"id":"680","generated_time":"2026-11-26T00:00:00Z"},"portal_details":{"id":7001}}',
      ],
      ...LAYOUT.slice(1),
      ['entities.json', records(3)],
    ]);
    const check = await verifyArchive(file, CODE);
    expect(check.counts).toMatchObject({ exportId: '680', portalId: '7001' });
    expect(anotherBackupProblem(check, { portalId: '7001', exportId: '680' })).toBeNull();
    expect(anotherBackupProblem(check, { portalId: '7001', exportId: null })).toBeNull();
    expect(anotherBackupProblem(check, { portalId: '7001', exportId: '681' })).toBe(
      "The downloaded archive is backup 680, not 681: the service's link gave another backup's file.",
    );
    // Another portal's archive, even under the export id asked for (ids a service counts per portal).
    expect(anotherBackupProblem(check, { portalId: '7002', exportId: '680' })).toBe(
      "The downloaded archive is a backup of portal 7001, not of portal 7002: the service's link gave another portal's file.",
    );
    // An archive that does not say which it is cannot be told apart.
    const unnamed = await archive([...LAYOUT, ['entities.json', records(3)]]);
    expect(
      anotherBackupProblem(await verifyArchive(unnamed.file, CODE), {
        portalId: '7002',
        exportId: '681',
      }),
    ).toBeNull();
  });
});
