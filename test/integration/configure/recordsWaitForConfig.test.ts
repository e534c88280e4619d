/**
 * A module's record changes wait while a change of its fields or options is queued: the
 * configuration goes first. One that the service refuses holds them, said in words on each held
 * change and in the notice, until it is retried or discarded; then they go.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe("a module's record changes and its configuration changes", () => {
  it('wait while an option rename of the module is refused, say so, and go once it is discarded', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const category = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_category')!;
    const [first] = configure.fieldOptions(s.portalId, assets.id, category.id).options;
    const [record] = s.recordIds as [string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { name: 'Edited while the rename waits' });
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: first!.id, name: 'Mine' }],
    });
    // Another admin renames the option on the service: the queued rename will be refused.
    const patched = await s.call('PATCH', `/portal/${s.portalId}/settings/options`, {
      module: 'assets',
      field: category.id,
      custom_options: [{ id: first!.id, value: 'Theirs' }],
    });
    expect(patched.status).toBe(200);
    const nameBefore = (await s.serverRecord(record)).name as string;

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const entries = s.outbox.list();
    const rename = entries.find((entry) => entry.kind === 'config')!;
    const edit = entries.find((entry) => entry.kind === 'update')!;
    expect(rename.state).toBe('failed');
    expect(edit.state).toBe('pending');
    expect(
      s.writes().filter((w) => w.method === 'PATCH' && w.url.pathname.includes(record)),
    ).toEqual([]);
    expect((await s.serverRecord(record)).name).toBe(nameBefore);
    expect(edit.error).toContain(
      `waits until the configuration changes of ${assets.pluralName} queued before it are sent`,
    );
    expect(edit.error).toContain('Retry it, or discard it in the Outbox');
    const notices = s.events
      .filter((e) => e.event === 'outbox.changed')
      .map((e) => (e.payload as { notice: { message: string } | null }).notice?.message ?? '');
    expect(
      notices.some((m) => m.includes(`A record change of ${assets.pluralName} waits for it`)),
    ).toBe(true);

    s.outbox.discard(rename.id);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).name).toBe('Edited while the rename waits');
  });

  it('wait while a status rename of the module is refused, say so as for options, and go once it is discarded', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const [renamed, other] = configure.choices.statuses(s.portalId, assets.id).statuses;
    const [record] = s.recordIds as [string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { name: 'Edited while the status rename waits' });
    configure.choices.changeStatuses({
      portalId: s.portalId,
      moduleId: assets.id,
      update: [{ id: renamed!.id, name: 'Parked' }],
    });
    // Another admin gives another status that name on the service: the rename will be refused.
    s.emulator.state.db
      .prepare("UPDATE statuses SET name = 'Parked' WHERE id = ?")
      .run(Number(other!.id));
    const nameBefore = (await s.serverRecord(record)).name as string;

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const entries = s.outbox.list();
    const rename = entries.find((entry) => entry.kind === 'config')!;
    const edit = entries.find((entry) => entry.kind === 'update')!;
    expect(rename.state).toBe('failed');
    expect(edit.state).toBe('pending');
    expect(
      s.writes().filter((w) => w.method === 'PATCH' && w.url.pathname.includes(record)),
    ).toEqual([]);
    expect((await s.serverRecord(record)).name).toBe(nameBefore);
    expect(edit.error).toContain(
      `waits until the configuration changes of ${assets.pluralName} queued before it are sent: the service would refuse a record change naming a field or option they change. The first of them: ${rename.config!.summary}. It was refused: `,
    );
    expect(edit.error).toContain('Retry it, or discard it in the Outbox');
    const notices = s.events
      .filter((e) => e.event === 'outbox.changed')
      .map((e) => (e.payload as { notice: { message: string } | null }).notice?.message ?? '');
    expect(
      notices.some((m) => m.includes(`A record change of ${assets.pluralName} waits for it`)),
    ).toBe(true);

    s.outbox.discard(rename.id);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).name).toBe('Edited while the status rename waits');
  });

  it('wait behind a field change in conflict, say what to do, and go once it is resolved', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const notes = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_notes')!;
    const [record] = s.recordIds as [string];
    s.outbox.setWorkOffline(true);
    configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: notes.id,
      changes: { description: 'Mine' },
    });
    s.outbox.edit(s.portalId, record, { name: 'Edited behind a field change' });
    const put = await s.call('PUT', `/portal/${s.portalId}/settings/fields`, {
      module: 'assets',
      id: notes.id,
      field_property: { description: 'Theirs' },
    });
    expect(put.status).toBe(200);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const entries = s.outbox.list();
    const change = entries.find((entry) => entry.kind === 'config')!;
    const edit = entries.find((entry) => entry.kind === 'update')!;
    expect(change.state).toBe('conflict');
    expect(edit.state).toBe('pending');
    expect(edit.error).toContain(
      'is in conflict with the service: resolve it (keep yours or theirs)',
    );
    const notices = s.events
      .filter((e) => e.event === 'outbox.changed')
      .map((e) => (e.payload as { notice: { message: string } | null }).notice?.message ?? '');
    expect(
      notices.some((m) =>
        m.includes(`A record change of ${assets.pluralName} waits for it in the Outbox`),
      ),
    ).toBe(true);

    s.outbox.resolve(change.id, [{ field: 'description', choice: 'theirs' }]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).name).toBe('Edited behind a field change');
  });
});
