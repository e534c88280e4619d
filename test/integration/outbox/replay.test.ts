/**
 * The outbox against the emulator: edits queued offline go out once, coalesced, in order per
 * record; the mirror and the overlay follow the service's answers.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

const patches = (s: { writes(): { method: string; url: URL }[] }) =>
  s.writes().filter((w) => w.method === 'PATCH');

describe('outbox replay', () => {
  it('coalesces consecutive edits of a record into one PATCH with only the changed fields', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    const [a, b] = s.recordsWithField('cf_tags') as [string, string];
    s.outbox.edit(s.portalId, a, { name: 'First try' });
    s.outbox.edit(s.portalId, a, { name: 'Renamed offline', cf_quantity: 7 });
    s.outbox.edit(s.portalId, a, { cf_notes: 'checked\nagain' });
    s.outbox.edit(s.portalId, b, { cf_tags: ['Critical', 'Remote'] });
    expect(s.outbox.list().map((op) => [op.recordId, op.kind, op.edits])).toEqual([
      [a, 'update', 3],
      [b, 'update', 1],
    ]);
    // The lists show the pending values at once.
    const edited = s.store.db
      .prepare('SELECT field, value FROM record_edits WHERE record_id = ? ORDER BY field')
      .all(a);
    expect(edited).toEqual([
      { field: 'cf_notes', value: '"checked\\nagain"' },
      { field: 'cf_quantity', value: '7' },
      { field: 'name', value: '"Renamed offline"' },
    ]);
    await s.outbox.idle();
    expect(s.writes()).toEqual([]); // working offline: nothing went out

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(patches(s)).toHaveLength(2);
    const server = await s.serverRecord(a);
    expect(server.name).toBe('Renamed offline');
    expect(server.cf_quantity).toBe(7);
    expect(server.cf_notes).toBe('checked\nagain');
    expect([...(await s.serverRecord(b)).cf_tags].sort()).toEqual(
      expect.arrayContaining(['Critical', 'Remote']),
    );
    expect(s.outbox.status().total).toBe(0);
    // The overlay is gone and the mirror holds the service's answer.
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
    expect(s.store.db.prepare('SELECT name FROM records WHERE id = ?').pluck().get(a)).toBe(
      'Renamed offline',
    );
  });

  it('drops the operation when an edit is reverted before it went out', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    const id = s.recordIds[0]!;
    const original = (await s.serverRecord(id)).name as string;
    const first = s.outbox.edit(s.portalId, id, { name: 'Temporary' });
    expect(first.opId).not.toBeNull();
    const back = s.outbox.edit(s.portalId, id, { name: original });
    expect(back).toMatchObject({ opId: null, reverted: ['name'] });
    expect(s.outbox.list()).toEqual([]);
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.writes()).toEqual([]);
  });

  it('refuses an invalid value at once, naming the rule, and queues nothing', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    expect(() =>
      s.outbox.edit(s.portalId, id, { cf_quantity: 1.5, cf_supplier_email: 'not-an-address' }),
    ).toThrow(/Quantity: a whole number.*Supplier email: an address like/);
    expect(s.outbox.list()).toEqual([]);
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
  });

  it('creates a record offline under a temporary id, then remaps every reference to the server id', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    const created = s.outbox.create(s.portalId, s.module.id, {
      name: 'Laptop made offline',
      cf_serial_number: 'SN-OFF-1',
      cf_tags: ['Leased'],
    });
    const temp = created.recordId;
    expect(temp).toMatch(/^tmp-/);
    // Edited and commented before it ever reached the service.
    s.outbox.edit(s.portalId, temp, { cf_quantity: 3 });
    const comment = s.outbox.comment({
      action: 'add',
      portalId: s.portalId,
      recordId: temp,
      content: 'Unpacked today',
    });
    expect(s.outbox.list().map((op) => op.kind)).toEqual(['create', 'comment_add']);
    const remaps: unknown[] = [];
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    for (const e of s.events) {
      if (e.event === 'outbox.changed')
        remaps.push(...(e.payload as { remapped: unknown[] }).remapped);
    }
    const row = s.store.db
      .prepare("SELECT id, local_only FROM records WHERE name = 'Laptop made offline'")
      .get() as { id: string; local_only: number };
    expect(row.local_only).toBe(0);
    expect(row.id).toMatch(/^\d+$/);
    const server = await s.serverRecord(row.id);
    expect(server).toMatchObject({ name: 'Laptop made offline', cf_quantity: 3 });
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(2); // record + comment
    const comments = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${row.id}/${encodeURIComponent('record comments')}`,
    );
    expect(comments.body.comments.map((c: { content: string }) => c.content)).toEqual([
      'Unpacked today',
    ]);
    expect(remaps).toEqual(
      expect.arrayContaining([
        { portalId: s.portalId, kind: 'record', from: temp, to: row.id },
        expect.objectContaining({ kind: 'comment', from: comment.commentId }),
      ]),
    );
    expect(s.store.db.prepare('SELECT count(*) FROM records WHERE id = ?').pluck().get(temp)).toBe(
      0,
    );
  });

  it('trashes and restores, and adds, edits and deletes comments', async () => {
    const s = await outboxSession();
    const [a, b] = s.recordIds as [string, string];
    s.outbox.setWorkOffline(true);
    s.outbox.trash(s.portalId, a, false);
    expect(s.store.db.prepare('SELECT list_state FROM records WHERE id = ?').pluck().get(a)).toBe(
      2,
    );
    const added = s.outbox.comment({
      action: 'add',
      portalId: s.portalId,
      recordId: b,
      content: 'one',
    });
    s.outbox.comment({
      action: 'edit',
      portalId: s.portalId,
      recordId: b,
      commentId: added.commentId,
      content: 'one, edited',
    });
    expect(s.outbox.list().map((op) => op.kind)).toEqual(['trash', 'comment_add']);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect((await s.serverRecord(a)).trashed_time).not.toBeNull();
    const segment = encodeURIComponent('record comments');
    const list = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${b}/${segment}`,
    );
    const made = list.body.comments.find((c: { content: string }) => c.content === 'one, edited');
    expect(made).toBeDefined();

    s.outbox.trash(s.portalId, a, true);
    s.outbox.comment({
      action: 'edit',
      portalId: s.portalId,
      recordId: b,
      commentId: made.id,
      content: 'changed once more',
    });
    await s.outbox.idle();
    expect((await s.serverRecord(a)).trashed_time).toBeNull();
    s.outbox.comment({ action: 'delete', portalId: s.portalId, recordId: b, commentId: made.id });
    await s.outbox.idle();
    const after = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${b}/${segment}`,
    );
    expect(after.body.comments.some((c: { id: string }) => c.id === made.id)).toBe(false);
    expect(s.outbox.status().total).toBe(0);
  });
});
