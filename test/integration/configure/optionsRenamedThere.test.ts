/**
 * Options renamed on the service by someone else while record changes naming them wait in the
 * outbox: once a sync has seen the renames, the queued changes follow them (value and base), so
 * the replay delivers what the user chose instead of being refused whole ("not an option") or
 * meeting the new name as a conflict nobody made.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('record changes queued before options were renamed on the service', () => {
  it('reach the service by the options’ new names once a sync has seen the renames', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    // The engine's wiring (src/main/engine.ts): the sync tells configure what it found.
    s.engine.onEvent((event) => {
      if (event.type === 'optionsRenamed') configure.optionsRenamedThere(event);
    });
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const fieldOf = (apiName: string) =>
      configure.fields(s.portalId, assets.id).fields.find((f) => f.apiName === apiName)!;
    const category = fieldOf('cf_category');
    const tags = fieldOf('cf_tags');
    const optionsOf = (fieldId: string) =>
      configure.fieldOptions(s.portalId, assets.id, fieldId).options;

    // Two records holding a category: one is set to another option (its base is renamed there),
    // the other to an option renamed there. A third gets a tag renamed there.
    const held: { id: string; category: string }[] = [];
    for (const id of s.recordsWithField('cf_category')) {
      const value = (await s.serverRecord(id)).cf_category as string | null;
      if (value) held.push({ id, category: value });
      if (held.length === 2) break;
    }
    const [a, b] = held as [(typeof held)[0], (typeof held)[0]];
    const categories = optionsOf(category.id);
    const otherThan = (...names: string[]) => categories.find((o) => !names.includes(o.name))!;
    const forA = otherThan(a.category, b.category);
    const forB = otherThan(a.category, b.category, forA.name);
    const [c] = s.recordsWithField('cf_tags').filter((id) => id !== a.id && id !== b.id) as [
      string,
    ];
    const tagsOfC = ((await s.serverRecord(c)).cf_tags ?? []) as string[];
    const tag = optionsOf(tags.id).find((o) => !tagsOfC.includes(o.name))!;

    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a.id, { cf_category: forA.name });
    s.outbox.edit(s.portalId, b.id, { cf_category: forB.name });
    s.outbox.edit(s.portalId, c, { cf_tags: [...tagsOfC, tag.name] });

    const renameThere = async (fieldId: string, id: string, value: string) => {
      const reply = await s.call('PATCH', `/portal/${s.portalId}/settings/options`, {
        module: 'assets',
        field: fieldId,
        custom_options: [{ id, value }],
      });
      expect(reply.status).toBe(200);
    };
    const aBase = categories.find((o) => o.name === a.category)!;
    await renameThere(category.id, aBase.id, `${a.category} (renamed there)`);
    await renameThere(category.id, forB.id, `${forB.name} (renamed there)`);
    await renameThere(tags.id, tag.id, `${tag.name} (renamed there)`);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');

    // The table shows the service's names, with the queued values laid over them.
    const shown = (recordId: string, field: string) =>
      JSON.parse(
        s.store.db
          .prepare('SELECT value FROM record_edits WHERE record_id = ? AND field = ?')
          .pluck()
          .get(recordId, field) as string,
      ) as unknown;
    expect(shown(b.id, 'cf_category')).toBe(`${forB.name} (renamed there)`);
    expect(shown(c, 'cf_tags')).toEqual([...tagsOfC, `${tag.name} (renamed there)`]);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(a.id)).cf_category).toBe(forA.name);
    expect((await s.serverRecord(b.id)).cf_category).toBe(`${forB.name} (renamed there)`);
    expect([...((await s.serverRecord(c)).cf_tags as string[])].sort()).toEqual(
      [...tagsOfC, `${tag.name} (renamed there)`].sort(),
    );
  });
});
