/**
 * A field's settings changed here and on the service meanwhile: the replay reads the field first;
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
});
