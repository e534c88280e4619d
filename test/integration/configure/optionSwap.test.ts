/**
 * Two options swap their names in one change, on a multi-select and on a pick list: every record
 * that held either option holds the other's name afterwards, in the mirror as on the service.
 * Relabelled one rename after the other, both once ended holding the same name (the mirror for
 * both field types; the emulator, standing in for the service, for pick lists).
 * `optionRenames.property.test.ts` tries any set of renames.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('two options swap their names in one change', () => {
  it.each([
    ['cf_tags', 'a multi-select'],
    ['cf_category', 'a pick list'],
  ])('on %s (%s): each record keeps its option under the new name', async (apiName) => {
    const s = await outboxSession({ records: 80 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const field = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === apiName)!;
    const [a, b] = configure
      .fieldOptions(s.portalId, assets.id, field.id)
      .options.filter((o) => o.records > 0);
    const names = (id: string) => {
      const value = s.store.db
        .prepare(`SELECT custom ->> '$.${apiName}' FROM records WHERE portal_id = ? AND id = ?`)
        .pluck()
        .get(s.portalId, id) as string | null;
      if (value === null) return [];
      return apiName === 'cf_tags' ? (JSON.parse(value) as string[]).sort() : [value];
    };
    const before = new Map(s.recordsWithField(apiName).map((id) => [id, names(id)]));

    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: field.id,
      rename: [
        { id: a!.id, name: b!.name },
        { id: b!.id, name: a!.name },
      ],
    });
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);

    const swap = (name: string) => (name === a!.name ? b!.name : name === b!.name ? a!.name : name);
    const mirrored = new Map<string, string[]>();
    const served = new Map<string, string[]>();
    const expected = new Map<string, string[]>();
    for (const [id, held] of before) {
      mirrored.set(id, names(id));
      const value = (await s.serverRecord(id))?.[apiName] as string | string[] | null | undefined;
      served.set(id, value === null || value === undefined ? [] : [value].flat().sort());
      expected.set(id, held.map(swap).sort());
    }
    expect(mirrored).toEqual(expected);
    expect(served).toEqual(expected);
  });
});
