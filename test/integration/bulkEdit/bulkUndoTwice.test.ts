/**
 * Two undos of the same bulk edit asked at once (the Outbox's Undo clicked twice, or in two
 * windows): an undo runs in batches with the event loop free between them, so a second one could
 * start while the first is halfway and count the records the first gave back as "edited since".
 * The second waits for the first and is then refused in words; the first's answer is whole and the
 * queue is exactly as it was before the bulk edit.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { bulkEditOn } from './bulkEditOn';

type Session = Awaited<ReturnType<typeof outboxSession>>;

const queue = (s: Session) =>
  s.outbox.repo
    .allOps()
    .map((op) => ({ seq: op.seq, recordId: op.recordId, kind: op.kind, fields: op.fields }));

async function setUp(s: Session) {
  const bulk = bulkEditOn(s, { batchRecords: 2 });
  s.outbox.setWorkOffline(true);
  const ids = s.recordIds.slice(0, 10);
  // The user's own edits the bulk edit folds into: undo gives them back.
  s.outbox.edit(s.portalId, ids[1]!, { description: 'My own words' });
  s.outbox.edit(s.portalId, ids[6]!, { description: 'Other words' });
  const prior = queue(s);
  const { previewId } = await bulk.preview({
    portalId: s.portalId,
    moduleId: s.module.id,
    selection: { kind: 'ids', ids },
    field: 'description',
    action: 'set',
    value: 'Bulk words',
  });
  return { bulk, ids, prior, applying: bulk.apply({ previewId }) };
}

const REFUSED =
  'This bulk edit is no longer queued (undone already, or every change was sent); nothing was changed.';

describe('two undos of one bulk edit at once', () => {
  it('runs one; the other waits for it and is refused in words', async () => {
    const s = await outboxSession();
    const { bulk, ids, prior, applying } = await setUp(s);
    const applied = await applying;
    expect(applied.queued).toBe(ids.length);
    const id = applied.bulkEditId!;
    const [first, second] = await Promise.allSettled([bulk.undo(id), bulk.undo(id)]);
    expect(first).toEqual({
      status: 'fulfilled',
      value: { restored: ids.length, sent: 0, changedSince: 0, neverQueued: 0 },
    });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: REFUSED } });
    expect(queue(s)).toEqual(prior);
    expect(bulk.groups()).toEqual([]);
  });

  it('while it is still being queued, too', async () => {
    const s = await outboxSession();
    const { bulk, ids, prior, applying } = await setUp(s);
    // Once the first batch is written the Outbox offers Undo.
    await new Promise((resolve) => setImmediate(resolve));
    const [group] = bulk.groups();
    const [first, second] = await Promise.allSettled([bulk.undo(group!.id), bulk.undo(group!.id)]);
    const applied = await applying;
    expect(applied.queued + applied.notQueued).toBe(ids.length);
    expect(first).toEqual({
      status: 'fulfilled',
      value: {
        restored: applied.queued,
        sent: 0,
        changedSince: 0,
        neverQueued: applied.notQueued,
      },
    });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: REFUSED } });
    expect(queue(s)).toEqual(prior);
    expect(bulk.groups()).toEqual([]);
  });
});
