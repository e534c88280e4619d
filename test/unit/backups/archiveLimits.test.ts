/**
 * Zip bombs: archives whose entries inflate to far more than a backup's data (a declared size
 * that lies, a ratio no backup's JSON reaches, a total past every portal's) are refused in words
 * before, or as soon as, the inflated bytes pass what is allowed; nothing more is inflated.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { BlobWriter, TextReader, Uint8ArrayReader, ZipWriter } from '@zip.js/zip.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ARCHIVE_LIMITS,
  MAX_INFLATE_RATIO,
  type ArchiveLimits,
} from '../../../src/main/backups/archiveLimits';
import { DamagedArchiveError, verifyArchive } from '../../../src/main/backups/archiveVerify';
import { tempDir } from '../../support/tempDir';

const CODE = 'archive limits test code';
const MiB = 1024 * 1024;

async function zipOf(entries: [string, string | Uint8Array][]): Promise<Buffer> {
  const writer = new ZipWriter(new BlobWriter(), {
    password: CODE,
    encryptionStrength: 3,
    useWebWorkers: false,
    dataDescriptor: false,
  });
  for (const [name, data] of entries) {
    await writer.add(
      name,
      typeof data === 'string' ? new TextReader(data) : new Uint8ArrayReader(data),
    );
  }
  return Buffer.from(await (await writer.close()).arrayBuffer());
}

/** Offsets of every local (PK\3\4) and central (PK\1\2) header, by entry name. */
function headers(bytes: Buffer): Map<string, { local: number; central: number }> {
  const found = new Map<string, { local: number; central: number }>();
  for (let at = 0; at < bytes.length - 46; at++) {
    const signature = bytes.readUInt32LE(at);
    if (signature === 0x04034b50) {
      const nameLength = bytes.readUInt16LE(at + 26);
      const name = bytes.toString('utf8', at + 30, at + 30 + nameLength);
      found.set(name, { ...(found.get(name) ?? { central: -1 }), local: at });
    } else if (signature === 0x02014b50) {
      const nameLength = bytes.readUInt16LE(at + 28);
      const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
      found.set(name, { ...(found.get(name) ?? { local: -1 }), central: at });
    }
  }
  return found;
}

/** The archive with `name`'s uncompressed size written as `declared` in both its headers. */
function declaring(bytes: Buffer, name: string, declared: number): Buffer {
  const copy = Buffer.from(bytes);
  const at = headers(copy).get(name)!;
  copy.writeUInt32LE(declared, at.local + 22);
  copy.writeUInt32LE(declared, at.central + 24);
  return copy;
}

function saved(bytes: Buffer): string {
  const file = path.join(tempDir(), 'backup.zip');
  writeFileSync(file, bytes);
  return file;
}

/** Counts what zlib hands out while `run` verifies: the bytes actually inflated. */
async function inflatedWhile(
  run: () => Promise<unknown>,
): Promise<{ inflated: number; outcome: unknown }> {
  let inflated = 0;
  const spies = (['createGunzip', 'createInflateRaw', 'createInflate'] as const).map((name) => {
    const real = zlib[name].bind(zlib);
    return vi.spyOn(zlib, name).mockImplementation(((options?: zlib.ZlibOptions) => {
      const stream = real(options);
      const push = stream.push.bind(stream);
      stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
        if (chunk) inflated += (chunk as Buffer).length;
        return push(chunk, encoding);
      };
      return stream;
    }) as never);
  });
  try {
    const outcome = await run().then(
      (value) => value,
      (error: unknown) => error,
    );
    return { inflated, outcome };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('an entry that inflates past the size it declares', () => {
  it('is refused as soon as it passes it, and nothing more is inflated', async () => {
    const zeros = new Uint8Array(96 * MiB);
    const bomb = declaring(await zipOf([['files/blob.bin', zeros]]), 'files/blob.bin', 4_000);
    const { inflated, outcome } = await inflatedWhile(() => verifyArchive(saved(bomb), CODE));
    expect(outcome).toBeInstanceOf(DamagedArchiveError);
    expect((outcome as Error).message).toBe(
      'This file is not a backup PortalDesk can read: its entry files/blob.bin does not inflate to the 4,000 bytes its table of contents declares (a damaged or hostile archive); it was stopped there.',
    );
    // zlib hands out 256 KiB at a time, and a few chunks may be in flight when it is stopped.
    expect(inflated).toBeLessThan(4 * MiB);
  }, 60_000);
});

describe('an entry that declares more than a backup deflates to', () => {
  it('is refused before anything is inflated', async () => {
    // 96 MiB of zeros deflate to under 100 KB: about 1,000 to 1, declared honestly.
    const bomb = await zipOf([
      ['portal.json', '{"export":{"id":"1"}}'],
      ['entities.json', `[${' '.repeat(96 * MiB)}]`],
    ]);
    const { inflated, outcome } = await inflatedWhile(() => verifyArchive(saved(bomb), CODE));
    expect(outcome).toBeInstanceOf(DamagedArchiveError);
    expect((outcome as Error).message).toMatch(
      new RegExp(
        `^This file is not a backup PortalDesk can read: its entry entities\\.json declares 100,663,298 bytes from [\\d,]+ in the file, more than ${MAX_INFLATE_RATIO} times its size, which no backup's data deflates to \\(a damaged or hostile archive\\)\\. Nothing of it was inflated\\.$`,
      ),
    );
    expect(inflated).toBe(0);
  }, 60_000);

  it('is read when it deflates no better than the limit allows', async () => {
    // Random bytes do not deflate: a ratio of about 1, however large.
    const noise = new Uint8Array(3 * MiB).map(() => Math.floor(Math.random() * 256));
    const check = await verifyArchive(saved(await zipOf([['files/noise.bin', noise]])), CODE);
    expect(check.entries).toEqual([{ name: 'files/noise.bin', bytes: noise.length, items: null }]);
  });
});

describe('entries that declare more in all than a backup holds', () => {
  const small: ArchiveLimits = { ...ARCHIVE_LIMITS, totalBytes: 2 * MiB };
  const noise = (bytes: number) => new Uint8Array(bytes).map(() => Math.floor(Math.random() * 256));

  it('are refused before anything is inflated; within the total, they are read', async () => {
    const over = await zipOf([
      ['files/a.bin', noise(MiB)],
      ['files/b.bin', noise(MiB + 1)],
    ]);
    const { inflated, outcome } = await inflatedWhile(() =>
      verifyArchive(saved(over), CODE, { limits: small }),
    );
    expect((outcome as Error).message).toBe(
      'This file is not a backup PortalDesk can read: its entries declare 2,097,153 bytes in all, more than the 2,097,152 PortalDesk reads in a backup (a damaged or hostile archive). Nothing of it was inflated.',
    );
    expect(inflated).toBe(0);
    const within = await zipOf([
      ['files/a.bin', noise(MiB)],
      ['files/b.bin', noise(MiB)],
    ]);
    await expect(verifyArchive(saved(within), CODE, { limits: small })).resolves.toMatchObject({
      entries: [{ bytes: MiB }, { bytes: MiB }],
    });
  });
});

/** Prose of `length` characters from a seed: words drawn from a small vocabulary. */
function prose(seed: number, length: number): string {
  const words = [
    'the',
    'asset',
    'ticket',
    'was',
    'moved',
    'to',
    'site',
    'Zürich',
    'pending',
    'review',
    'by',
    'operations',
    'owner',
    'replaced',
    'part',
    'serial',
    'warranty',
    'until',
  ];
  let state = seed;
  let text = '';
  while (text.length < length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += `${words[state % words.length]}${state % 7 === 0 ? '.\n' : ' '}${state % 13 === 0 ? state % 10_000 : ''}`;
  }
  return text.slice(0, length);
}

describe("a backup's own data", () => {
  it('is never refused for its sizes, however much its records repeat one another', async () => {
    // A portal whose records share long descriptions (a few templates) deflates far better than
    // the emulator's: what the ratio must leave room for. Templates of 5 to 15 thousand
    // characters deflate best, about 120 to 1 (a longer one gains less, and one past deflate's
    // 32 KiB window is not matched from one record to the next). Every archive here holds more
    // than the ratio's floor (1 MiB).
    const portal = fc
      .record({
        templates: fc.array(
          fc
            .tuple(fc.nat(), fc.integer({ min: 4_000, max: 16_000 }))
            .map(([seed, length]) => prose(seed, length)),
          { minLength: 1, maxLength: 3 },
        ),
        records: fc.array(
          fc.record({
            name: fc.string({ maxLength: 200 }),
            template: fc.nat(),
            closed: fc.boolean(),
          }),
          { minLength: 300, maxLength: 400 },
        ),
      })
      .map(({ templates, records }) =>
        records.map((record, i) => ({
          id: String(4_000_000_000 + i * 7),
          module: 'tickets',
          name: record.name,
          description: templates[record.template % templates.length]!,
          status: { id: String(1000 + (i % 5)), name: ['Open', 'Closed'][i % 2] },
          is_closed: record.closed,
          created_time: new Date(1_700_000_000_000 + i * 61_000).toISOString(),
        })),
      );
    await fc.assert(
      fc.asyncProperty(portal, async (records) => {
        const json = JSON.stringify(records, null, 2);
        expect(json.length).toBeGreaterThan(1024 * 1024);
        const check = await verifyArchive(saved(await zipOf([['entities.json', json]])), CODE);
        expect(check.entries[0]!.items).toBe(records.length);
      }),
      { numRuns: 12 },
    );
  }, 180_000);
});
