/**
 * Conflicts found by the replay's base-versus-server check, per field, and their resolution.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

describe('outbox conflicts', () => {
  it('holds a field changed on the service since the edit, sends the others, and keeps mine on request', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    const base = (await s.serverRecord(id)).name as string;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { name: 'Mine', cf_quantity: 11 });
    await s.serverPatch(id, { name: 'Theirs' });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();

    const server = await s.serverRecord(id);
    expect(server.name).toBe('Theirs'); // never overwritten silently
    expect(server.cf_quantity).toBe(11); // the field nobody else touched went out
    const [op] = s.outbox.list();
    expect(op).toMatchObject({ state: 'conflict', kind: 'update' });
    expect(op!.conflict).toMatchObject({
      kind: 'fields',
      fields: [{ field: 'name', base, mine: 'Mine', theirs: 'Theirs', editable: true }],
    });
    expect(op!.fields.map((f) => f.field)).toEqual(['name']);
    // The table still shows my pending value over the new server copy.
    expect(
      s.store.db.prepare("SELECT value FROM record_edits WHERE field = 'name'").pluck().get(),
    ).toBe('"Mine"');
    expect(s.store.db.prepare('SELECT name FROM records WHERE id = ?').pluck().get(id)).toBe(
      'Theirs',
    );

    s.outbox.resolve(op!.id, [{ field: 'name', choice: 'mine' }]);
    await s.outbox.idle();
    expect((await s.serverRecord(id)).name).toBe('Mine');
    expect(s.outbox.status().total).toBe(0);
  });

  it('sends without conflict when another field was changed on the service', async () => {
    const s = await outboxSession();
    const id = s.recordIds[1]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { name: 'Only the name' });
    await s.serverPatch(id, { description: 'Someone else wrote this' });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const server = await s.serverRecord(id);
    expect(server).toMatchObject({ name: 'Only the name', description: 'Someone else wrote this' });
    expect(s.outbox.list()).toEqual([]);
  });

  it('takes theirs, or keeps an edited text', async () => {
    const s = await outboxSession();
    const [a, b] = s.recordIds as [string, string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { description: 'mine a' });
    s.outbox.edit(s.portalId, b, { description: 'mine b' });
    await s.serverPatch(a, { description: 'theirs a' });
    await s.serverPatch(b, { description: 'theirs b' });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const ops = s.outbox.list();
    expect(ops.map((op) => op.state)).toEqual(['conflict', 'conflict']);
    s.outbox.resolve(ops[0]!.id, [{ field: 'description', choice: 'theirs' }]);
    s.outbox.resolve(ops[1]!.id, [
      { field: 'description', choice: 'edited', value: 'theirs b, and mine b' },
    ]);
    await s.outbox.idle();
    expect((await s.serverRecord(a)).description).toBe('theirs a');
    expect((await s.serverRecord(b)).description).toBe('theirs b, and mine b');
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
    expect(s.outbox.list()).toEqual([]);
  });

  it('reports a record deleted on the service as a conflict "deleted remotely"', async () => {
    const s = await outboxSession();
    const [a, b] = s.recordIds as [string, string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { name: 'Edited, but gone there' });
    s.outbox.edit(s.portalId, b, { name: 'Edited, also gone there' });
    for (const id of [a, b]) {
      expect((await s.call('POST', `${s.path(id)}/trash`)).status).toBe(200);
      expect((await s.call('DELETE', s.path(id))).status).toBe(204);
    }
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const ops = s.outbox.list();
    expect(ops.map((op) => [op.state, op.conflict?.kind])).toEqual([
      ['conflict', 'deleted'],
      ['conflict', 'deleted'],
    ]);
    expect(s.writes()).toEqual([]);

    // Theirs: the edit and the mirrored copy go. Mine: the record is made again with my values.
    s.outbox.resolve(ops[0]!.id, [], 'theirs');
    expect(s.store.db.prepare('SELECT count(*) FROM records WHERE id = ?').pluck().get(a)).toBe(0);
    s.outbox.resolve(ops[1]!.id, [], 'mine');
    await s.outbox.idle();
    const remade = s.store.db
      .prepare("SELECT id, local_only FROM records WHERE name = 'Edited, also gone there'")
      .get() as { id: string; local_only: number };
    expect(remade.local_only).toBe(0);
    expect(remade.id).not.toBe(b);
    expect((await s.serverRecord(remade.id)).name).toBe('Edited, also gone there');
    expect(s.outbox.list()).toEqual([]);
  });

  it('refuses in words to keep mine of a deleted record a sync has removed here too, instead of meeting the deletion again', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { name: 'Mine on a deleted one' });
    expect((await s.call('POST', `${s.path(id)}/trash`)).status).toBe(200);
    expect((await s.call('DELETE', s.path(id))).status).toBe(204);
    // The sync reaches the service before the replay and takes the record out of the mirror.
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    expect(s.store.db.prepare('SELECT count(*) FROM records WHERE id = ?').pluck().get(id)).toBe(0);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [op] = s.outbox.list();
    expect(op).toMatchObject({ state: 'conflict', conflict: { kind: 'deleted' } });

    expect(() => s.outbox.resolve(op!.id, [], 'mine')).toThrow(
      /removed it from this computer too.*take the service's version/,
    );
    expect(s.outbox.list()).toEqual([op]); // nothing changed
    s.outbox.resolve(op!.id, [], 'theirs');
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(s.writes()).toEqual([]);
  });

  it('keeps mine of a record trashed on the service: restore, my change, then what was queued after it', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { name: 'Mine on a trashed one' });
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: id, content: 'After it' });
    expect((await s.call('POST', `${s.path(id)}/trash`)).status).toBe(200);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [op] = s.outbox.list();
    expect(op).toMatchObject({ state: 'conflict', conflict: { kind: 'trashed' } });

    s.outbox.setWorkOffline(true);
    s.outbox.resolve(op!.id, [], 'mine');
    // The comment, which the service refuses on a trashed record, waits behind the restore.
    expect(s.outbox.list().map((o) => [o.kind, o.state])).toEqual([
      ['restore', 'pending'],
      ['update', 'pending'],
      ['comment_add', 'pending'],
    ]);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const server = await s.serverRecord(id);
    expect(server).toMatchObject({ trashed_time: null, name: 'Mine on a trashed one' });
    const segment = encodeURIComponent('record comments');
    const comments = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${id}/${segment}`,
    );
    expect(comments.body.comments.map((c: { content: string }) => c.content)).toContain('After it');
  });

  it('keeps mine of a deleted record with the comments queued for it: they go to the record made again', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { name: 'Made again with its comment' });
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: id, content: 'Keep me' });
    expect((await s.call('POST', `${s.path(id)}/trash`)).status).toBe(200);
    expect((await s.call('DELETE', s.path(id))).status).toBe(204);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [op] = s.outbox.list();
    expect(op).toMatchObject({ state: 'conflict', conflict: { kind: 'deleted' } });

    s.outbox.resolve(op!.id, [], 'mine');
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const remade = s.store.db
      .prepare("SELECT id FROM records WHERE name = 'Made again with its comment'")
      .pluck()
      .get() as string;
    expect(remade).not.toBe(id);
    const segment = encodeURIComponent('record comments');
    const comments = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${remade}/${segment}`,
    );
    expect(comments.body.comments.map((c: { content: string }) => c.content)).toEqual(['Keep me']);
  });
});
