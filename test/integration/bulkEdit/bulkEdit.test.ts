/**
 * Bulk edits against the emulator (issue 20): one PATCH per changed record, the values the
 * emulator ends with equal to the edit applied in memory, a record's own queued edit coalesced
 * with it, a filter's records taken whole, and undo while the changes are still queued.
 */
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { BulkEditService } from '../../../src/main/bulkEdit/bulkEditService';
import type { OutboxOp } from '../../../src/main/outbox/outboxTypes';
import type { BulkEditArgs, BulkTrashAskArgs } from '../../../src/shared/ipc/areas/bulkEdit';
import { outboxSession } from '../outbox/outboxSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

function bulkService(s: Session, batchRecords?: number) {
  const events = new EventHub();
  const progress: { done: number; total: number }[] = [];
  events.subscribe((event, payload) => {
    if (event === 'bulkEdit.progress') progress.push(payload as { done: number; total: number });
  });
  const bulk = new BulkEditService({
    db: s.store.db,
    mirror: s.mirror,
    outbox: s.outbox,
    events,
    patchBudget: () => ({ limit: 200, windowMs: 120_000, remaining: 150 }),
    ...(batchRecords ? { batchRecords } : {}),
  });
  return { bulk, progress };
}

const queue = (s: Session) =>
  s.outbox.repo
    .allOps()
    .map((op) => ({ seq: op.seq, recordId: op.recordId, kind: op.kind, fields: op.fields }));

const patchesOf = (s: Session) => s.writes().filter((w) => w.method === 'PATCH');

/** A preview, then its Queue, as the dialog sends them. */
async function queueEdit(bulk: BulkEditService, args: BulkEditArgs) {
  const { previewId } = await bulk.preview(args);
  return bulk.apply({ previewId });
}

/** A bulk trash's question, then its confirm, as the dialog sends them. */
async function askedAndConfirmed(bulk: BulkEditService, args: BulkTrashAskArgs) {
  const { previewId } = await bulk.askTrash(args);
  return bulk.trash({ previewId });
}

describe('bulk edit against the emulator', () => {
  it('queues one coalesced PATCH per changed record and the emulator ends with the planned values', async () => {
    const s = await outboxSession({ records: 60 });
    const { bulk, progress } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const ids = s.recordsWithField('cf_tags');
    expect(ids.length).toBeGreaterThan(5);
    // The user's own edit of one record waits in the queue: the bulk change folds into it.
    const [own] = ids as [string];
    s.outbox.edit(s.portalId, own, { name: 'Renamed by hand' });
    const before = new Map<string, string[]>();
    for (const id of ids) before.set(id, ((await s.serverRecord(id)).cf_tags ?? []) as string[]);
    const args = {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids' as const, ids },
      field: 'cf_tags',
      action: 'add' as const,
      value: ['Encrypted'],
    };
    const preview = await bulk.preview(args);
    const changing = ids.filter((id) => !before.get(id)!.includes('Encrypted'));
    expect(preview).toMatchObject({
      selected: ids.length,
      changes: changing.length,
      unchanged: ids.length - changing.length,
      failed: 0,
      coalesced: changing.includes(own) ? 1 : 0,
    });
    // The hand edit's update waits already; each change not folded into it is one more.
    expect(preview.patchesQueued).toBe(1 + changing.length - (changing.includes(own) ? 1 : 0));
    // 150 calls left in this window, then 200 a window of 120 s.
    expect(preview.etaSeconds).toBe(
      preview.patchesQueued <= 150 ? 0 : Math.ceil((preview.patchesQueued - 150) / 200) * 120,
    );
    expect(preview.sample[0]).toMatchObject({
      recordId: changing[0],
      before: before.get(changing[0]!),
      after: [...before.get(changing[0]!)!, 'Encrypted'],
    });

    const applied = await bulk.apply({ previewId: preview.previewId });
    expect(applied).toMatchObject({
      queued: changing.length,
      unchanged: ids.length - changing.length,
      failed: 0,
    });
    // Progress counts the records written: those the preview counted as changing.
    expect(progress.at(-1)).toEqual(
      expect.objectContaining({ done: changing.length, total: changing.length }),
    );
    // One update per record: the hand edit's operation carries both fields.
    const ops = queue(s);
    expect(ops.filter((op) => op.recordId === own)).toHaveLength(1);
    expect(new Set(ops.map((op) => op.recordId)).size).toBe(ops.length);
    expect(bulk.groups()).toEqual([
      expect.objectContaining({
        id: applied.bulkEditId,
        records: changing.length,
        queued: changing.length,
      }),
    ]);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const recordsWritten = new Set([...changing, own]);
    expect(patchesOf(s)).toHaveLength(recordsWritten.size);
    for (const id of ids) {
      const server = await s.serverRecord(id);
      expect([...server.cf_tags].sort()).toEqual(
        [...new Set([...before.get(id)!, 'Encrypted'])].sort(),
      );
    }
    expect((await s.serverRecord(own)).name).toBe('Renamed by hand');
    expect(bulk.groups()).toEqual([]);
  });

  it('queues in batches, each its own transaction, with the event loop free between them', async () => {
    const s = await outboxSession({ records: 60 });
    const { bulk, progress } = bulkService(s, 5);
    s.outbox.setWorkOffline(true);
    const ids = s.recordIds.slice(0, 12);
    // Something else of the engine's, run once each turn of the event loop, gets its turns while
    // the apply is still queueing: the engine keeps answering.
    const seen: number[] = [];
    let polling = true;
    const poll = () => {
      if (!polling) return;
      seen.push(s.outbox.status().counts.pending);
      setImmediate(poll);
    };
    setImmediate(poll);
    const applied = await queueEdit(bulk, {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids },
      field: 'description',
      action: 'set',
      value: 'Batched',
    });
    polling = false;
    expect(applied.queued).toBe(12);
    expect(progress.map((p) => p.done)).toEqual([0, 5, 10, 12]);
    // Between batches the queue held whole batches only: 5 or 10 of 12, never a part of one.
    const during = seen.filter((n) => n > 0 && n < 12);
    expect(during.length).toBeGreaterThan(0);
    for (const n of during) expect([5, 10]).toContain(n);
  });

  it('takes every record matching a filter, not only a loaded window', async () => {
    const s = await outboxSession({ records: 60 });
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const filter = JSON.stringify({
      criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['a'] }],
      pattern: '1',
    });
    const listed = s.mirror.query.openView({ portalId: s.portalId, moduleId: s.module.id, filter });
    const expected = listed.read(0, listed.total).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    const [skipped, ...rest] = expected as [string, ...string[]];
    const args = {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'filter' as const, filter, except: [skipped] },
      field: 'description',
      action: 'set' as const,
      value: 'Checked in bulk',
    };
    const preview = await bulk.preview(args);
    expect(preview.selected).toBe(rest.length);
    await bulk.apply({ previewId: preview.previewId });
    expect(
      queue(s)
        .map((op) => op.recordId)
        .sort(),
    ).toEqual([...rest].sort());
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(patchesOf(s)).toHaveLength(rest.length);
    for (const id of rest) expect((await s.serverRecord(id)).description).toBe('Checked in bulk');
    expect((await s.serverRecord(skipped)).description).not.toBe('Checked in bulk');
  });

  it('queues nothing when a sync brought another record into the filter since the preview', async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const [late, early] = s.recordIds as [string, string];
    const filter = JSON.stringify({
      criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['ZZMARK'] }],
      pattern: '1',
    });
    const args = {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'filter' as const, filter },
      field: 'description',
      action: 'set' as const,
      value: 'Bulk',
    };
    await s.serverPatch(early, { name: 'ZZMARK one' });
    await s.engine.syncAccount(s.account).done;
    const preview = await bulk.preview(args);
    expect(preview).toMatchObject({ selected: 1, changes: 1 });
    // Another client renames a second record into the filter, and a sync stores it.
    await s.serverPatch(late, { name: 'ZZMARK two' });
    await s.engine.syncAccount(s.account).done;
    await expect(bulk.apply({ previewId: preview.previewId })).rejects.toThrow(
      'The selection is 2 records now, not the 1 record previewed: 1 record joined it since the preview (a sync or an edit changed which records match). Nothing was queued; preview again to see what would change.',
    );
    expect(queue(s)).toEqual([]);
    expect(bulk.groups()).toEqual([]);
    // The preview is used up; a new one shows both records, and its Queue edits both.
    await expect(bulk.apply({ previewId: preview.previewId })).rejects.toThrow(
      /no longer held.*Nothing was queued; preview again/,
    );
    // An id of the right shape that no preview was given is refused the same way.
    await expect(bulk.apply({ previewId: '0'.repeat(16) })).rejects.toThrow(
      /no longer held.*Nothing was queued; preview again/,
    );
    expect(queue(s)).toEqual([]);
    const again = await bulk.preview(args);
    expect(again).toMatchObject({ selected: 2, changes: 2 });
    expect(await bulk.apply({ previewId: again.previewId })).toMatchObject({ queued: 2 });
    expect(
      queue(s)
        .map((op) => op.recordId)
        .sort(),
    ).toEqual([late, early].sort());
  });

  it('queues only the records the preview counted as changing', async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const [a, b] = s.recordIds as [string, string];
    await s.serverPatch(b, { description: 'Bulk' });
    await s.engine.syncAccount(s.account).done;
    const preview = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids: [a, b] },
      field: 'description',
      action: 'set',
      value: 'Bulk',
    });
    expect(preview).toMatchObject({ changes: 1, unchanged: 1 });
    // B held the value when previewed; another client changed it since.
    await s.serverPatch(b, { description: 'Changed elsewhere' });
    await s.engine.syncAccount(s.account).done;
    const applied = await bulk.apply({ previewId: preview.previewId });
    expect(applied).toMatchObject({ queued: 1, unchanged: 1, failed: 0 });
    expect(queue(s).map((op) => op.recordId)).toEqual([a]);
  });

  it('names the records the value rules refuse and queues nothing for them', async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const ids = s.recordIds.slice(0, 3);
    const preview = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids },
      field: 'name',
      action: 'clear',
    });
    expect(preview.changes).toBe(0);
    expect(preview.failed).toBe(3);
    expect(preview.failures[0]?.reason).toMatch(/required and cannot be emptied/);
    const applied = await bulk.apply({ previewId: preview.previewId });
    expect(applied).toEqual({
      bulkEditId: null,
      queued: 0,
      coalesced: 0,
      unchanged: 0,
      failed: 3,
      notQueued: 0,
    });
    expect(queue(s)).toEqual([]);
  });

  it("undo while queued restores the queue exactly, the user's own earlier edit included", async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const [a, b, c] = s.recordIds as [string, string, string];
    s.outbox.edit(s.portalId, a, { description: 'My own words' });
    s.outbox.edit(s.portalId, c, { name: 'Kept name' });
    const prior = queue(s);
    const applied = await queueEdit(bulk, {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids: [a, b, c] },
      field: 'description',
      action: 'set',
      value: 'Bulk words',
    });
    expect(applied.coalesced).toBe(2);
    expect(queue(s)).toHaveLength(3);
    const undone = await bulk.undo(applied.bulkEditId!);
    expect(undone).toEqual({ restored: 3, sent: 0, changedSince: 0, neverQueued: 0 });
    expect(queue(s)).toEqual(prior);
    expect(bulk.groups()).toEqual([]);
    await expect(bulk.undo(applied.bulkEditId!)).rejects.toThrow(/no longer queued/);
    // Nothing of the bulk edit goes out.
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect((await s.serverRecord(a)).description).toBe('My own words');
    expect((await s.serverRecord(b)).description).not.toBe('Bulk words');
  });

  it('keeps its operations when the outbox moves them to the end of the queue, and undo still takes them back', async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const [a, b] = s.recordIds as [string, string];
    const prior = queue(s);
    const applied = await queueEdit(bulk, {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids: [a, b] },
      field: 'description',
      action: 'set',
      value: 'Bulk words',
    });
    // Keep mine of a record trashed on the service moves the record's queue this way.
    const [first] = s.outbox.repo.allOps();
    const moved = s.store.db.transaction(() => s.outbox.repo.requeueOp(first!.seq))();
    expect(moved).toBeGreaterThan(first!.seq);
    expect(bulk.groups()).toEqual([expect.objectContaining({ records: 2, queued: 2 })]);
    const undone = await bulk.undo(applied.bulkEditId!);
    expect(undone).toEqual({ restored: 2, sent: 0, changedSince: 0, neverQueued: 0 });
    expect(queue(s)).toEqual(prior);
  });

  it("keeps Undo for a bulk edit that dropped the user's own queued edit, until it is undone", async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const [a, b] = s.recordIds as [string, string];
    const server = (await s.serverRecord(a)).description;
    s.outbox.edit(s.portalId, a, { description: 'My own words' });
    const prior = queue(s);
    const args = {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids' as const, ids: [a, b] },
      field: 'description',
      action: 'set' as const,
      value: server,
    };
    const preview = await bulk.preview(args);
    // A's own edit goes (the value is the service's), B gets one: one PATCH waits, not two.
    expect(preview).toMatchObject({ changes: 2, coalesced: 1, patchesQueued: 1 });
    const applied = await bulk.apply({ previewId: preview.previewId });
    expect(applied).toMatchObject({ queued: 2, coalesced: 1 });
    expect(queue(s).map((op) => op.recordId)).toEqual([b]);
    const group = expect.objectContaining({ id: applied.bulkEditId, records: 2 });
    expect(bulk.groups()).toEqual([group]);
    expect(bulk.groups()[0]).toMatchObject({ queued: 1, reverted: 1 });
    // B's change goes out; A's dropped edit is still the bulk edit's to give back.
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.outbox.setWorkOffline(true);
    expect(bulk.groups()).toEqual([group]);
    expect(bulk.groups()[0]).toMatchObject({ queued: 0, reverted: 1 });
    expect(await bulk.undo(applied.bulkEditId!)).toEqual({
      restored: 1,
      sent: 1,
      changedSince: 0,
      neverQueued: 0,
    });
    expect(queue(s)).toEqual(prior);
    expect(bulk.groups()).toEqual([]);
  });

  it("leaves the user's refused edit as it was, the bulk value behind it, and undo gives it back exactly", async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    const [a] = s.recordsWithField('cf_category') as [string];
    const db = s.store.db;
    const field = db
      .prepare("SELECT id FROM fields WHERE portal_id = ? AND api_name = 'cf_category'")
      .pluck()
      .get(s.portalId) as string;
    const option = db
      .prepare(
        "SELECT value_id FROM field_options WHERE portal_id = ? AND field_id = ? AND value = 'Furniture'",
      )
      .pluck()
      .get(s.portalId, field) as string;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { cf_category: 'Furniture' });
    await s.call('DELETE', `/portal/${s.portalId}/settings/options`, {
      module: 'assets',
      field,
      custom_options: [{ id: option }],
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.outbox.setWorkOffline(true);
    const ops = () => s.outbox.repo.allOps();
    const [refused] = ops() as [OutboxOp];
    expect(refused.state).toBe('failed');
    expect(refused.error).not.toBeNull();
    const args = {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids' as const, ids: [a] },
      field: 'description',
      action: 'set' as const,
      value: 'Bulk words',
    };
    const preview = await bulk.preview(args);
    expect(preview).toMatchObject({ changes: 1, coalesced: 0 });
    const applied = await bulk.apply({ previewId: preview.previewId });
    expect(applied).toMatchObject({ queued: 1, coalesced: 0 });
    // The refusal stays, reason and all; the bulk value waits behind it as an update of its own.
    expect(ops()).toEqual([
      refused,
      expect.objectContaining({ recordId: a, state: 'pending', fields: expect.anything() }),
    ]);
    expect(ops()[1]!.fields).toEqual({
      description: { value: 'Bulk words', base: (await s.serverRecord(a)).description },
    });
    await bulk.undo(applied.bulkEditId!);
    expect(ops()).toEqual([refused]);

    // Queued again: once the user discards the refused edit, the bulk value goes out alone.
    await queueEdit(bulk, args);
    s.outbox.discard(refused.seq);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(ops()).toEqual([]);
    expect((await s.serverRecord(a)).description).toBe('Bulk words');
  });

  it('moves only through a question still held, once', async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const ids = s.recordIds.slice(0, 2);
    const asked = await bulk.askTrash({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids },
      restore: false,
    });
    expect(asked.records).toBe(2);
    expect(await bulk.trash({ previewId: asked.previewId })).toMatchObject({ queued: 2 });
    const prior = queue(s);
    // Answered already, or a question never asked: refused in words, nothing queued.
    for (const previewId of [asked.previewId, '0'.repeat(16)]) {
      await expect(bulk.trash({ previewId })).rejects.toThrow(
        /no longer held.*Nothing was queued; ask again/,
      );
    }
    expect(queue(s)).toEqual(prior);
  });

  it('trashes and restores many records, one queued operation each', async () => {
    const s = await outboxSession();
    const { bulk } = bulkService(s);
    s.outbox.setWorkOffline(true);
    const ids = s.recordIds.slice(0, 4);
    const trashed = await askedAndConfirmed(bulk, {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids },
      restore: false,
    });
    expect(trashed).toEqual({ queued: 4, failed: 0, failures: [] });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    for (const id of ids) expect((await s.serverRecord(id)).trashed_time ?? null).not.toBeNull();
    const restored = await askedAndConfirmed(bulk, {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids: [...ids, s.recordIds[5]!] },
      restore: true,
    });
    expect(restored.queued).toBe(4);
    expect(restored.failures).toEqual([
      expect.objectContaining({
        recordId: s.recordIds[5],
        reason: expect.stringMatching(/not in the trash/),
      }),
    ]);
    await s.outbox.idle();
    for (const id of ids) expect((await s.serverRecord(id)).trashed_time ?? null).toBeNull();
  });
});
