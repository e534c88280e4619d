import { describe, expect, it } from 'vitest';
import { listedPages, syncSession } from './syncSession';

type Session = Awaited<ReturnType<typeof syncSession>>;

const recordPath = (portalId: string, id = '') =>
  `/portal/${portalId}/projects/assets/entities${id ? `/${id}` : ''}`;

async function create(s: Session, portalId: string, name: string): Promise<string> {
  const reply = await s.call('POST', recordPath(portalId), { name, cf_serial_number: 'SN-NEW' });
  expect(reply.status).toBe(201);
  return reply.body.entity.id as string;
}

async function remove(s: Session, portalId: string, id: string): Promise<void> {
  expect((await s.call('POST', `${recordPath(portalId, id)}/trash`)).status).toBe(200);
  expect((await s.call('DELETE', recordPath(portalId, id))).status).toBe(204);
}

const row = (s: Session, portalId: string, id: string) =>
  s.store.db.prepare('SELECT * FROM records WHERE portal_id = ? AND id = ?').get(portalId, id) as
    Record<string, unknown> | undefined;

describe('incremental sync against the emulator', () => {
  it('picks up an edit, a new record, a deletion and a trashed record, reading only what changed', async () => {
    const s = await syncSession({ engine: { pageSize: 10 } });
    await s.engine.syncAccount(s.account).done;
    const portalId = s.emulator.portals[0]!;
    const [edited, trashed, deleted] = s.serverIds(portalId).get('assets')!;

    expect(
      (await s.call('PATCH', recordPath(portalId, edited), { name: 'Renamed laptop' })).status,
    ).toBe(200);
    const added = await create(s, portalId, 'Brand new scanner');
    expect((await s.call('POST', `${recordPath(portalId, trashed)}/trash`)).status).toBe(200);
    await remove(s, portalId, deleted!);

    s.sent.length = 0;
    const result = await s.engine.syncAccount(s.account).done;
    expect(result.state).toBe('done');
    expect(row(s, portalId, edited!)).toMatchObject({ name: 'Renamed laptop' });
    expect(row(s, portalId, added)).toMatchObject({
      name: 'Brand new scanner',
      trashed_time: null,
    });
    expect(row(s, portalId, deleted!)).toBeUndefined();
    // A trashed record stays, marked with its trashed_time, out of lists and counts.
    expect(row(s, portalId, trashed!)?.trashed_time).toEqual(expect.any(String));
    const assets = s.mirror.metadata.modules(portalId).find((m) => m.apiName === 'assets')!;
    const listed = s.mirror.query.queryRecords({
      portalId,
      moduleId: assets.id,
      offset: 0,
      limit: 1000,
    });
    expect(listed.rows.map((r) => r.id)).not.toContain(trashed);
    expect(listed.rows.map((r) => r.id)).toContain(added);
    for (const p of s.emulator.portals) expect(s.mirroredIds(p)).toEqual(s.serverIds(p));

    // The untouched modules were asked only for their changes (filtered by last change) and the
    // newest change, never walked page by page; assets, whose count changed, was reconciled.
    const pages = listedPages(s.sent);
    const changesOnly = (p: string) =>
      p.endsWith(':filter(last_updated_time)') || p.endsWith(':1:DESC(last_updated_time)');
    expect(pages.filter((p) => p.startsWith('vendors:') && !changesOnly(p))).toEqual([]);
    expect(pages.filter((p) => p.startsWith('change_requests:') && !changesOnly(p))).toEqual([]);
    expect(pages.filter((p) => p.startsWith('assets:') && !p.includes('(')).length).toBeGreaterThan(
      1,
    );
    // Per portal, one call for the newest change and one window of the (no) changes.
    const vendorCalls = pages.filter((p) => p.startsWith('vendors:')).sort();
    expect(vendorCalls).toEqual(
      s.emulator.portals
        .flatMap(() => [
          'vendors:1:DESC(last_updated_time)',
          'vendors:@1:filter(last_updated_time)',
        ])
        .sort(),
    );
  });

  it('repairs what the counts cannot see at the periodic reconciliation', async () => {
    const s = await syncSession();
    await s.engine.syncAccount(s.account).done;
    const portalId = s.emulator.portals[0]!;
    const assets = s.mirror.metadata.modules(portalId).find((m) => m.apiName === 'assets')!;
    const [lost, other] = s.serverIds(portalId).get('assets')!;
    // A record missing from the mirror and a phantom in its place (as a page shift during a pull
    // could leave it): the counts still agree.
    const template = s.store.db
      .prepare('SELECT * FROM records WHERE portal_id = ? AND id = ?')
      .get(portalId, other) as Record<string, unknown>;
    s.mirror.records.deleteRecords(portalId, [lost!]);
    s.mirror.records.upsertRecords([
      {
        portalId,
        moduleId: assets.id,
        id: '999',
        name: 'Phantom',
        description: '',
        statusId: template.status_id as string,
        layoutId: template.layout_id as string,
        projectId: null,
        projectName: null,
        ownerZpuid: null,
        isClosed: false,
        isExternal: false,
        createdTime: template.created_time as string,
        lastUpdatedTime: template.last_updated_time as string,
        trashedTime: null,
        custom: {},
      },
    ]);

    await s.engine.syncAccount(s.account).done;
    expect(row(s, portalId, '999')).toBeDefined();
    expect(row(s, portalId, lost!)).toBeUndefined();

    // Once the reconciliation is due, every id is compared.
    const later = s.newEngine({ reconcileIntervalMs: 0 });
    expect((await later.syncAccount(s.account).done).state).toBe('done');
    expect(row(s, portalId, '999')).toBeUndefined();
    expect(row(s, portalId, lost!)).toBeDefined();
    for (const p of s.emulator.portals) expect(s.mirroredIds(p)).toEqual(s.serverIds(p));
  });

  it('brings back a record restored from the trash', async () => {
    const s = await syncSession();
    await s.engine.syncAccount(s.account).done;
    const portalId = s.emulator.portals[0]!;
    const [id] = s.serverIds(portalId).get('assets')!;
    await s.call('POST', `${recordPath(portalId, id)}/trash`);
    await s.engine.syncAccount(s.account).done;
    expect(row(s, portalId, id!)?.trashed_time).toEqual(expect.any(String));
    // Restoring leaves last_updated_time alone; the count tells.
    expect((await s.call('POST', `${recordPath(portalId, id)}/restore`)).status).toBe(200);
    await s.engine.syncAccount(s.account).done;
    expect(row(s, portalId, id!)?.trashed_time).toBeNull();
    expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));
  });
});
