/**
 * A bulk edit of a pick list or multi-select, then an option renamed offline: the queued record
 * edits follow the rename (src/main/configure/queuedRecordOptions.ts). Undo of the bulk edit must
 * still take back exactly its own changes and give back the user's earlier edits, by the names
 * the options will have: nothing left of the bulk edit, nothing naming an option renamed away.
 */
import { describe, expect, it } from 'vitest';
import type { BulkEditArgs } from '../../../src/shared/ipc/areas/bulkEdit';
import { configureOn } from '../configure/configureSession';
import { outboxSession } from '../outbox/outboxSession';
import { bulkEditOn } from './bulkEditOn';

async function setUp() {
  const s = await outboxSession();
  const bulk = bulkEditOn(s);
  const configure = configureOn(s);
  const fieldOf = (apiName: string) =>
    configure.fields(s.portalId, s.module.id).fields.find((f) => f.apiName === apiName)!;
  const optionsOf = (fieldId: string) =>
    configure.fieldOptions(s.portalId, s.module.id, fieldId).options;
  const rename = (fieldId: string, renames: { id: string; name: string }[]) =>
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: s.module.id,
      fieldId,
      rename: renames,
    });
  const queueEdit = async (args: Omit<BulkEditArgs, 'portalId' | 'moduleId'>) => {
    const { previewId } = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      ...args,
    });
    return bulk.apply({ previewId });
  };
  /** The record changes queued, by record: the field's value and base. */
  const recordQueue = (field: string) =>
    Object.fromEntries(
      s.outbox.repo
        .allOps()
        .filter((op) => op.kind === 'update')
        .map((op) => [op.recordId, op.fields[field]]),
    );
  return { s, bulk, fieldOf, optionsOf, rename, queueEdit, recordQueue };
}

describe('bulk edit undo after an option rename', () => {
  it('takes back exactly its changes and gives back the earlier edits by the new names', async () => {
    const { s, bulk, fieldOf, optionsOf, rename, queueEdit, recordQueue } = await setUp();
    const category = fieldOf('cf_category');
    const served = new Map<string, string | null>();
    for (const id of s.recordsWithField('cf_category')) {
      served.set(id, ((await s.serverRecord(id)).cf_category ?? null) as string | null);
    }
    // D holds the bulk value on the service already: the bulk edit drops D's own edit.
    const [d] = [...served].find(([, value]) => value !== null)!;
    const bulkName = served.get(d)!;
    const others = [...served].filter(([id, value]) => id !== d && value !== bulkName);
    const [a, b] = others.map(([id]) => id) as [string, string];
    const mineName = optionsOf(category.id)
      .map((o) => o.name)
      .find((name) => name !== bulkName && name !== served.get(a) && name !== served.get(d))!;
    const renamed = (name: string | null) =>
      name === bulkName ? 'Bulk renamed' : name === mineName ? 'Mine renamed' : name;

    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { cf_category: mineName });
    s.outbox.edit(s.portalId, d, { cf_category: mineName });
    const applied = await queueEdit({
      selection: { kind: 'ids', ids: [a, b, d] },
      field: 'cf_category',
      action: 'set',
      value: bulkName,
    });
    expect(applied).toMatchObject({ queued: 3, coalesced: 2 });
    const byName = new Map(optionsOf(category.id).map((o) => [o.name, o.id]));
    rename(category.id, [
      { id: byName.get(bulkName)!, name: 'Bulk renamed' },
      { id: byName.get(mineName)!, name: 'Mine renamed' },
    ]);
    // The queued edits follow the rename, and so does the group the Outbox shows.
    expect(recordQueue('cf_category')).toEqual({
      [a]: { value: 'Bulk renamed', base: renamed(served.get(a)!) },
      [b]: { value: 'Bulk renamed', base: renamed(served.get(b)!) },
    });
    expect(bulk.groups()).toEqual([
      expect.objectContaining({ id: applied.bulkEditId, value: 'Bulk renamed' }),
    ]);

    expect(await bulk.undo(applied.bulkEditId!)).toEqual({
      restored: 3,
      sent: 0,
      changedSince: 0,
      neverQueued: 0,
    });
    // The user's own edits come back, by the name their option will have; B's change is gone.
    expect(recordQueue('cf_category')).toEqual({
      [a]: { value: 'Mine renamed', base: renamed(served.get(a)!) },
      [d]: { value: 'Mine renamed', base: 'Bulk renamed' },
    });

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(a)).cf_category).toBe('Mine renamed');
    expect((await s.serverRecord(d)).cf_category).toBe('Mine renamed');
    expect((await s.serverRecord(b)).cf_category ?? null).toBe(renamed(served.get(b)!));
  });

  it('of a multi-select: the tags it added leave, the records keep what they held', async () => {
    const { s, bulk, fieldOf, optionsOf, rename, queueEdit, recordQueue } = await setUp();
    const tags = fieldOf('cf_tags');
    const tag = optionsOf(tags.id).find((o) => o.name === 'Encrypted')!;
    const held = new Map<string, string[]>();
    for (const id of s.recordsWithField('cf_tags')) {
      const value = ((await s.serverRecord(id)).cf_tags ?? []) as string[];
      if (!value.includes(tag.name)) held.set(id, value);
    }
    const ids = [...held.keys()].slice(0, 3);
    s.outbox.setWorkOffline(true);
    const applied = await queueEdit({
      selection: { kind: 'ids', ids },
      field: 'cf_tags',
      action: 'add',
      value: [tag.name],
    });
    expect(applied.queued).toBe(3);
    // A rename discarded in the Outbox puts the names back, the group's and undo's with them.
    rename(tags.id, [{ id: tag.id, name: 'Sealed' }]);
    expect(bulk.groups()[0]!.value).toEqual(['Sealed']);
    s.outbox.discard(s.outbox.list().find((entry) => entry.kind === 'config')!.id);
    expect(bulk.groups()[0]!.value).toEqual([tag.name]);
    rename(tags.id, [{ id: tag.id, name: 'Sealed' }]);
    expect(Object.keys(recordQueue('cf_tags')).sort()).toEqual([...ids].sort());

    expect(await bulk.undo(applied.bulkEditId!)).toEqual({
      restored: 3,
      sent: 0,
      changedSince: 0,
      neverQueued: 0,
    });
    expect(recordQueue('cf_tags')).toEqual({});
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    for (const id of ids) {
      expect(((await s.serverRecord(id)).cf_tags ?? []) as string[]).toEqual(held.get(id));
    }
  });
});
