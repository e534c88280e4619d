/**
 * A field made offline with its options, a rename and a place on a second layout, all queued
 * before the first replay; the service refuses the creation (another admin took the name
 * meanwhile). The changes after it are kept, and each says in words, in the Outbox and beside the
 * field and option in the Configure view, what it waits behind and what to do; once the cause is
 * put right and the creation retried, the whole chain goes, in order, and the service holds
 * exactly the final state. Renaming the field puts such a refusal right: the rename goes into the
 * creation not sent yet, which goes out again with the new name.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

describe('a refused creation in the middle of a chain', () => {
  it('holds the later changes, says why, and sends them all after a retry', async () => {
    const s = await outboxSession({ records: 5 });
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layouts = configure.layouts(s.portalId, assets.id).layouts;
    const [first, second] = layouts;
    s.outbox.setWorkOffline(true);
    const created = configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'pick_list',
      settings: plainFieldSettings('Colour'),
      layoutId: first!.id,
      sectionId: null,
    });
    const fieldId = created.fields.find((f) => f.label === 'Colour')!.id;
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId,
      add: ['Red', 'Blue'],
    });
    configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId,
      changes: { label: 'Hue' },
    });
    configure.placeField({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: second!.id,
      fieldKey: fieldId,
      mode: 'place',
      sectionId: second!.sections[0]!.id,
      position: 1,
    });
    // The rename went into the creation, not sent yet. Another admin names a field "hue" on the
    // service meanwhile.
    const taken = db
      .prepare('SELECT id, display_name FROM fields WHERE module_id = ? AND is_default = 0 LIMIT 1')
      .get(Number(assets.id)) as { id: number; display_name: string };
    db.prepare("UPDATE fields SET display_name = 'hue' WHERE id = ?").run(taken.id);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const entries = s.outbox.list();
    expect(entries.map((e) => e.state)).toEqual(['failed', 'pending', 'pending']);
    expect(entries[0]!.error).toMatch(/already used/);
    for (const held of entries.slice(1)) {
      expect(held.error).toMatch(
        /waits behind one queued before it .*Create field “Hue” \(pick list\)\..*was refused.*already used.*retry it, or discard it/,
      );
      // Each names the field that creation makes.
      expect(held.error).toMatch(/discard this one too/);
    }
    // Beside the field and its options in the Configure view, too.
    const field = configure.fields(s.portalId, assets.id).fields.find((f) => f.id === fieldId)!;
    expect(field.pending.map((p) => [p.state, p.error !== null])).toEqual([['failed', true]]);
    const placed = configure
      .layouts(s.portalId, assets.id)
      .layouts.find((l) => l.id === second!.id)!.pending;
    expect(placed.map((p) => p.error)).toEqual([expect.stringMatching(/waits behind/)]);
    const options = configure.fieldOptions(s.portalId, assets.id, fieldId).options;
    expect(options.map((o) => o.pending[0]!.error)).toEqual([
      expect.stringMatching(/waits behind/),
      expect.stringMatching(/waits behind/),
    ]);

    // The other admin's field gets its name back; the creation is retried and the chain goes.
    db.prepare('UPDATE fields SET display_name = ? WHERE id = ?').run(taken.display_name, taken.id);
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const made = db
      .prepare("SELECT id FROM fields WHERE module_id = ? AND display_name = 'Hue'")
      .get(Number(assets.id)) as { id: number };
    expect(
      db
        .prepare(
          "SELECT value FROM field_options WHERE field_id = ? AND kind = 'custom_option' ORDER BY position",
        )
        .pluck()
        .all(made.id),
    ).toEqual(['Red', 'Blue']);
    expect(
      db
        .prepare('SELECT layout_id FROM layout_fields WHERE field_id = ? ORDER BY layout_id')
        .pluck()
        .all(made.id)
        .map(String)
        .sort(),
    ).toEqual([first!.id, second!.id].sort());
    const shown = configure.fields(s.portalId, assets.id).fields.find((f) => f.label === 'Hue')!;
    expect(shown).toMatchObject({ id: String(made.id), localOnly: false, pending: [] });
    expect(shown.layouts.map((l) => l.id).sort()).toEqual([first!.id, second!.id].sort());
  });
});

describe('a field creation refused for its name', () => {
  it('is put right by renaming the field: the creation goes again, then the rest', async () => {
    const s = await outboxSession({ records: 5 });
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layout = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!;
    s.outbox.setWorkOffline(true);
    const created = configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'pick_list',
      settings: plainFieldSettings('Colour'),
      layoutId: layout.id,
      sectionId: null,
    });
    const fieldId = created.fields.find((f) => f.label === 'Colour')!.id;
    configure.changeOptions({ portalId: s.portalId, moduleId: assets.id, fieldId, add: ['Red'] });
    const taken = db
      .prepare('SELECT id FROM fields WHERE module_id = ? AND is_default = 0 LIMIT 1')
      .pluck()
      .get(Number(assets.id)) as number;
    db.prepare("UPDATE fields SET display_name = 'Colour' WHERE id = ?").run(taken);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list().map((e) => e.state)).toEqual(['failed', 'pending']);

    // The refusal's words say to put it right; a rename of the field does.
    const renamed = configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId,
      changes: { label: 'Paint' },
    });
    expect(renamed.fields.find((f) => f.id === fieldId)!.pending).toEqual([
      expect.objectContaining({ action: 'createField', state: 'pending', error: null }),
    ]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const made = db
      .prepare("SELECT id FROM fields WHERE module_id = ? AND display_name = 'Paint'")
      .pluck()
      .get(Number(assets.id)) as number;
    expect(
      db
        .prepare("SELECT value FROM field_options WHERE field_id = ? AND kind = 'custom_option'")
        .pluck()
        .all(made),
    ).toEqual(['Red']);
    expect(db.prepare('SELECT display_name FROM fields WHERE id = ?').pluck().get(taken)).toBe(
      'Colour',
    );
  });
});
