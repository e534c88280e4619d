/**
 * Issue 14, items 2 and 3, on the engine's side of an edit: a change naming one part of a compound
 * value keeps the parts it does not name, through the queue, the replay and the service; text
 * that is not a value (an empty amount included) is refused and queues nothing, so a field is
 * emptied only by an explicit null.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

describe('outbox edits of compound values and of unparseable text', () => {
  it("an amount alone keeps the record's own currency, queued and on the service", async () => {
    const s = await outboxSession();
    // A record whose cost is in another currency than the field's default (USD).
    let recordId: string | undefined;
    let before: Record<string, unknown> | undefined;
    for (const id of s.recordsWithField('cf_cost')) {
      const cost = (await s.serverRecord(id))?.cf_cost as Record<string, unknown> | null;
      if (cost && cost.currency_code !== 'USD') {
        [recordId, before] = [id, cost];
        break;
      }
    }
    if (!recordId || !before) throw new Error('The seed has no cost in a currency other than USD');
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, recordId, { cf_cost: 12.345 });
    const queued = s.outbox.list()[0]?.fields.find((f) => f.field === 'cf_cost');
    expect(queued?.mine).toMatchObject({ currency_code: before.currency_code, amount: 12.345 });

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const after = (await s.serverRecord(recordId))?.cf_cost as Record<string, unknown>;
    expect(after).toMatchObject({ currency_code: before.currency_code, amount: 12.345 });
  });

  it('refuses an emptied or unparseable number, amount or date and queues nothing', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    for (const changes of [
      { cf_quantity: '' },
      { cf_quantity: 'abc' },
      { cf_weight_kg: ' ' },
      { cf_depreciation: '' },
      { cf_cost: '' },
      { cf_cost: { amount: '' } },
      { cf_purchase_date: '' },
      { cf_last_audit: '' },
      // Numbers a double cannot hold: Infinity would go out as null (a clear), 1e-400 as 0.
      { cf_depreciation: '1e400' },
      { cf_weight_kg: '-1e400' },
      { cf_cost: '1e400' },
      { cf_depreciation: '1e-400' },
    ]) {
      expect(() => s.outbox.edit(s.portalId, id, changes), JSON.stringify(changes)).toThrow(
        /Nothing was queued/,
      );
      // The rule's own full stop is not doubled by the sentence around it.
      expect(() => s.outbox.edit(s.portalId, id, changes)).not.toThrow(/\.\./);
    }
    expect(s.outbox.list()).toEqual([]);
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
    // null is the explicit way to empty a field.
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { cf_quantity: null });
    expect(s.outbox.list()[0]?.fields).toEqual([
      expect.objectContaining({ field: 'cf_quantity', mine: null }),
    ]);
  });
});
