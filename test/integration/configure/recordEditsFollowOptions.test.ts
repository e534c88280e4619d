/**
 * Record changes queued before a change of their module's options or fields: configuration goes
 * first, so a queued edit naming an option follows its rename (and goes back when the rename is
 * discarded), and an option removed or a field deleted that a queued edit holds is refused in
 * words before anything is queued, never cleared or refused unseen.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

async function setUp() {
  const s = await outboxSession();
  const configure = configureOn(s);
  const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
  const fieldOf = (apiName: string) =>
    configure.fields(s.portalId, assets.id).fields.find((f) => f.apiName === apiName)!;
  const category = fieldOf('cf_category');
  const tags = fieldOf('cf_tags');
  const optionsOf = (fieldId: string) =>
    configure.fieldOptions(s.portalId, assets.id, fieldId).options;
  const [record] = s.recordsWithField('cf_category') as [string];
  const [tagged] = s.recordsWithField('cf_tags').filter((id) => id !== record) as [string];
  const held = (await s.serverRecord(record)).cf_category as string | null;
  // An option the record does not hold yet: the edit changes it.
  const chosen = optionsOf(category.id).find((o) => o.name !== held)!;
  const tag = optionsOf(tags.id)[0]!;
  const mine = () =>
    Object.fromEntries(
      s.outbox
        .list()
        .filter((entry) => entry.kind === 'update')
        .flatMap((entry) => entry.fields.map((f) => [`${entry.recordId}.${f.field}`, f.mine])),
    );
  const overlay = (recordId: string, field: string) =>
    JSON.parse(
      s.store.db
        .prepare('SELECT value FROM record_edits WHERE record_id = ? AND field = ?')
        .pluck()
        .get(recordId, field) as string,
    ) as unknown;
  return { s, configure, assets, category, tags, record, tagged, chosen, tag, mine, overlay };
}

describe('record changes queued before a change of their options', () => {
  it('follow an option rename queued after them and reach the service by the new name', async () => {
    const { s, configure, assets, category, tags, record, tagged, chosen, tag, mine, overlay } =
      await setUp();
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name, name: 'Kept too' });
    s.outbox.edit(s.portalId, tagged, { cf_tags: [tag.name] });
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: chosen.id, name: 'Renamed choice' }],
    });
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: tags.id,
      rename: [{ id: tag.id, name: 'Renamed tag' }],
    });
    expect(mine()).toEqual({
      [`${record}.cf_category`]: 'Renamed choice',
      [`${record}.name`]: 'Kept too',
      [`${tagged}.cf_tags`]: ['Renamed tag'],
    });
    expect(overlay(record, 'cf_category')).toBe('Renamed choice');
    expect(overlay(tagged, 'cf_tags')).toEqual(['Renamed tag']);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const served = await s.serverRecord(record);
    expect({ category: served.cf_category, name: served.name }).toEqual({
      category: 'Renamed choice',
      name: 'Kept too',
    });
    expect((await s.serverRecord(tagged)).cf_tags).toEqual(['Renamed tag']);
  });

  it('go back to the old name when the rename is discarded', async () => {
    const { s, configure, assets, category, record, chosen, mine, overlay } = await setUp();
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: chosen.id, name: 'Renamed choice' }],
    });
    const rename = s.outbox.list().find((entry) => entry.kind === 'config')!;
    s.outbox.discard(rename.id);
    expect(mine()).toEqual({ [`${record}.cf_category`]: chosen.name });
    expect(overlay(record, 'cf_category')).toBe(chosen.name);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).cf_category).toBe(chosen.name);
  });

  it('refuse in words to remove an option a queued record change holds, queuing nothing', async () => {
    const { s, configure, assets, category, record, chosen, mine } = await setUp();
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    expect(() =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: assets.id,
        fieldId: category.id,
        remove: [chosen.id],
      }),
    ).toThrow(
      `A record change waiting in the Outbox holds “${chosen.name}” in ${category.label}; removed first, the option would be cleared from that record or the change refused. Nothing was queued;`,
    );
    expect(s.outbox.list().map((entry) => entry.kind)).toEqual(['update']);
    expect(mine()).toEqual({ [`${record}.cf_category`]: chosen.name });
  });

  it('meet an option removed after them as the service will: their base cleared, put back on discard', async () => {
    const { s, configure, assets, category, record, chosen } = await setUp();
    const held = (await s.serverRecord(record)).cf_category as string;
    const heldOption = configure
      .fieldOptions(s.portalId, assets.id, category.id)
      .options.find((o) => o.name === held)!;
    const base = () => s.outbox.list().find((entry) => entry.kind === 'update')!.fields[0]!.base;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    const remove = () =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: assets.id,
        fieldId: category.id,
        remove: [heldOption.id],
      });
    remove();
    expect(base()).toBeNull();
    s.outbox.discard(s.outbox.list().find((entry) => entry.kind === 'config')!.id);
    expect(base()).toBe(held);

    // Sent after the removal, the edit meets the cleared value it was based on: no conflict.
    remove();
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).cf_category).toBe(chosen.name);
  });

  it('made after an option removal, based on the cleared value, get the option back as their base when it is discarded', async () => {
    const { s, configure, assets, category, record, chosen } = await setUp();
    const held = (await s.serverRecord(record)).cf_category as string;
    const heldOption = configure
      .fieldOptions(s.portalId, assets.id, category.id)
      .options.find((o) => o.name === held)!;
    const base = () => s.outbox.list().find((entry) => entry.kind === 'update')!.fields[0]!.base;
    s.outbox.setWorkOffline(true);
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      remove: [heldOption.id],
    });
    // Made now, the edit is based on the record as the service will hold it: the option cleared.
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    expect(base()).toBeNull();
    s.outbox.discard(s.outbox.list().find((entry) => entry.kind === 'config')!.id);
    expect(base()).toBe(held);

    // Left based on a cleared value the service never had, it met the option as someone else's
    // change: a conflict.
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).cf_category).toBe(chosen.name);
  });

  it('keep an option added offline that one of them holds: its discard is refused in words', async () => {
    const { s, configure, assets, category, record, mine } = await setUp();
    s.outbox.setWorkOffline(true);
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      add: ['Added offline'],
    });
    s.outbox.edit(s.portalId, record, { cf_category: 'Added offline' });
    const add = s.outbox.list().find((entry) => entry.kind === 'config')!;
    expect(() => s.outbox.discard(add.id)).toThrow(
      'A record change waiting in the Outbox holds “Added offline”, which this change adds; without it the service would refuse that change. Nothing was discarded;',
    );
    expect(s.outbox.list().map((entry) => entry.kind)).toEqual(['config', 'update']);
    expect(mine()).toEqual({ [`${record}.cf_category`]: 'Added offline' });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).cf_category).toBe('Added offline');
  });

  it('refuse in words to delete a field a queued record change sets, queuing nothing', async () => {
    const { s, configure, assets, record } = await setUp();
    const notes = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.apiName === 'cf_notes')!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, record, { cf_notes: 'Written offline' });
    expect(() => configure.deleteField(s.portalId, assets.id, notes.id, notes.label)).toThrow(
      `A record change waiting in the Outbox changes ${notes.label}; the service would refuse it once the field is deleted. Nothing was queued;`,
    );
    expect(s.outbox.list().map((entry) => entry.kind)).toEqual(['update']);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect((await s.serverRecord(record)).cf_notes).toBe('Written offline');
  });
});
