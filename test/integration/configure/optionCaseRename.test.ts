/**
 * An option renamed by case only ("Hardware" → "hardware") is a rename like any other: it is sent,
 * and afterwards the service, the option list and the mirror's records all hold the new name (the
 * replay once took a case-insensitive match for "already delivered" and relabelled the records
 * anyway, leaving them holding a name no option had).
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('an option renamed by case only', () => {
  it('is sent, and the mirror agrees with the service', async () => {
    const s = await outboxSession({ records: 60 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const category = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_category')!;
    const option = configure
      .fieldOptions(s.portalId, assets.id, category.id)
      .options.find((o) => o.records > 0)!;
    const lower = option.name.toLowerCase();
    expect(lower).not.toBe(option.name);

    const view = configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: option.id, name: lower }],
    });
    expect(view.options.find((o) => o.id === option.id)!.name).toBe(lower);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);

    const onService = s.emulator.state.db
      .prepare('SELECT value FROM field_options WHERE id = ?')
      .pluck()
      .get(Number(option.id));
    const shown = configure
      .fieldOptions(s.portalId, assets.id, category.id)
      .options.find((o) => o.id === option.id)!;
    const mirroredValues = s.store.db
      .prepare(
        `SELECT DISTINCT json_extract(r.custom, '$.cf_category') FROM records r
         JOIN modules m ON m.module_key = r.module_key
         WHERE m.portal_id = ? AND m.id = ? AND lower(json_extract(r.custom, '$.cf_category')) = ?`,
      )
      .pluck()
      .all(s.portalId, assets.id, lower);
    const servedValues = s.emulator.state.db
      .prepare(
        `SELECT DISTINCT json_extract(custom, '$.cf_category') FROM entities
         WHERE module_id = ? AND lower(json_extract(custom, '$.cf_category')) = ?`,
      )
      .pluck()
      .all(Number(assets.id), lower);
    expect({
      onService,
      shown: shown.name,
      records: shown.records,
      mirroredValues,
      servedValues,
    }).toEqual({
      onService: lower,
      shown: lower,
      records: option.records,
      mirroredValues: [lower],
      servedValues: [lower],
    });
  });
});
