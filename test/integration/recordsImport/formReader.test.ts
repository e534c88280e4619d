/**
 * OutboxLedger.formReader (an import's way to read many records' forms, a catalog kept per layout
 * and status) gives exactly what `outbox.form` gives for every record, queued edits and status
 * changes included: two ways of getting the same answer.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';

describe('formReader', () => {
  it('reads every record as outbox.form does, a queued status change included', async () => {
    const s = await outboxSession({ records: 30 });
    s.outbox.setWorkOffline(true);
    const [first, second] = s.recordIds;
    const form = s.outbox.form(s.portalId, s.module.id, first!);
    const other = form.fields.find((f) => f.key === 'status')!.statuses.at(-1)!;
    s.outbox.edit(s.portalId, first!, { status: other.id });
    s.outbox.edit(s.portalId, second!, { name: 'Renamed while queued' });
    const read = s.outbox.formReader();
    // Read twice: the second time from the kept catalogs.
    for (let round = 0; round < 2; round++) {
      for (const id of s.recordIds) {
        expect(read(s.portalId, id), id).toEqual(s.outbox.form(s.portalId, s.module.id, id));
      }
    }
    expect(() => read(s.portalId, '999')).toThrow(/^Record 999 is not in the local mirror/);
  });
});
