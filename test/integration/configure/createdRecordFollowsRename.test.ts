/**
 * A record created offline with an option value, then the option renamed offline: the records
 * list and the record panel show what will be true after the replay (the new name), as they do
 * for a queued edit of a record already on the service; a discarded rename puts the old one back;
 * and after the replay the record holds the new name here and on the service.
 */
import { describe, expect, it } from 'vitest';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('a record created offline, then its option renamed offline', () => {
  it('shows the new name in the list and the panel, and keeps it through the replay', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const reader = new RecordsReader(s.store.db, s.mirror);
    const fieldOf = (apiName: string) =>
      configure.fields(s.portalId, s.module.id).fields.find((f) => f.apiName === apiName)!;
    const category = fieldOf('cf_category');
    const tags = fieldOf('cf_tags');
    const optionOf = (fieldId: string, index: number) =>
      configure.fieldOptions(s.portalId, s.module.id, fieldId).options[index]!;
    const [a, b] = [optionOf(category.id, 0), optionOf(category.id, 1)];
    const tag = optionOf(tags.id, 0);
    const other = optionOf(tags.id, 1);
    const rename = (fieldId: string, renames: { id: string; name: string }[]) =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: s.module.id,
        fieldId,
        rename: renames,
      });
    s.outbox.setWorkOffline(true);
    const { recordId } = s.outbox.create(s.portalId, s.module.id, {
      name: 'Made offline',
      cf_serial_number: 'SN-OFFLINE-1',
      cf_category: a.name,
      cf_tags: [tag.name, other.name],
    });
    const shown = () => {
      const view = s.mirror.query.openView({ portalId: s.portalId, moduleId: s.module.id });
      const listed = view.read(0, view.total).find((row) => row.id === recordId)!;
      const panel = reader.detail(s.portalId, recordId).record;
      expect(panel.custom.cf_category).toEqual(listed.custom.cf_category);
      expect(panel.custom.cf_tags).toEqual(listed.custom.cf_tags);
      return { category: listed.custom.cf_category, tags: listed.custom.cf_tags };
    };
    expect(shown()).toEqual({ category: a.name, tags: [tag.name, other.name] });

    // A swap of two names: each value moves by its name before the change.
    rename(category.id, [
      { id: a.id, name: b.name },
      { id: b.id, name: a.name },
    ]);
    rename(tags.id, [{ id: tag.id, name: 'Renamed tag' }]);
    expect(shown()).toEqual({ category: b.name, tags: ['Renamed tag', other.name] });

    const tagRename = s.outbox
      .list()
      .find((entry) => entry.kind === 'config' && entry.config!.target.endsWith(tags.label))!;
    s.outbox.discard(tagRename.id);
    expect(shown()).toEqual({ category: b.name, tags: [tag.name, other.name] });
    rename(tags.id, [{ id: tag.id, name: 'Renamed tag' }]);

    // The renames go first; the record, still local while its create goes, keeps showing the
    // new names (the mirror relabels the service's records, not this copy a second time).
    let whileCreating: unknown = null;
    s.setGate(async (method, url, answered) => {
      if (method === 'POST' && url.pathname.endsWith('/entities') && !answered) {
        whileCreating ??= shown();
      }
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(whileCreating).toEqual({ category: b.name, tags: ['Renamed tag', other.name] });
    expect(s.outbox.list()).toEqual([]);
    const created = s.store.db
      .prepare("SELECT id FROM records WHERE name = 'Made offline'")
      .pluck()
      .get() as string;
    const served = await s.serverRecord(created);
    expect({ category: served.cf_category, tags: served.cf_tags }).toEqual({
      category: b.name,
      tags: ['Renamed tag', other.name],
    });
    const listed = s.mirror.query
      .openView({ portalId: s.portalId, moduleId: s.module.id })
      .read(0, 1000)
      .find((row) => row.id === created)!;
    expect({ category: listed.custom.cf_category, tags: listed.custom.cf_tags }).toEqual({
      category: b.name,
      tags: ['Renamed tag', other.name],
    });
  });
});
