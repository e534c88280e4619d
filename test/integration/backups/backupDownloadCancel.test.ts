/**
 * A download cancelled while it runs: it stops at once (the transfer is aborted, not waited out),
 * the bytes that arrived are kept in the partial file and the backup says so as a note (paused, N
 * of M kept, download again to resume); a later Download resumes from them with a Range request
 * to a file that verifies. A paused download stays paused across a restart, and Delete removes
 * its partial file.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BackupView } from '../../../src/shared/ipc/areas/backups';
import { testEmulator } from '../../support/emulator';
import { call, CODE, filesUnder, overview, setup, sha256 } from './backupSession';

/**
 * The first download sends half of its first chunk and then nothing more (a slow link), until
 * its request is aborted; later ones pass through. Records each request's Range header;
 * `stalled` resolves once the download has taken those bytes and asks for more.
 */
function stallingFirstDownload() {
  const ranges: (string | null)[] = [];
  let waiting = () => undefined as void;
  const stalled = new Promise<void>((resolve) => (waiting = resolve));
  const fetch_ = async (input: string | URL | Request, init?: RequestInit) => {
    ranges.push(new Headers(init?.headers).get('range'));
    const response = await fetch(input, init);
    if (ranges.length > 1) return response;
    const reader = response.body!.getReader();
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        init?.signal?.addEventListener('abort', () => controller.error(init.signal!.reason));
      },
      async pull(controller) {
        if (pulls++ > 0) {
          // The half chunk was taken: nothing more comes.
          waiting();
          return new Promise<void>(() => undefined);
        }
        const { value } = await reader.read();
        controller.enqueue(value!.subarray(0, Math.ceil(value!.length / 2)));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { ranges, fetch: fetch_, stalled };
}

async function pausedDownload() {
  const emulator = await testEmulator({ records: 300 });
  const link = stallingFirstDownload();
  const session = await setup({ emulator, engine: { backups: { fetch: link.fetch } } });
  const { engine, portalId, dataDir } = session;
  const { started } = await call<{ started: BackupView[] }>(engine, 'backups.start', {
    portalIds: [portalId],
    accessCode: CODE,
    attachmentNeeded: false,
    keepCode: false,
  });
  const id = started[0]!.id;
  // The download has started, took its first bytes, and stalls.
  await link.stalled;
  expect((await overview(engine)).backups.find((b) => b.id === id)?.stage).toBe('downloading');
  expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip\.part$/)]);
  const paused = await call<BackupView>(engine, 'backups.cancelDownload', { id });
  return { ...session, link, id, paused };
}

describe('a download cancelled while it runs', () => {
  it('stops at once, keeps what arrived, says so as a note, and resumes to a file that verifies', async () => {
    const { engine, dataDir, link, id, paused } = await pausedDownload();
    // Answered once the job stopped: nothing runs for it any more.
    await engine.backups.idle();
    const part = path.join(dataDir, 'backups', filesUnder(dataDir)[0]!);
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThan(0);
    expect(paused).toMatchObject({ id, stage: 'paused', problem: null, bytes: kept });
    expect(paused.note).toMatch(/^Download paused; .+ of .+ kept\. Download again to resume\.$/);
    expect((await overview(engine)).backups.find((b) => b.id === id)).toMatchObject({
      stage: 'paused',
      note: paused.note,
    });
    // Cancelling again changes nothing.
    expect(await call<BackupView>(engine, 'backups.cancelDownload', { id })).toMatchObject({
      stage: 'paused',
      note: paused.note,
    });

    await call(engine, 'backups.download', { id, accessCode: CODE });
    await engine.backups.idle();
    const done = (await overview(engine)).backups.find((b) => b.id === id)!;
    expect(done).toMatchObject({ stage: 'ready', problem: null, note: null, resumed: true });
    expect(link.ranges).toEqual([null, `bytes=${kept}-`]);
    expect(done.sha256).toBe(sha256(done.file!));
    expect(done.verification?.readable).toBe(true);
    expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip$/)]);
  });

  it('stays paused across a restart, and Delete removes the partial file', async () => {
    const { engine, dataDir, id, start } = await pausedDownload();
    await engine.backups.idle();
    engine.close();
    const again = start();
    await again.backups.start();
    await again.backups.idle();
    expect((await overview(again)).backups.find((b) => b.id === id)?.stage).toBe('paused');
    expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip\.part$/)]);

    await call(again, 'backups.delete', { id });
    expect(filesUnder(dataDir)).toEqual([]);
    // The service still holds it: listed as the service's, to download from nothing.
    expect((await overview(again)).backups.find((b) => b.id === id)).toMatchObject({
      stage: 'on_service',
      bytes: null,
      note: null,
    });
  });
});
