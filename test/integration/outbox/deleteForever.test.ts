/**
 * A record deleted for good from the recycle bin: only a trashed one (trashed on the service, or
 * by a trash queued here, which goes first), once, and a lost answer is not an error the second
 * time (the record is gone, which is what the delete does).
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

describe('deleting a record for good', () => {
  it('goes after its trash, exactly once, even when the answer was lost', async () => {
    const s = await outboxSession();
    const [a, b] = s.recordIds as [string, string];
    const entity = (id: string) =>
      s.emulator.state.db
        .prepare('SELECT id, trashed_time FROM entities WHERE id = ?')
        .get(Number(id));
    const mirrored = (id: string) =>
      s.store.db
        .prepare('SELECT count(*) FROM records WHERE portal_id = ? AND id = ?')
        .pluck()
        .get(s.portalId, id);

    expect(() => s.outbox.deleteForever(s.portalId, a)).toThrow(/not in the recycle bin/);
    s.outbox.setWorkOffline(true);
    s.outbox.trash(s.portalId, a, false);
    s.outbox.deleteForever(s.portalId, a);
    expect(() => s.outbox.deleteForever(s.portalId, a)).toThrow(/already queued/);
    expect(s.outbox.list().map((e) => e.kind)).toEqual(['trash', 'delete']);

    // The DELETE reaches the service, its answer does not.
    s.setFault((method, url) =>
      method === 'DELETE' && url.pathname.endsWith(`/entities/${a}`) ? 'lose-answer' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(entity(a)).toBeUndefined();
    expect(s.outbox.list()[0]).toMatchObject({ kind: 'delete', uncertain: true });
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(mirrored(a)).toBe(0);

    // A restore queued first holds the delete back in order; discarding the delete keeps the record.
    s.outbox.setWorkOffline(true);
    s.outbox.trash(s.portalId, b, false);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(entity(b)).toMatchObject({ trashed_time: expect.any(String) });
    s.outbox.setWorkOffline(true);
    const { opId } = s.outbox.deleteForever(s.portalId, b);
    s.outbox.discard(opId!);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(entity(b)).toBeDefined();
    expect(mirrored(b)).toBe(1);
  });
});
