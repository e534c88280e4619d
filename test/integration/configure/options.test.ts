/**
 * A field's options administered offline against the emulator: options added to a pick list made
 * offline go after the field (their temporary ids replaced, so a rename of one queued before the
 * add answered goes too); an existing option's usage counts the mirrored records holding it;
 * removing it takes it from the service's records; an add whose answer was lost is not sent twice;
 * the rules (duplicates, the field's maximum) refuse before anything is queued.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

const PLAIN = plainFieldSettings('Fuel');

describe("a field's options administered offline", () => {
  it('adds to a field made offline, renames, removes with usage, exactly once', async () => {
    const s = await outboxSession({ records: 80 });
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layoutId = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!.id;
    const category = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.type === 'pick_list')!;
    const existing = configure.fieldOptions(s.portalId, assets.id, category.id);
    const used = existing.options.find((option) => option.records > 0)!;
    expect(used).toBeDefined();
    // The usage is the mirror's own count of records holding the option.
    const counted = s.store.db
      .prepare(
        `SELECT count(*) FROM records r JOIN modules m ON m.module_key = r.module_key
         WHERE m.portal_id = ? AND m.id = ? AND json_extract(r.custom, ?) = ?`,
      )
      .pluck()
      .get(s.portalId, assets.id, `$."${category.apiName}"`, used.name);
    expect(used.records).toBe(counted);

    s.outbox.setWorkOffline(true);
    expect(() =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: assets.id,
        fieldId: category.id,
        add: [used.name.toUpperCase()],
      }),
    ).toThrow(/already an option of this field/);
    let fuel = configure
      .createField({
        portalId: s.portalId,
        moduleId: assets.id,
        type: 'pick_list',
        settings: PLAIN,
        layoutId,
        sectionId: null,
      })
      .fields.find((f) => f.label === 'Fuel')!;
    let view = configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: fuel.id,
      add: ['Petrol', 'Diesel', 'Electrik'],
    });
    expect(view.options.map((o) => o.name)).toEqual(['Petrol', 'Diesel', 'Electrik']);
    const typo = view.options.find((o) => o.name === 'Electrik')!;
    expect(typo.id).toMatch(/^tmp-o-/);
    view = configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: fuel.id,
      rename: [{ id: typo.id, name: 'Electric' }],
      move: { id: typo.id, position: 1 },
    });
    expect(view.options.map((o) => o.name)).toEqual(['Electric', 'Petrol', 'Diesel']);
    expect(() =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: assets.id,
        fieldId: fuel.id,
        add: Array.from({ length: 48 }, (_, i) => `Blend ${i}`),
      }),
    ).toThrow(/at most 50 options \(51 after this change\)/);
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      remove: [used.id],
    });

    // The add's answer is lost once; the retry sends only what is not there.
    let lost = false;
    s.setFault((method, url) => {
      if (!lost && method === 'POST' && url.pathname.endsWith('/settings/options')) {
        lost = true;
        return 'lose-answer';
      }
      return 'pass';
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const fieldRow = db.prepare("SELECT id FROM fields WHERE display_name = 'Fuel'").get() as {
      id: number;
    };
    const names = db
      .prepare(
        "SELECT value FROM field_options WHERE field_id = ? AND kind = 'custom_option' ORDER BY position",
      )
      .pluck()
      .all(fieldRow.id);
    expect(names).toEqual(['Electric', 'Petrol', 'Diesel']);
    // The service's records of this portal no longer hold the removed option.
    const holding = db
      .prepare(
        `SELECT count(*) FROM entities e JOIN modules m ON m.id = e.module_id
         WHERE m.portal_id = ? AND json_extract(e.custom, ?) = ?`,
      )
      .pluck()
      .get(Number(s.portalId), `$."${category.apiName}"`, used.name);
    expect(holding).toBe(0);
    fuel = configure.fields(s.portalId, assets.id).fields.find((f) => f.label === 'Fuel')!;
    expect(
      configure
        .fieldOptions(s.portalId, assets.id, fuel.id)
        .options.map((o) => [o.name, o.localOnly]),
    ).toEqual([
      ['Electric', false],
      ['Petrol', false],
      ['Diesel', false],
    ]);
  });

  it("keeps the mirror's records as the service relabels them when options are renamed or removed", async () => {
    const s = await outboxSession({ records: 80 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const fields = configure.fields(s.portalId, assets.id).fields;
    for (const type of ['pick_list', 'multi_select']) {
      const field = fields.find((f) => f.type === type)!;
      const options = configure.fieldOptions(s.portalId, assets.id, field.id).options;
      const [renamed, removed] = options.filter((o) => o.records > 0) as [
        (typeof options)[0],
        (typeof options)[0],
      ];
      expect(removed).toBeDefined();
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: assets.id,
        fieldId: field.id,
        rename: [{ id: renamed.id, name: `${renamed.name} (renamed)` }],
        remove: [removed.id],
      });
    }
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    // Every record of the module: the mirror's values of both fields equal the service's own.
    const ids = s.store.db
      .prepare(
        `SELECT r.id FROM records r JOIN modules m ON m.module_key = r.module_key
         WHERE m.portal_id = ? AND m.id = ?`,
      )
      .pluck()
      .all(s.portalId, assets.id) as string[];
    expect(ids.length).toBeGreaterThan(10);
    for (const type of ['pick_list', 'multi_select']) {
      const field = fields.find((f) => f.type === type)!;
      for (const id of ids) {
        const mirrored = s.store.db
          .prepare('SELECT json_extract(custom, ?) FROM records WHERE portal_id = ? AND id = ?')
          .pluck()
          .get(`$."${field.apiName}"`, s.portalId, id) as string | null;
        const served = await s.serverRecord(id);
        const theirs = served?.[field.apiName!] ?? null;
        const mine =
          mirrored === null ? null : type === 'multi_select' ? JSON.parse(mirrored) : mirrored;
        expect(mine ?? (type === 'multi_select' ? [] : null), `${field.apiName} of ${id}`).toEqual(
          theirs ?? (type === 'multi_select' ? [] : null),
        );
      }
    }
  });
});
