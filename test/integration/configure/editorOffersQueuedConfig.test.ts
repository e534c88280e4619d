/**
 * The record editor offers what the module's queued configuration changes leave: options renamed
 * by their new name, added ones, not removed ones, not a deleted field. A record's value is shown
 * by the new name, and an edit made from the form after the rename (a multi-select's held items
 * included) reaches the service with nothing refused.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('the record editor and queued configuration changes', () => {
  it('offers options and fields as the queued changes leave them, and edits by those names go through', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const fieldOf = (apiName: string) =>
      configure.fields(s.portalId, assets.id).fields.find((f) => f.apiName === apiName)!;
    const category = fieldOf('cf_category');
    const tags = fieldOf('cf_tags');
    const notes = fieldOf('cf_notes');
    // A record holding tags and a category: a tag it holds is renamed offline, the category it
    // holds removed (the service clears it), then the record is edited from its form.
    const valuesOf = (id: string) => s.outbox.form(s.portalId, assets.id, id).values;
    const [record] = s
      .recordsWithField('cf_tags')
      .filter((id) => valuesOf(id).cf_tags !== null && valuesOf(id).cf_category !== null) as [
      string,
    ];
    const heldTags = valuesOf(record).cf_tags as string[];
    const tagOptions = configure.fieldOptions(s.portalId, assets.id, tags.id).options;
    const renamedTag = tagOptions.find((o) => o.name === heldTags[0])!;
    const otherTag = tagOptions.find((o) => !heldTags.includes(o.name))!;
    const categoryOptions = configure.fieldOptions(s.portalId, assets.id, category.id).options;
    const removed = categoryOptions.find((o) => o.name === valuesOf(record).cf_category)!;
    const kept = categoryOptions.find((o) => o.id !== removed.id)!;

    s.outbox.setWorkOffline(true);
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: category.id,
      rename: [{ id: kept.id, name: `${kept.name} (renamed)` }],
      add: ['Added offline'],
      remove: [removed.id],
    });
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: tags.id,
      rename: [{ id: renamedTag.id, name: 'Renamed tag' }],
    });
    configure.deleteField(s.portalId, assets.id, notes.id, notes.label);

    const form = s.outbox.form(s.portalId, assets.id, record);
    const offered = (key: string) =>
      form.fields.find((f) => f.key === key)?.options.map((o) => o.name);
    expect(offered('cf_category')).toEqual(
      configure.fieldOptions(s.portalId, assets.id, category.id).options.map((o) => o.name),
    );
    expect(offered('cf_category')).toContain(`${kept.name} (renamed)`);
    expect(offered('cf_category')).toContain('Added offline');
    expect(offered('cf_category')).not.toContain(kept.name);
    expect(offered('cf_category')).not.toContain(removed.name);
    expect(offered('cf_tags')).toContain('Renamed tag');
    expect(form.fields.map((f) => f.key)).not.toContain('cf_notes');
    // The record's values as the service will hold them: the tag renamed, the category cleared.
    expect(form.values.cf_tags).toEqual(
      heldTags.map((t) => (t === renamedTag.name ? 'Renamed tag' : t)),
    );
    expect(form.values.cf_category).toBeNull();

    // Edits by what the editor offers: the held tags as the form shows them plus another one.
    s.outbox.edit(s.portalId, record, {
      cf_tags: [...(form.values.cf_tags as string[]), otherTag.name],
      cf_category: 'Added offline',
    });
    expect(() => s.outbox.edit(s.portalId, record, { cf_category: removed.name })).toThrow(
      /is not an option/,
    );
    expect(() => s.outbox.edit(s.portalId, record, { cf_notes: 'gone' })).toThrow();

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const served = await s.serverRecord(record);
    expect(served.cf_category).toBe('Added offline');
    expect([...(served.cf_tags as string[])].sort()).toEqual(
      [...heldTags.map((t) => (t === renamedTag.name ? 'Renamed tag' : t)), otherTag.name].sort(),
    );
  });
});
