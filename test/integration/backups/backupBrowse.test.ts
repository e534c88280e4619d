/**
 * A backup browsed in the records workspace. Two readings of the same data must agree: right
 * after a backup is made, every module's records read from its snapshot (the same requests the
 * workspace makes, naming the backup) equal the live mirror's, window by window, filters, sorts,
 * details, search and the recycle bin included. After the service changed records and the mirror
 * synced, the snapshot still shows the records as they were and the live mirror the new ones.
 * Nothing decrypted outlives the browsing, and a wrong code or a damaged archive leaves nothing.
 */
import { existsSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BackupSnapshot } from '../../../src/shared/ipc/areas/backups';
import type {
  RecordDetail,
  RecordsColumns,
  RecordsModule,
  RecordsWindow,
  SearchHit,
  TrashedRecord,
} from '../../../src/shared/ipc/areas/records';
import { api, grantToken, testEmulator } from '../../support/emulator';
import { backUp, call, CODE, refusal, setup } from './backupSession';

/** Comments are not read from backups: a row's "comments mirrored" flag is the one difference. */
const withoutCommentFlag = (window: RecordsWindow) => ({
  ...window,
  rows: window.rows.map((row) => ({ ...row, commentsMirrored: null })),
});

const snapshotFiles = (dataDir: string) => {
  const folder = path.join(dataDir, 'snapshots');
  return existsSync(folder) ? readdirSync(folder) : [];
};

describe('browsing a backup', () => {
  it('reads the same records as the mirror right after the backup, and the old ones after changes', async () => {
    const emulator = await testEmulator({ records: 300 });
    const { engine, portalId, dataDir } = await setup({ emulator });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');

    const opened = await call<BackupSnapshot>(engine, 'backups.browse', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(opened).toMatchObject({ backupId: backup.id, portalId, skippedModules: [] });
    expect(opened.records).toBeGreaterThan(100);
    expect(snapshotFiles(dataDir)).toEqual([`backup-${backup.id}.sqlite`]);
    const snapshot = backup.id;

    const live = await call<RecordsModule[]>(engine, 'records.modules', { portalId });
    const archived = await call<RecordsModule[]>(engine, 'records.modules', {
      portalId,
      snapshot,
    });
    expect(archived).toEqual(live);
    let compared = 0;
    for (const module of live.filter((m) => m.records > 0)) {
      const args = { portalId, moduleId: module.id };
      const columns = await call<RecordsColumns>(engine, 'records.columns', args);
      expect(await call(engine, 'records.columns', { ...args, snapshot })).toEqual(columns);
      const sortable = columns.fields.filter((f) => f.sortable).map((f) => f.key);
      const status = columns.statuses[0]!.id;
      const filters = [
        undefined,
        JSON.stringify({
          criteria: [{ field_name: 'status', criteria_condition: 'is', value: [status] }],
          pattern: '1',
        }),
        JSON.stringify({
          criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['a'] }],
          pattern: '1',
        }),
      ];
      for (const filter of filters) {
        for (const key of sortable) {
          for (const descending of [false, true]) {
            const query = {
              ...args,
              offset: 7,
              limit: 40,
              sort: { field: key, descending },
              ...(filter ? { filter } : {}),
            };
            const mirrored = await call<RecordsWindow>(engine, 'records.query', query);
            const fromBackup = await call<RecordsWindow>(engine, 'records.query', {
              ...query,
              snapshot,
            });
            expect(
              withoutCommentFlag(fromBackup),
              `${module.apiName} ${key} ${filter ?? ''}`,
            ).toEqual(withoutCommentFlag(mirrored));
            expect(fromBackup.rows.every((row) => !row.commentsMirrored)).toBe(true);
            compared += mirrored.rows.length;
          }
        }
      }
      const first = (
        await call<RecordsWindow>(engine, 'records.query', { ...args, offset: 0, limit: 3 })
      ).rows;
      for (const row of first) {
        const detail = await call<RecordDetail>(engine, 'records.get', {
          portalId,
          recordId: row.id,
        });
        const fromBackup = await call<RecordDetail>(engine, 'records.get', {
          portalId,
          recordId: row.id,
          snapshot,
        });
        // Comments and the status timeline are not read from backups.
        const plain = (d: RecordDetail) => ({
          ...d,
          record: { ...d.record, commentsMirrored: null },
          comments: [],
          timeline: [],
          commentsSyncedAt: null,
        });
        expect(plain(fromBackup)).toEqual(plain(detail));
      }
      expect(await call(engine, 'records.trashed', { ...args, snapshot })).toEqual(
        await call(engine, 'records.trashed', args),
      );
    }
    expect(compared).toBeGreaterThan(500);
    const word = (
      await call<RecordsWindow>(engine, 'records.query', {
        portalId,
        moduleId: live.find((m) => m.records > 0)!.id,
        offset: 0,
        limit: 1,
      })
    ).rows[0]!.name.split(/\s+/)[0]!;
    const hits = (
      await call<SearchHit[]>(engine, 'records.search', { portalId, text: word })
    ).filter((hit) => hit.source !== 'comment');
    const backupHits = await call<SearchHit[]>(engine, 'records.search', {
      portalId,
      text: word,
      snapshot,
    });
    expect(backupHits.length).toBeGreaterThan(0);
    expect(backupHits).toEqual(hits.slice(0, backupHits.length));

    // The service changes a record and trashes another; the mirror syncs.
    const token = grantToken(emulator);
    const base = emulator.dcs.us!.api;
    const assets = live.find((m) => m.apiName === 'assets')!;
    const entities = (suffix: string) =>
      `/api/v3/portal/${portalId}/projects/assets/entities${suffix}`;
    const ids = (
      await call<RecordsWindow>(engine, 'records.query', {
        portalId,
        moduleId: assets.id,
        offset: 0,
        limit: 2,
        sort: { field: 'name', descending: false },
      })
    ).rows.map((row) => row.id);
    const [edited, trashed] = ids as [string, string];
    const before = await call<RecordDetail>(engine, 'records.get', { portalId, recordId: edited });
    expect(
      (
        await api(base, token, 'PATCH', entities(`/${edited}`), {
          name: 'Renamed after the backup',
        })
      ).status,
    ).toBe(200);
    expect((await api(base, token, 'POST', entities(`/${trashed}/trash`))).status).toBe(200);
    await call(engine, 'sync.start');
    await engine.sync.idle();

    const now = await call<RecordDetail>(engine, 'records.get', { portalId, recordId: edited });
    expect(now.record.name).toBe('Renamed after the backup');
    const then = await call<RecordDetail>(engine, 'records.get', {
      portalId,
      recordId: edited,
      snapshot,
    });
    expect(then.record.name).toBe(before.record.name);
    const binNow = await call<TrashedRecord[]>(engine, 'records.trashed', {
      portalId,
      moduleId: assets.id,
    });
    const binThen = await call<TrashedRecord[]>(engine, 'records.trashed', {
      portalId,
      moduleId: assets.id,
      snapshot,
    });
    expect(binNow.map((r) => r.recordId)).toContain(trashed);
    expect(binThen.map((r) => r.recordId)).not.toContain(trashed);
    const snapshotModules = await call<RecordsModule[]>(engine, 'records.modules', {
      portalId,
      snapshot,
    });
    expect(snapshotModules.find((m) => m.id === assets.id)!.records).toBe(assets.records);

    // Closing deletes the snapshot; a request naming it is refused in words.
    await call(engine, 'backups.closeBrowse', { id: backup.id });
    expect(snapshotFiles(dataDir)).toEqual([]);
    expect(await refusal(engine, 'records.modules', { portalId, snapshot })).toMatch(
      /no longer open for browsing/,
    );
    engine.close();
  });

  it('refuses a wrong code or a damaged archive and leaves no snapshot; closing, a restart and delete remove it', async () => {
    const { engine, portalId, dataDir, start } = await setup({ records: 60 });
    const backup = await backUp(engine, portalId);
    expect(
      await refusal(engine, 'backups.browse', { id: backup.id, accessCode: 'wrong code entirely' }),
    ).toMatch(/does not open the backup/);
    expect(snapshotFiles(dataDir)).toEqual([]);
    // No code given and none kept: asked for.
    expect(await refusal(engine, 'backups.browse', { id: backup.id })).toMatch(/access code/);

    const opened = await call<BackupSnapshot>(engine, 'backups.browse', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(opened.records).toBeGreaterThan(0);
    // Opening the same backup again reuses it.
    expect(await call(engine, 'backups.browse', { id: backup.id, accessCode: CODE })).toEqual(
      opened,
    );
    // A damaged archive (a byte changed in its middle) is refused; the open snapshot is closed.
    const bytes = readFileSync(backup.file!);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(backup.file!, bytes);
    await call(engine, 'backups.closeBrowse', { id: backup.id });
    expect(await refusal(engine, 'backups.browse', { id: backup.id, accessCode: CODE })).toMatch(
      /damaged|cannot be read/,
    );
    expect(snapshotFiles(dataDir)).toEqual([]);
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(backup.file!, bytes);
    await call(engine, 'backups.browse', { id: backup.id, accessCode: CODE });
    expect(snapshotFiles(dataDir)).toHaveLength(1);
    // Closing the engine deletes it, and a new engine has nothing open.
    engine.close();
    expect(snapshotFiles(dataDir)).toEqual([]);
    const again = start();
    expect(await refusal(again, 'records.modules', { portalId, snapshot: backup.id })).toMatch(
      /no longer open/,
    );
    await call(again, 'backups.browse', { id: backup.id, accessCode: CODE });
    expect(snapshotFiles(dataDir)).toHaveLength(1);
    await call(again, 'backups.delete', { id: backup.id });
    expect(snapshotFiles(dataDir)).toEqual([]);
    again.close();
  });
});
