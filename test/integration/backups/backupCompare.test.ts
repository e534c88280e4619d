/**
 * A backup compared with the mirror: right after it is made, nothing differs in any module, for
 * every field type the seed holds (the archive's records are read as a sync reads the service, so
 * two readings of the same data agree); after the service changed records and the mirror synced,
 * exactly those changes show, by field.
 */
import { describe, expect, it } from 'vitest';
import type { ArchiveDiff } from '../../../src/shared/ipc/areas/backups';
import { api, grantToken, testEmulator } from '../../support/emulator';
import { backUp, call, CODE, refusal, setup } from './backupSession';

describe('a backup compared with the mirror', () => {
  it('shows no difference right after it was made, then exactly what the service changed', async () => {
    const emulator = await testEmulator({ records: 300 });
    const { engine, portalId } = await setup({ emulator });
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');

    const same = await call<ArchiveDiff>(engine, 'backups.compare', {
      id: backup.id,
      accessCode: CODE,
    });
    expect(same.modules.length).toBeGreaterThan(1);
    for (const module of same.modules) {
      expect(module, module.module).toMatchObject({ added: 0, removed: 0, changed: 0, fields: [] });
      expect(module.unchanged).toBe(module.archived);
      expect(module.mirrored).toBe(module.archived);
    }
    const assets = same.modules.find((module) => module.module === 'assets')!;
    expect(assets.archived).toBeGreaterThan(10);

    // The service changes: a name and a custom value edited, one record trashed, one created.
    const token = grantToken(emulator);
    const base = emulator.dcs.us!.api;
    const path = (suffix: string) => `/api/v3/portal/${portalId}/projects/assets/entities${suffix}`;
    const ids = emulator.state.db
      .prepare(
        `SELECT e.id FROM entities e JOIN modules m ON m.id = e.module_id
         WHERE m.portal_id = ? AND m.api_name = 'assets' AND e.trashed_time IS NULL ORDER BY e.id`,
      )
      .pluck()
      .all(Number(portalId)) as number[];
    const [edited, trashed] = [String(ids[0]), String(ids[1])];
    expect(
      (
        await api(base, token, 'PATCH', path(`/${edited}`), {
          name: 'Renamed after the backup',
          cf_serial_number: 'SN-CHANGED',
        })
      ).status,
    ).toBe(200);
    expect((await api(base, token, 'POST', path(`/${trashed}/trash`))).status).toBe(200);
    const created = await api(base, token, 'POST', path(''), {
      name: 'Created after the backup',
      cf_serial_number: 'SN-NEW-1',
    });
    expect(created.status).toBe(201);
    await call(engine, 'sync.start');
    await engine.sync.idle();

    const diff = await call<ArchiveDiff>(engine, 'backups.compare', {
      id: backup.id,
      accessCode: CODE,
    });
    const after = diff.modules.find((module) => module.module === 'assets')!;
    expect(after).toMatchObject({
      archived: assets.archived,
      mirrored: assets.archived,
      added: 1,
      removed: 1,
      changed: 1,
      unchanged: assets.archived - 2,
    });
    expect(after.fields.map((f) => f.field).sort()).toEqual(['Name', 'Serial number'].sort());
    expect(after.examples).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: edited,
          change: 'changed',
          fields: expect.arrayContaining(['Name']),
        }),
        expect.objectContaining({ id: trashed, change: 'removed' }),
        expect.objectContaining({ name: 'Created after the backup', change: 'added' }),
      ]),
    );
    for (const module of diff.modules.filter((m) => m.module !== 'assets')) {
      expect(module, module.module).toMatchObject({ added: 0, removed: 0, changed: 0 });
    }
    expect(
      await refusal(engine, 'backups.compare', { id: backup.id, accessCode: 'not the code' }),
    ).toMatch(/does not open/);
  });
});
