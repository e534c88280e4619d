/**
 * Pick-list and multi-select options renamed or removed offline, not delivered yet: what the
 * records workspace reads shows the values records hold as the queue leaves them, the same as
 * the record editor does (one overlay, catalogOverlay.ts). Mirrored records hold options by
 * name, so before, the lists, the table's export rows, the filter's option choices and the
 * record panel showed the old name (and a removed option) until the change was delivered, while
 * the editor showed the new name; and a filter built by picking the new name found nothing.
 */
import { describe, expect, it } from 'vitest';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const filterOf = (field: string, condition: string, value?: string[]) =>
  JSON.stringify({
    criteria: [{ field_name: field, criteria_condition: condition, ...(value ? { value } : {}) }],
    pattern: '1',
  });

describe('options renamed or removed offline, not delivered', () => {
  it('are shown as the queue leaves them in lists, filter choices, export rows and the record panel; filters follow', async () => {
    const s = await outboxSession({ records: 80 });
    s.outbox.setWorkOffline(true);
    const configure = configureOn(s);
    const reader = new RecordsReader(s.store.db, s.mirror);
    const scope = { portalId: s.portalId, moduleId: s.module.id };
    const list = (filter?: string) =>
      s.mirror.query.queryRecords({ ...scope, offset: 0, limit: 1000, filter }).rows;
    const ids = (filter?: string) => list(filter).map((row) => row.id);
    const fieldOf = (apiName: string) =>
      configure.fields(s.portalId, s.module.id).fields.find((f) => f.apiName === apiName)!;
    const category = fieldOf('cf_category');
    const tags = fieldOf('cf_tags');
    const [renamed, removed] = configure
      .fieldOptions(s.portalId, s.module.id, category.id)
      .options.filter((o) => o.records > 0);
    const [tag] = configure
      .fieldOptions(s.portalId, s.module.id, tags.id)
      .options.filter((o) => o.records > 0);
    const holding = ids(filterOf('cf_category', 'is', [renamed!.name]));
    const holdingRemoved = ids(filterOf('cf_category', 'is', [removed!.name]));
    const emptyBefore = ids(filterOf('cf_category', 'is_empty'));
    const tagged = ids(filterOf('cf_tags', 'is', [tag!.id]));
    expect(holding.length).toBeGreaterThan(0);
    expect(holdingRemoved.length).toBeGreaterThan(0);
    expect(tagged.length).toBeGreaterThan(0);

    configure.changeOptions({
      ...scope,
      fieldId: category.id,
      rename: [{ id: renamed!.id, name: 'Renamed offline' }],
      remove: [removed!.id],
    });
    configure.changeOptions({
      ...scope,
      fieldId: tags.id,
      rename: [{ id: tag!.id, name: 'Tag 2' }],
    });
    const editorValue = (recordId: string, apiName: string) =>
      s.outbox.form(s.portalId, s.module.id, recordId).values[apiName];

    // The list's rows, as the editor shows the same records.
    const rows = new Map(list().map((row) => [row.id, row]));
    for (const id of holding) {
      expect(rows.get(id)!.custom.cf_category).toBe('Renamed offline');
      expect(editorValue(id, 'cf_category')).toBe('Renamed offline');
    }
    for (const id of holdingRemoved) {
      expect(rows.get(id)!.custom.cf_category ?? null).toBeNull();
      expect(editorValue(id, 'cf_category')).toBeNull();
    }
    for (const id of tagged) {
      expect(rows.get(id)!.custom.cf_tags).toContain('Tag 2');
      expect(rows.get(id)!.custom.cf_tags).not.toContain(tag!.name);
      expect(editorValue(id, 'cf_tags')).toContain('Tag 2');
    }
    // A whole list read for an export (its columns only) shows them so too.
    const view = s.mirror.query.openView(scope, ['name', 'cf_category', 'cf_tags']);
    const exported = new Map(view.read(0, view.total).map((row) => [row.id, row]));
    for (const id of holding) expect(exported.get(id)!.custom.cf_category).toBe('Renamed offline');
    for (const id of holdingRemoved) {
      expect(exported.get(id)!.custom.cf_category ?? null).toBeNull();
    }
    for (const id of tagged) expect(exported.get(id)!.custom.cf_tags).toContain('Tag 2');
    // The filter's option choices and the record panel.
    const choices = (key: string) =>
      reader.columns(s.portalId, s.module.id).fields.find((c) => c.key === key)!.options;
    expect(choices('cf_category')).toContainEqual({ id: renamed!.id, name: 'Renamed offline' });
    expect(choices('cf_category').map((o) => o.id)).not.toContain(removed!.id);
    expect(choices('cf_tags')).toContainEqual({ id: tag!.id, name: 'Tag 2' });
    expect(reader.detail(s.portalId, holding[0]!).record.custom.cf_category).toBe(
      'Renamed offline',
    );

    // A filter built by picking the new name lists the records holding the old one; the old
    // name, shown nowhere now, lists none of them; a removed option's records are empty.
    expect(ids(filterOf('cf_category', 'is', ['Renamed offline']))).toEqual(holding);
    expect(ids(filterOf('cf_category', 'is', [renamed!.name]))).toEqual([]);
    expect(ids(filterOf('cf_category', 'is', [removed!.name]))).toEqual([]);
    expect(ids(filterOf('cf_category', 'is_empty'))).toEqual(
      [...emptyBefore, ...holdingRemoved].sort(),
    );
    // Multi-selects are filtered by option id: the same rows.
    expect(ids(filterOf('cf_tags', 'is', [tag!.id]))).toEqual(tagged);

    // Discarded, the mirror's names are back everywhere.
    for (const op of s.outbox.list().filter((entry) => entry.kind === 'config')) {
      s.outbox.discard(op.id);
    }
    expect(list().find((row) => row.id === holding[0])!.custom.cf_category).toBe(renamed!.name);
    expect(ids(filterOf('cf_category', 'is', [renamed!.name]))).toEqual(holding);
    expect(choices('cf_category')).toContainEqual({ id: renamed!.id, name: renamed!.name });
  });
});
