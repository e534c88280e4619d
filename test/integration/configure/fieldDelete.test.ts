/**
 * A deleted field's values leave the mirror's records with it, as they leave the service's (which
 * does so without a new last_updated_time, so no pull brings it): a new field made with the same
 * API name starts empty here as there, before and after a sync.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

const NOTES = plainFieldSettings('Notes');

describe('a deleted field', () => {
  it("takes its values from the mirror's records; a new field of its API name starts empty", async () => {
    const s = await outboxSession({ records: 60 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const notes = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_notes')!;
    expect(configure.fieldUsage(s.portalId, assets.id, notes.id).records).toBeGreaterThan(0);
    const layoutId = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!.id;
    const mirroredValues = () =>
      s.store.db
        .prepare(
          `SELECT count(*) FROM records r JOIN modules m ON m.module_key = r.module_key
           WHERE m.portal_id = ? AND m.id = ? AND json_extract(r.custom, '$.cf_notes') IS NOT NULL`,
        )
        .pluck()
        .get(s.portalId, assets.id);

    configure.deleteField(s.portalId, assets.id, notes.id, notes.label);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(mirroredValues()).toBe(0);

    configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'multi_line',
      settings: NOTES,
      layoutId,
      sectionId: null,
    });
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const fresh = configure.fields(s.portalId, assets.id).fields.find((f) => f.label === 'Notes')!;
    expect(fresh.apiName).toBe('cf_notes'); // the service gives the API name again
    const served = s.emulator.state.db
      .prepare(
        "SELECT count(*) FROM entities WHERE module_id = ? AND json_extract(custom, '$.cf_notes') IS NOT NULL",
      )
      .pluck()
      .get(Number(assets.id));
    expect(served).toBe(0);

    const synced = await s.engine.syncAccount(s.account).done;
    expect(synced.state).toBe('done');
    expect({
      usage: configure.fieldUsage(s.portalId, assets.id, fresh.id).records,
      mirrored: mirroredValues(),
    }).toEqual({ usage: 0, mirrored: 0 });
  });
});
