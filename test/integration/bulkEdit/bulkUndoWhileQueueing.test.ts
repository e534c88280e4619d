/**
 * Undo of a bulk edit asked while its apply is still queueing batches (a 10,000-record edit is 40
 * batches, each its own transaction with the event loop free between, and the Outbox lists the
 * group with Undo as soon as its first batch is written). The undo must take back the whole bulk
 * edit: the batches not yet written are never queued, and none is queued after the group is
 * gone from the Outbox (it could not be undone any more).
 */
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { BulkEditService } from '../../../src/main/bulkEdit/bulkEditService';
import { outboxSession } from '../outbox/outboxSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

const queue = (s: Session) =>
  s.outbox.repo
    .allOps()
    .map((op) => ({ seq: op.seq, recordId: op.recordId, kind: op.kind, fields: op.fields }));

describe('undo of a bulk edit while it is being queued', () => {
  it('stops the apply and takes back every change it wrote; nothing is queued after', async () => {
    const s = await outboxSession({ records: 60 });
    const events = new EventHub();
    const bulk = new BulkEditService({
      db: s.store.db,
      mirror: s.mirror,
      outbox: s.outbox,
      events,
      patchBudget: () => undefined,
      batchRecords: 2,
    });
    s.outbox.setWorkOffline(true);
    const ids = s.recordIds.slice(0, 10);
    // The user's own edit of one record, which the bulk edit folds into: undo gives it back.
    s.outbox.edit(s.portalId, ids[7]!, { description: 'My own words' });
    const prior = queue(s);
    const { previewId } = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids },
      field: 'description',
      action: 'set',
      value: 'Bulk words',
    });
    const applying = bulk.apply({ previewId });
    // Undo as soon as the Outbox can offer it: once the first batch is written, the event loop
    // free before the next.
    await new Promise((resolve) => setImmediate(resolve));
    const [group] = bulk.groups();
    expect(group).toMatchObject({ queued: 2 });
    const undoing = bulk.undo(group!.id);
    const applied = await applying;
    const undone = await undoing;
    // Nothing of the bulk edit stays queued: the user's own edit is back as it was.
    expect(queue(s)).toEqual(prior);
    expect(bulk.groups()).toEqual([]);
    expect(applied.queued + applied.notQueued).toBe(ids.length);
    expect(applied.notQueued).toBeGreaterThan(0);
    expect(undone).toEqual({
      restored: applied.queued,
      sent: 0,
      changedSince: 0,
      neverQueued: applied.notQueued,
    });
  });
});
