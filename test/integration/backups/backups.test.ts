/**
 * Backups through the engine's contract against the emulator: request → generating → download →
 * verify → ready; the 24-hour reuse; a download cut half way and resumed with Range; a wrong
 * code; the service's history merged with the disk; delete; an engine closed mid-download and
 * started again. The emulator's clock moves while the service waits for a backup to generate.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATION_MS } from '@portaldesk/emulator/backup/exportRules';
import type { BackupsOverview, BackupView } from '../../../src/shared/ipc/areas/backups';
import { api, grantToken, testEmulator, type RunningEmulator } from '../../support/emulator';
import { backUp, call, CODE, filesUnder, overview, refusal, setup, sha256 } from './backupSession';

function entityCount(emulator: RunningEmulator, portalId: string): number {
  return (
    emulator.state.db
      .prepare(
        `SELECT count(*) AS n FROM entities e JOIN modules m ON m.id = e.module_id
         WHERE m.portal_id = ? AND e.trashed_time IS NULL`,
      )
      .get(Number(portalId)) as { n: number }
  ).n;
}

describe('backups in the engine', () => {
  it('backs a portal up: asked, generated, downloaded, verified against the mirror, then named', async () => {
    const { engine, emulator, dataDir, portalId } = await setup();
    const stages: string[] = [];
    engine.events.subscribe((name, payload) => {
      const backup = (payload as { backup: BackupView | null }).backup;
      if (name === 'backups.changed' && backup && stages.at(-1) !== backup.stage)
        stages.push(backup.stage);
    });
    const backup = await backUp(engine, portalId);
    expect(backup.problem).toBeNull();
    expect(backup.stage).toBe('ready');
    expect(stages).toEqual(
      expect.arrayContaining(['generating', 'downloading', 'verifying', 'ready']),
    );
    expect(stages.indexOf('generating')).toBeLessThan(stages.indexOf('downloading'));
    expect(stages.indexOf('verifying')).toBeLessThan(stages.indexOf('ready'));

    // One file, named <portal>/<timestamp>-<export id>.zip; no temporary file left.
    expect(filesUnder(dataDir)).toEqual([path.join(portalId, `${path.basename(backup.file!)}`)]);
    expect(path.basename(backup.file!)).toMatch(
      new RegExp(`^\\d{8}T\\d{6}Z-${backup.exportId}\\.zip$`),
    );
    expect(backup.sha256).toBe(sha256(backup.file!));
    expect(backup.bytes).toBe(readFileSync(backup.file!).length);

    // Counted entry by entry, and compared with the mirror: the same numbers after a full sync.
    const verification = backup.verification!;
    expect(verification.readable).toBe(true);
    expect(verification.entries.map((e) => e.name)).toEqual(
      expect.arrayContaining(['portal.json', 'modules.json', 'entities.json', 'comments.json']),
    );
    const total = verification.comparison.reduce((sum, m) => sum + m.archive, 0);
    expect(total).toBe(entityCount(emulator, portalId));
    for (const module of verification.comparison) {
      expect(module.mirror).toBe(module.archive);
      expect(module.summary).toMatch(/^archive: [\d,]+ .+; mirror: the same/);
    }
    // The code is nowhere in the store.
    const dump = engine.store.db.prepare('SELECT * FROM backups').all();
    expect(JSON.stringify(dump)).not.toContain(CODE);
  });

  it('shows the 24-hour reuse, and a reused backup made with another code waits for that code', async () => {
    const { engine, portalId } = await setup();
    const first = await backUp(engine, portalId);
    expect(first.stage).toBe('ready');
    const again = await backUp(engine, portalId, { accessCode: 'another code entirely' });
    // The service returned the same backup: the same row, said in words.
    expect(again.id).toBe(first.id);
    expect(again.reused).toBe(true);
    expect(again.notice).toMatch(
      /returned the backup made at \d\d:\d\d; a new one can be made after \d\d:\d\d/,
    );
    expect((await overview(engine)).backups.filter((b) => b.portalId === portalId)).toHaveLength(1);
  });

  it('downloads a reused backup it does not have, and a wrong code keeps the download for the right one', async () => {
    const { engine, emulator, portalId, dataDir } = await setup();
    // A backup someone else made (with their code) a moment ago.
    const token = grantToken(emulator);
    const base = emulator.dcs.us!.api;
    const made = await fetch(`${base}/api/v3/portal/${portalId}/portal_export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: new URLSearchParams({ access_code: 'their own code' }),
    });
    expect(made.status).toBe(202);
    const backup = await backUp(engine, portalId);
    expect(backup.reused).toBe(true);
    expect(backup.stage).toBe('needs_code');
    expect(backup.problem).toMatch(/earlier backup made with another access code/);
    // Nothing looks like a backup: only the temporary file.
    expect(filesUnder(dataDir).every((file) => file.endsWith('.zip.part'))).toBe(true);

    expect(
      await refusal(engine, 'backups.verify', { id: backup.id, accessCode: 'still the wrong one' }),
    ).toMatch(/does not open/);
    expect((await overview(engine)).backups.find((b) => b.id === backup.id)!.stage).toBe(
      'needs_code',
    );
    const verified = await call<BackupView>(engine, 'backups.verify', {
      id: backup.id,
      accessCode: 'their own code',
    });
    expect(verified.stage).toBe('ready');
    expect(filesUnder(dataDir).some((file) => file.endsWith('.part'))).toBe(false);
  });

  it('goes on as the known row when the service reuses a backup listed here, and a second request then leaves no stuck row', async () => {
    const { engine, emulator, portalId } = await setup();
    await fetch(`${emulator.dcs.us!.api}/api/v3/portal/${portalId}/portal_export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${grantToken(emulator)}` },
      body: new URLSearchParams({ access_code: CODE }),
    });
    emulator.state.clock.advance(GENERATION_MS);
    const listed = await call<BackupsOverview>(engine, 'backups.refreshHistory', { portalId });
    const known = listed.backups[0]!;
    expect(known.stage).toBe('on_service');
    // The service answers with the listed backup: the job goes on as that row.
    const first = await backUp(engine, portalId);
    expect(first.id).toBe(known.id);
    expect(first.stage).toBe('ready');
    // Again at once: the known row is ready, this request's row goes, nothing is left waiting.
    await backUp(engine, portalId);
    const rows = (await overview(engine)).backups.filter((b) => b.portalId === portalId);
    expect(rows.map((b) => [b.id, b.stage])).toEqual([[known.id, 'ready']]);
    // Ids are never reused: a new row after the forgotten ones gets a fresh id.
    const ids = engine.store.db
      .prepare("SELECT seq FROM sqlite_sequence WHERE name = 'backups'")
      .pluck()
      .get() as number;
    expect(ids).toBeGreaterThan(Number(known.id));
  });

  it('resumes a download the connection cut half way, with a Range request, to the same bytes', async () => {
    // The first download delivers half its bytes and then fails like a cut connection (the
    // emulator's cutBody fault does the same on the wire; small archives arrive in one chunk
    // that a stream error discards, so the cut is made here, after the bytes were handed over).
    let fetches = 0;
    const ranges: (string | null)[] = [];
    const { engine, emulator, portalId } = await setup({
      records: 300,
      engine: {
        backups: {
          fetch: async (input, init) => {
            ranges.push(new Headers(init?.headers).get('range'));
            const response = await fetch(input, init);
            if (fetches++ > 0) return response;
            const bytes = new Uint8Array(await response.arrayBuffer());
            const half = bytes.subarray(0, Math.floor(bytes.length / 2));
            const body = new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(half);
              },
              pull(controller) {
                controller.error(
                  new TypeError('terminated', { cause: new Error('other side closed') }),
                );
              },
            });
            return new Response(body, { status: response.status, headers: response.headers });
          },
        },
      },
    });
    const backup = await backUp(engine, portalId);
    expect(backup.problem).toBeNull();
    expect(backup.stage).toBe('ready');
    expect(backup.resumed).toBe(true);
    expect(ranges[0]).toBeNull();
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    // The same bytes as one uncut download.
    const direct = await api(
      emulator.dcs.us!.api,
      grantToken(emulator),
      'GET',
      `/api/v3/portal/${portalId}/portal_export/${backup.exportId}/status`,
    );
    const whole = Buffer.from(
      await (await fetch(direct.body.portal_export.download_url)).arrayBuffer(),
    );
    expect(backup.sha256).toBe(createHash('sha256').update(whole).digest('hex'));
    expect(backup.bytes).toBe(whole.length);
  });

  it("merges the service's history, downloads an entry from it, and deletes only the local copy", async () => {
    const { engine, emulator, portalId, dataDir } = await setup();
    const token = grantToken(emulator);
    await fetch(`${emulator.dcs.us!.api}/api/v3/portal/${portalId}/portal_export`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: new URLSearchParams({ access_code: CODE }),
    });
    emulator.state.clock.advance(GENERATION_MS);
    const merged = await call<BackupsOverview>(engine, 'backups.refreshHistory', { portalId });
    const remote = merged.backups.filter((b) => b.portalId === portalId);
    expect(remote).toHaveLength(1);
    expect(remote[0]).toMatchObject({ stage: 'on_service', onService: true, file: null });

    await call(engine, 'backups.download', { id: remote[0]!.id, accessCode: CODE });
    await engine.backups.idle();
    const downloaded = (await overview(engine)).backups.find((b) => b.id === remote[0]!.id)!;
    expect(downloaded.stage).toBe('ready');

    await call(engine, 'backups.delete', { id: downloaded.id });
    expect(filesUnder(dataDir)).toEqual([]);
    const after = (await overview(engine)).backups.find((b) => b.id === downloaded.id)!;
    expect(after).toMatchObject({ stage: 'on_service', file: null, sha256: null });
  });

  it('finds a tampered file, and refuses what is not a downloaded backup of ours', async () => {
    const { engine, portalId } = await setup();
    const backup = await backUp(engine, portalId);
    const bytes = readFileSync(backup.file!);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(backup.file!, bytes);
    expect(await refusal(engine, 'backups.verify', { id: backup.id, accessCode: CODE })).toMatch(
      /changed since it was downloaded/,
    );
    // No longer a backup: not ready, its old verification gone, nothing to download or drag.
    const condemned = (await overview(engine)).backups.find((b) => b.id === backup.id)!;
    expect(condemned).toMatchObject({ stage: 'failed', verification: null, file: null });
    expect(condemned.problem).toMatch(/no longer offered as a backup/);
    expect(await refusal(engine, 'backups.downloadLink', { id: backup.id })).toMatch(
      /no verified file/,
    );
    expect(await refusal(engine, 'backups.verify', { id: '999999', accessCode: CODE })).toMatch(
      /does not exist/,
    );
    expect(await refusal(engine, 'backups.showInFolder', { id: backup.id })).toMatch(/desktop app/);
    // The contract refuses a path for an id, in words.
    expect(await refusal(engine, 'backups.delete', { id: '../../etc' })).toBe(
      'Id: must be a backup id (digits). Nothing was changed.',
    );
    expect(
      await refusal(engine, 'backups.start', {
        portalIds: [portalId],
        accessCode: 'short',
        attachmentNeeded: false,
        keepCode: false,
      }),
    ).toMatch(/shorter than 8 characters/);
  });

  it('finishes a backup killed between its rename and its row, from the named file', async () => {
    const { engine, portalId, dataDir, start } = await setup({
      engine: { backups: { autoStart: false } },
    });
    const backup = await backUp(engine, portalId, { keepCode: true });
    expect(backup.stage).toBe('ready');
    // As a kill -9 leaves it: the file renamed, the row still verifying.
    engine.store.db
      .prepare("UPDATE backups SET stage = 'verifying', file = NULL, sha256 = NULL")
      .run();
    engine.close();
    const again = start();
    await again.backups.start();
    await again.backups.idle();
    const after = (await overview(again)).backups.find((b) => b.id === backup.id)!;
    expect(after.problem).toBeNull();
    expect(after).toMatchObject({ stage: 'ready', file: backup.file, sha256: backup.sha256 });
    expect(filesUnder(dataDir)).toHaveLength(1);
  });

  it('goes on after the engine was closed mid-download, from the bytes already on disk', async () => {
    const emulator = await testEmulator({ records: 300 });
    let served = 0;
    const slow = {
      // The first engine's download stalls after its first chunk, and the engine is closed then.
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(input, init);
        served++;
        const reader = response.body!.getReader();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            // Closing the engine aborts the request: the body fails as a real one would.
            init?.signal?.addEventListener('abort', () => controller.error(init.signal!.reason));
          },
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else {
              // Half of the first chunk (a small archive is one chunk), then never more.
              controller.enqueue(value.subarray(0, Math.ceil(value.length / 2)));
              await new Promise(() => undefined);
            }
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      },
    };
    const first = await setup({ emulator, engine: { backups: slow } });
    await call(first.engine, 'backups.start', {
      portalIds: [first.portalId],
      accessCode: CODE,
      attachmentNeeded: false,
      keepCode: true,
    });
    for (let i = 0; i < 200 && filesUnder(first.dataDir).length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const part = filesUnder(first.dataDir);
    expect(part).toHaveLength(1);
    expect(part[0]).toMatch(/\.zip\.part$/);
    expect(served).toBe(1);
    first.engine.close();
    // What arrived is written out as the closing download ends.
    const partFile = path.join(first.dataDir, 'backups', part[0]!);
    for (let i = 0; i < 100 && statSync(partFile).size === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(statSync(partFile).size).toBeGreaterThan(0);

    const second = first.start({ backups: { sleep: async () => undefined } });
    // Started by the engine (autoStart); the same promise, so idle() sees the resumed job.
    await second.backups.start();
    await second.backups.idle();
    const backup = (await overview(second)).backups[0]!;
    expect(backup.problem).toBeNull();
    expect(backup).toMatchObject({ stage: 'ready', resumed: true });
    expect(backup.sha256).toBe(sha256(backup.file!));
    expect(filesUnder(first.dataDir).some((file) => file.endsWith('.part'))).toBe(false);
  });
});
