/**
 * Queue pressed twice for one preview of a bulk removal of options (a double click, Enter twice,
 * two windows): the engine takes a preview once, before its first batch is written, so the
 * second is refused in words while the first still queues, and one bulk edit is queued. The
 * dialog's own guard is in test/unit/renderer/records/BulkEditDialog.dom.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { bulkEditOn } from './bulkEditOn';

describe('two applies of one preview at once', () => {
  it('queues one bulk edit; the other is refused, changing nothing', async () => {
    const s = await outboxSession({ records: 60 });
    s.outbox.setWorkOffline(true);
    // Batches of two: the first apply yields between batches while the second arrives.
    const bulk = bulkEditOn(s, { batchRecords: 2 });
    const ids = s.recordsWithField('cf_tags').slice(0, 8);
    for (const id of ids) s.outbox.edit(s.portalId, id, { cf_tags: ['Critical', 'Remote'] });
    const { previewId, changes } = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids },
      field: 'cf_tags',
      action: 'remove',
      value: ['Remote'],
    });
    expect(changes).toBe(ids.length);
    const [first, second] = await Promise.allSettled([
      bulk.apply({ previewId }),
      bulk.apply({ previewId }),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { queued: ids.length } });
    expect(second).toMatchObject({
      status: 'rejected',
      reason: {
        message: expect.stringMatching(/^This preview is no longer held .*Nothing was queued/),
      },
    });
    expect(bulk.groups()).toHaveLength(1);
    for (const id of ids) {
      expect(s.outbox.form(s.portalId, s.module.id, id).values.cf_tags).toEqual(['Critical']);
    }
  });
});
