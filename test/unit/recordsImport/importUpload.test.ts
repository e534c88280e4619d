/**
 * The file's pieces (`records.importUpload`): each says where it starts, and a piece that does not
 * start where the bytes received so far end (out of order, skipped, or sent twice) is refused in
 * words with the upload left as it was, so the file on disk is always the file's beginning; the
 * last piece sent again with the same bytes (a retried call) gets the same answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordsImportError } from '../../../src/main/recordsImport/recordsImports';
import { IMPORT_CHUNK_BYTES } from '../../../src/shared/ipc/areas/recordsImport';
import { testEngine } from '../../support/engine';
import { MODULE, PORTAL, recordsWorkspace } from '../records/workspace';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('an upload in pieces', () => {
  it('holds exactly the beginning of the file whatever order, repeats or gaps the pieces come in', () => {
    const { imports } = testEngine();
    const onDisk = (uploadId: string) =>
      readFileSync(path.join(imports.folder, `${uploadId}.upload`));
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 2000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.nat({ max: 50 }), { maxLength: 30 }),
        (file, size, sends) => {
          const count = Math.ceil(file.length / size);
          const piece = (i: number) => ({
            fileName: 'a.csv',
            offset: i * size,
            chunk: base64(file.subarray(i * size, (i + 1) * size)),
            last: i === count - 1,
          });
          const { uploadId } = imports.upload(piece(0));
          // What the engine should hold: the bytes taken, whether whole, where the last piece began.
          let received = Math.min(size, file.length);
          let complete = count === 1;
          let lastAt = 0;
          const send = (i: number) => {
            const at = i * size;
            const end = Math.min(at + size, file.length);
            const next = !complete && at === received;
            const repeat = at === lastAt && end === received;
            let answer: { bytes: number } | null = null;
            try {
              answer = imports.upload({ uploadId, ...piece(i) });
            } catch (error) {
              if (!(error instanceof RecordsImportError)) throw error;
            }
            expect(answer !== null).toBe(next || repeat);
            if (next) {
              received = end;
              lastAt = at;
              complete = i === count - 1;
            }
            if (answer) expect(answer.bytes).toBe(received);
            expect(onDisk(uploadId).equals(Buffer.from(file.subarray(0, received)))).toBe(true);
          };
          for (const i of sends) send(i % count);
          // Sent on in order from where it stands, it ends as the file.
          for (let i = Math.ceil(received / size); i < count; i++) send(i);
          expect(onDisk(uploadId).equals(Buffer.from(file))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a piece out of place in words, keeps the upload, and takes the right piece after', async () => {
    const w = recordsWorkspace();
    const text = 'name\r\nLaptop\r\nDesk\r\n';
    const bytes = Buffer.from(text);
    const first = await w.ok('records.importUpload', {
      fileName: 'assets.csv',
      offset: 0,
      chunk: base64(bytes.subarray(0, 10)),
      last: false,
    });
    expect(first.bytes).toBe(10);
    const { uploadId } = first;
    // The third piece before the second.
    expect(
      (
        await w.refused('records.importUpload', {
          uploadId,
          fileName: 'assets.csv',
          offset: 15,
          chunk: base64(bytes.subarray(15)),
          last: true,
        })
      ).message,
    ).toBe(
      'A piece of assets.csv arrived out of place: it starts at byte 15, but 10 bytes have arrived so far. Nothing was added: the upload keeps its first 10 bytes; send the piece that starts at byte 10, or choose the file again.',
    );
    // The first piece again with other bytes.
    expect(
      (
        await w.refused('records.importUpload', {
          uploadId,
          fileName: 'assets.csv',
          offset: 0,
          chunk: base64(Buffer.from('NAME\r\nLapt')),
          last: false,
        })
      ).message,
    ).toMatch(/^A piece of assets\.csv arrived out of place: it starts at byte 0, but 10 bytes/);
    // The first piece again, the same bytes (a retried call): the same answer, nothing added.
    expect(
      await w.ok('records.importUpload', {
        uploadId,
        fileName: 'assets.csv',
        offset: 0,
        chunk: base64(bytes.subarray(0, 10)),
        last: false,
      }),
    ).toEqual({ uploadId, bytes: 10 });
    for (const at of [10, 15]) {
      await w.ok('records.importUpload', {
        uploadId,
        fileName: 'assets.csv',
        offset: at,
        chunk: base64(bytes.subarray(at, at === 10 ? 15 : undefined)),
        last: at === 15,
      });
    }
    // The last piece retried after the file arrived whole: the same answer.
    expect(
      await w.ok('records.importUpload', {
        uploadId,
        fileName: 'assets.csv',
        offset: 15,
        chunk: base64(bytes.subarray(15)),
        last: true,
      }),
    ).toEqual({ uploadId, bytes: bytes.length });
    const file = await w.ok('records.importOpen', { portalId: PORTAL, moduleId: MODULE, uploadId });
    expect(file.columns).toEqual([
      expect.objectContaining({ header: 'name', sample: ['Laptop', 'Desk'] }),
    ]);
  });

  it('refuses a piece that is not base64, or too large, and keeps the upload as it was', async () => {
    const w = recordsWorkspace();
    const bytes = Buffer.from('name\r\nLaptop\r\n');
    const { uploadId } = await w.ok('records.importUpload', {
      fileName: 'assets.csv',
      offset: 0,
      chunk: base64(bytes.subarray(0, 6)),
      last: false,
    });
    const hostile = [
      // Characters outside the alphabet (Node's decoder would skip them and take the rest).
      'TGFw dG9w',
      'TGFw*G9w',
      'TGFwdG9w\u0000',
      // Not a whole number of quads, padding in the middle.
      'TGFwdG9',
      'TG==dG9w',
      // Larger than a piece may be.
      'A'.repeat(Math.ceil(IMPORT_CHUNK_BYTES / 3) * 4 + 4),
    ];
    for (const chunk of hostile) {
      const refusal = await w.refused('records.importUpload', {
        uploadId,
        fileName: 'assets.csv',
        offset: 6,
        chunk,
        last: true,
      });
      expect(refusal.message).toMatch(/^Chunk: .*Nothing was changed\.$/);
    }
    // Nothing was taken: the right piece still goes where the first one ended.
    expect(
      await w.ok('records.importUpload', {
        uploadId,
        fileName: 'assets.csv',
        offset: 6,
        chunk: base64(bytes.subarray(6)),
        last: true,
      }),
    ).toEqual({ uploadId, bytes: bytes.length });
  });

  it('refuses a first piece that does not start the file', async () => {
    const w = recordsWorkspace();
    expect(
      (
        await w.refused('records.importUpload', {
          fileName: 'assets.csv',
          offset: 512,
          chunk: base64(Buffer.from('x')),
          last: true,
        })
      ).message,
    ).toBe(
      'The first piece of assets.csv starts at byte 512 instead of the beginning. Nothing was uploaded; choose the file again.',
    );
  });
});

describe('uploads not yet opened', () => {
  const MINUTE = 60_000;
  /** A whole file in one piece. */
  const uploadWhole = (w: ReturnType<typeof recordsWorkspace>, fileName: string, bytes: Buffer) =>
    w.ok('records.importUpload', { fileName, offset: 0, chunk: base64(bytes), last: true });
  /** `size` bytes of a one-column CSV file. */
  const csv = (size: number) => Buffer.from(`name\r\n${'x'.repeat(size - 8)}\r\n`);

  it('are bounded together: a piece past the bound is refused in words, and an opened file frees its share', async () => {
    const w = recordsWorkspace({ imports: { uploadsMaxBytes: 1000 } });
    const a = csv(900);
    const { uploadId } = await w.ok('records.importUpload', {
      fileName: 'a.csv',
      offset: 0,
      chunk: base64(a.subarray(0, 600)),
      last: false,
    });
    expect(
      (
        await w.refused('records.importUpload', {
          fileName: 'b.csv',
          offset: 0,
          chunk: base64(csv(500)),
          last: true,
        })
      ).message,
    ).toBe(
      'Files uploaded for import and not yet opened take 600 bytes already; b.csv would take them past 1,000 bytes, the most kept at once. Nothing of b.csv was uploaded; finish or close the other imports (an upload no piece reaches for 10 minutes is removed), then choose the file again.',
    );
    // The upload under way goes on; arrived whole, it still counts until it is opened.
    await w.ok('records.importUpload', {
      uploadId,
      fileName: 'a.csv',
      offset: 600,
      chunk: base64(a.subarray(600)),
      last: true,
    });
    const c = await w.ok('records.importUpload', {
      fileName: 'c.csv',
      offset: 0,
      chunk: base64(Buffer.from('name\r\n')),
      last: false,
    });
    // A later piece past the bound: that upload is dropped (the dialog cannot resume it).
    expect(
      (
        await w.refused('records.importUpload', {
          uploadId: c.uploadId,
          fileName: 'c.csv',
          offset: 6,
          chunk: base64(Buffer.from('y'.repeat(100))),
          last: true,
        })
      ).message,
    ).toMatch(
      /^Files uploaded for import and not yet opened take 906 bytes already; .* Nothing of c\.csv was kept;/,
    );
    expect(existsSync(path.join(w.engine.imports.folder, `${c.uploadId}.upload`))).toBe(false);
    await w.ok('records.importOpen', { portalId: PORTAL, moduleId: MODULE, uploadId });
    expect(await uploadWhole(w, 'b.csv', csv(500))).toMatchObject({ bytes: 500 });
  });

  it('a file that cannot be opened is removed at once, its bytes freed (not held for 10 minutes)', async () => {
    const w = recordsWorkspace({ imports: { uploadsMaxBytes: 1000 } });
    // Not a workbook: the open reads no zip in it.
    const broken = Buffer.from('PK\u0003\u0004 not a zip at all'.padEnd(900, '.'));
    const { uploadId } = await uploadWhole(w, 'broken.xlsx', broken);
    await w.refused('records.importOpen', { portalId: PORTAL, moduleId: MODULE, uploadId });
    expect(existsSync(path.join(w.engine.imports.folder, `${uploadId}.upload`))).toBe(false);
    expect(await uploadWhole(w, 'b.csv', csv(500))).toMatchObject({ bytes: 500 });
    // The same upload opened again says it is gone: choose the file again.
    expect(
      (await w.refused('records.importOpen', { portalId: PORTAL, moduleId: MODULE, uploadId }))
        .message,
    ).toMatch(/choose the file again/);
  });

  it('are removed, their files deleted and their bytes freed, once no piece reached them for 10 minutes', async () => {
    let now = 0;
    const w = recordsWorkspace({ imports: { now: () => now, uploadsMaxBytes: 1000 } });
    const a = csv(900);
    const onDisk = (uploadId: string) =>
      existsSync(path.join(w.engine.imports.folder, `${uploadId}.upload`));
    const piece = (uploadId: string | undefined, from: number, to: number) => ({
      ...(uploadId ? { uploadId } : {}),
      fileName: 'a.csv',
      offset: from,
      chunk: base64(a.subarray(from, to)),
      last: to === a.length,
    });
    const { uploadId } = await w.ok('records.importUpload', piece(undefined, 0, 300));
    // A slow upload is not idle: each piece restarts its 10 minutes.
    now += 9 * MINUTE;
    await w.ok('records.importUpload', piece(uploadId, 300, 600));
    now += 9 * MINUTE;
    await w.ok('records.importUpload', piece(uploadId, 600, 700));
    // Abandoned (the dialog closed, the window reloaded): gone after 10 minutes, making room.
    now += 10 * MINUTE;
    expect(onDisk(uploadId)).toBe(true);
    expect(
      await w.ok('records.importUpload', {
        fileName: 'b.csv',
        offset: 0,
        chunk: base64(csv(500)),
        last: false,
      }),
    ).toMatchObject({ bytes: 500 });
    expect(onDisk(uploadId)).toBe(false);
    expect((await w.refused('records.importUpload', piece(uploadId, 700, 900))).message).toBe(
      'This upload is not going on any more (the app restarted, it ended, or no piece reached it for 10 minutes). Choose the file again.',
    );

    // Without any other upload, the minutely sweep removes it.
    const left = await w.ok('records.importUpload', piece(undefined, 0, 300));
    now += 10 * MINUTE;
    w.engine.imports.expireIdleUploads();
    expect(onDisk(left.uploadId)).toBe(false);
  });
});
