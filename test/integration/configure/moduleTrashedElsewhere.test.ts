/**
 * A module trashed on the service by another admin while changes of it wait here (configuration
 * issue #4's other half): a sync finds it gone and takes it out of the mirror. Its queued changes
 * are kept, not sent again and again: they stop with words naming the module, saying it was
 * trashed (or deleted) on the service, and what to do; restored there and synced, a retry sends
 * them.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';
import { bulkEditOn } from '../bulkEdit/bulkEditOn';

const GONE =
  "“Assets” was trashed on the service (or deleted there for good): the last sync no longer found it among the portal's modules, so this change cannot be sent. It is kept: restore the module from the recycle bin on the service, sync, then retry it; or discard it.";

describe('a module trashed on the service while changes of it wait here', () => {
  it('stops a record change of it with those words, sending nothing', async () => {
    const s = await outboxSession();
    const [record] = s.recordIds as [string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { name: 'Edited before the trash' });
    await s.call('DELETE', `/portal/${s.portalId}/settings/modules/assets`);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toMatchObject([
      { kind: 'update', state: 'failed', error: GONE, module: 'Assets' },
    ]);
    expect(s.writes()).toEqual([]);
  });

  it('keeps its configuration and record changes, stopped with words, until it is restored', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const notes = configure
      .fields(s.portalId, s.module.id)
      .fields.find((f) => f.apiName === 'cf_notes')!;
    const [record] = s.recordIds as [string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { name: 'Edited before the trash' });
    configure.updateField({
      portalId: s.portalId,
      moduleId: s.module.id,
      fieldId: notes.id,
      changes: { description: 'Mine' },
    });
    const trashed = await s.call('DELETE', `/portal/${s.portalId}/settings/modules/assets`);
    expect(trashed.status).toBeLessThan(300);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const writes = s.writes().length;
    const entries = s.outbox.list();
    // The field change stops with the words; the record change waits behind it, saying them too.
    expect(entries.map((entry) => [entry.kind, entry.state])).toEqual([
      ['update', 'pending'],
      ['config', 'failed'],
    ]);
    for (const entry of entries) expect(entry.error).toContain(GONE);
    // Named as the sync last knew the module (modules_gone), not by its id or as "module".
    expect(entries.map((entry) => entry.module)).toEqual(['Assets', 'Assets · fields']);
    expect(entries[0]!.error).toContain('the configuration changes of Assets');
    expect(entries[0]!.error).not.toContain(s.module.id);
    const notices = s.events
      .filter((e) => e.event === 'outbox.changed')
      .map((e) => (e.payload as { notice: { message: string } | null }).notice?.message ?? '');
    expect(notices.some((m) => m.includes('A record change of Assets waits for it'))).toBe(true);
    // Stopped, not retried again and again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await s.outbox.idle();
    expect(s.writes()).toHaveLength(writes);

    // Restored on the service and synced: a retry sends them.
    const recovered = await s.call(
      'POST',
      `/portal/${s.portalId}/settings/modules/bin/assets/recover`,
    );
    expect(recovered.status).toBeLessThan(300);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).name).toBe('Edited before the trash');
  });

  it('names the module of a bulk edit waiting in the Outbox as the sync last knew it', async () => {
    const s = await outboxSession();
    const bulk = bulkEditOn(s);
    s.outbox.setWorkOffline(true);
    const { previewId } = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids: s.recordIds.slice(0, 2) },
      field: 'name',
      action: 'set',
      value: 'Renamed in bulk',
    });
    await bulk.apply({ previewId });
    expect(bulk.groups().map((group) => group.module)).toEqual(['Assets']);
    await s.call('DELETE', `/portal/${s.portalId}/settings/modules/assets`);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    expect(bulk.groups().map((group) => group.module)).toEqual(['Assets']);
  });
});
