/**
 * A custom field deleted on the service while an edit of it (and of other fields) waits here: the
 * service refuses a change naming the field whole. Once a sync has seen the deletion the other
 * fields go, and the deleted one waits alone as a conflict that only the service's version
 * settles, in words; nothing the user changed is dropped unseen.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

describe('a custom field deleted on the service', () => {
  it('lets the record’s other changes go once a sync has seen it, and holds its value until the user drops it', async () => {
    const s = await outboxSession();
    // a holds notes, b none: the replay's look tells a's as changed there (the service shows
    // none), while b's base matches and its change is sent, and refused whole.
    let a: string | undefined;
    let b: string | undefined;
    for (const id of s.recordsWithField('cf_notes')) {
      const held = (await s.serverRecord(id)).cf_notes as string | null;
      if (held && !a) a = id;
      if (!held && !b) b = id;
    }
    if (!a || !b) throw new Error('The seed has no record with notes and one without');
    const notes = s.store.db
      .prepare("SELECT id FROM fields WHERE portal_id = ? AND api_name = 'cf_notes'")
      .pluck()
      .get(s.portalId) as string;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { name: 'A, renamed', cf_notes: 'My notes' });
    s.outbox.edit(s.portalId, b, { name: 'B, renamed', cf_notes: 'Notes of B' });
    const deleted = await s.call(
      'DELETE',
      `/portal/${s.portalId}/settings/fields/${notes}?module=assets`,
    );
    expect(deleted.status).toBe(204);
    const nameOf = async (id: string) => (await s.serverRecord(id)).name as string;
    const before = await nameOf(b);

    // Before any sync knows of the deletion.
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list().map((o) => [o.recordId, o.state])).toEqual([
      [a, 'conflict'],
      [b, 'failed'],
    ]);
    expect(await nameOf(a)).toBe('A, renamed');
    expect(await nameOf(b)).toBe(before);

    // A sync sees the deletion; the retry sends the rest and holds the deleted field alone.
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    s.outbox.retry();
    await s.outbox.idle();
    expect(await nameOf(b)).toBe('B, renamed');
    const ops = s.outbox.list();
    expect(ops.map((o) => [o.recordId, o.state, o.fields.map((f) => f.field)])).toEqual([
      [a, 'conflict', ['cf_notes']],
      [b, 'conflict', ['cf_notes']],
    ]);
    expect(ops[1]!.conflict!.fields).toEqual([
      expect.objectContaining({
        field: 'cf_notes',
        label: 'cf_notes (deleted on the service)',
        mine: 'Notes of B',
        theirs: null,
      }),
    ]);
    // The list still shows the value kept.
    expect(
      s.store.db
        .prepare("SELECT value FROM record_edits WHERE record_id = ? AND field = 'cf_notes'")
        .pluck()
        .get(b),
    ).toBe('"Notes of B"');

    // Keeping mine would only be refused whole again: refused here, in words, for both.
    for (const op of ops) {
      expect(() => s.outbox.resolve(op.id, [{ field: 'cf_notes', choice: 'mine' }])).toThrow(
        /deleted on the service.*Take the service's version to drop it.*Nothing was changed/,
      );
    }
    expect(s.outbox.list()).toEqual(ops);
    for (const op of ops) s.outbox.resolve(op.id, [{ field: 'cf_notes', choice: 'theirs' }]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
  });
});
