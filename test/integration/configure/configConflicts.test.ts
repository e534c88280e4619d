/**
 * Configuration changed here and on the service meanwhile. A field's settings: the replay reads the field first;
 * a setting the service still has at its base is sent, one already at my value counts as
 * delivered, and one the service changed otherwise is a conflict, setting by setting, resolved in
 * the Outbox (mine sends mine; theirs sends nothing more). Nothing made on the service is
 * overwritten unseen.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe("a field's settings changed on both sides", () => {
  it('sends what the service left alone and holds what it changed until chosen', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const notes = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_notes')!;
    const serverField = () =>
      s.emulator.state.db
        .prepare('SELECT display_name, is_mandatory, field_property FROM fields WHERE id = ?')
        .get(Number(notes.id)) as {
        display_name: string;
        is_mandatory: number;
        field_property: string;
      };

    s.outbox.setWorkOffline(true);
    configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: notes.id,
      changes: { description: 'Mine', mandatory: true, label: 'Remarks' },
    });
    // Meanwhile, another admin on the service: a description of theirs, and the same new name.
    const put = await s.call('PUT', `/portal/${s.portalId}/settings/fields`, {
      module: 'assets',
      id: notes.id,
      display_name: 'Remarks',
      field_property: { description: 'Theirs' },
    });
    expect(put.status).toBe(200);
    const putsBefore = s.writes().length;

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [entry] = s.outbox.list();
    expect(entry).toMatchObject({ state: 'conflict' });
    expect(entry!.conflict!.fields).toEqual([
      expect.objectContaining({ field: 'description', base: null, mine: 'Mine', theirs: 'Theirs' }),
    ]);
    // Mandatory went; the name was already theirs and mine (delivered); theirs is kept.
    const sent = s.writes().slice(putsBefore);
    expect(sent).toHaveLength(1);
    expect(serverField().is_mandatory).toBe(1);
    expect(serverField().display_name).toBe('Remarks');
    expect(JSON.parse(serverField().field_property).description).toBe('Theirs');
    // The view shows mine while it waits.
    expect(
      configure.fields(s.portalId, assets.id).fields.find((f) => f.id === notes.id)!.description,
    ).toBe('Mine');

    s.outbox.resolve(entry!.id, [{ field: 'description', choice: 'mine' }]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(JSON.parse(serverField().field_property).description).toBe('Mine');

    // Theirs: nothing more is sent, and the operation is gone.
    s.outbox.setWorkOffline(true);
    configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: notes.id,
      changes: { description: 'Mine again' },
    });
    await s.call('PUT', `/portal/${s.portalId}/settings/fields`, {
      module: 'assets',
      id: notes.id,
      field_property: { description: 'Theirs again' },
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [second] = s.outbox.list();
    expect(second).toMatchObject({ state: 'conflict' });
    const writes = s.writes().length;
    s.outbox.resolve(second!.id, [{ field: 'description', choice: 'theirs' }]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(s.writes().length).toBe(writes);
    expect(JSON.parse(serverField().field_property).description).toBe('Theirs again');
  });

  it("holds a layout's rename when the service renamed it too, and sends its type", async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layout = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!;
    const server = () =>
      s.emulator.state.db
        .prepare('SELECT name, type FROM layouts WHERE id = ?')
        .get(Number(layout.id)) as { name: string; type: string };
    s.outbox.setWorkOffline(true);
    configure.updateLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: layout.id,
      changes: { name: 'Mine', type: layout.type === 'public' ? 'private' : 'public' },
    });
    const patched = await s.call('PATCH', `/portal/${s.portalId}/settings/layouts/${layout.id}`, {
      module: 'assets',
      name: 'Theirs',
    });
    expect(patched.status).toBe(200);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [entry] = s.outbox.list();
    expect(entry).toMatchObject({ state: 'conflict' });
    expect(entry!.conflict!.fields).toEqual([
      expect.objectContaining({ field: 'name', base: layout.name, mine: 'Mine', theirs: 'Theirs' }),
    ]);
    expect(server()).toEqual({
      name: 'Theirs',
      type: layout.type === 'public' ? 'private' : 'public',
    });
    s.outbox.resolve(entry!.id, [{ field: 'name', choice: 'mine' }]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(server().name).toBe('Mine');
  });

  it('refuses an option rename in words when the service renamed or removed it meanwhile', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const category = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_category')!;
    const [first, second] = configure.fieldOptions(s.portalId, assets.id, category.id).options;
    s.outbox.setWorkOffline(true);
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: first!.id, name: 'Mine' }],
    });
    const patched = await s.call('PATCH', `/portal/${s.portalId}/settings/options`, {
      module: 'assets',
      field: category.id,
      custom_options: [{ id: first!.id, value: 'Theirs' }],
    });
    expect(patched.status).toBe(200);
    const writes = s.writes().length;
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [entry] = s.outbox.list();
    expect(entry).toMatchObject({ state: 'failed' });
    expect(entry!.error).toContain(
      `“${first!.name}” was renamed to “Theirs” on the service meanwhile; your rename to “Mine” was not sent`,
    );
    expect(s.writes().length).toBe(writes);
    const value = () =>
      s.emulator.state.db
        .prepare('SELECT value FROM field_options WHERE id = ?')
        .pluck()
        .get(Number(first!.id));
    expect(value()).toBe('Theirs');

    // A rename the service already made the same way is delivered without a call.
    s.outbox.discard(entry!.id);
    s.outbox.setWorkOffline(true);
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: second!.id, name: 'Both' }],
    });
    await s.call('PATCH', `/portal/${s.portalId}/settings/options`, {
      module: 'assets',
      field: category.id,
      custom_options: [{ id: second!.id, value: 'Both' }],
    });
    const before = s.writes().length;
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(s.writes().length).toBe(before);
  });
});
