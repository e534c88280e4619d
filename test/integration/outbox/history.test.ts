/**
 * The outbox's history against the emulator: one row per delivered operation with the request
 * that went and the answer that came back, written in the delivery's own transaction; searched
 * and exported. And a replayed status change shows in the record's mirrored timeline at once.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../src/shared/ipc/areas/outboxHistory';
import { configureOn } from '../configure/configureSession';
import { outboxSession } from './outboxSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

const everything = (s: Session): HistoryEntry[] => s.outbox.historyPage({}, 0, 200).entries;

/** A status the record may move to from the one it has (the editor's list, current first). */
function nextStatus(s: Session, recordId: string): { id: string; name: string } {
  const form = s.outbox.form(s.portalId, s.module.id, recordId);
  const status = form.fields.find((f) => f.key === 'status');
  const next = status?.statuses[1];
  if (!next) throw new Error(`Record ${recordId} has no status to move to.`);
  return next;
}

const opsLeft = (s: Session) => s.store.db.prepare('SELECT seq FROM outbox_ops').pluck().all();
const historyOps = (s: Session) =>
  s.store.db.prepare('SELECT op_seq FROM outbox_history ORDER BY op_seq').pluck().all();

describe('outbox history', () => {
  it('keeps exactly one row per delivered operation, with its request and answer', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    const [a, b, c, d] = s.recordIds as [string, string, string, string];
    const status = nextStatus(s, b);
    s.outbox.edit(s.portalId, a, { name: 'Sent, then "kept", in history' });
    s.outbox.edit(s.portalId, b, { status: status.id });
    s.outbox.create(s.portalId, s.module.id, { name: 'Made offline', cf_serial_number: 'SN-H-1' });
    s.outbox.trash(s.portalId, c, false);
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: d, content: 'hello, log' });
    const queued = s.outbox.list();
    expect(queued.map((op) => op.kind)).toEqual([
      'update',
      'update',
      'create',
      'trash',
      'comment_add',
    ]);
    expect(everything(s)).toEqual([]);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.status().total).toBe(0);
    const rows = everything(s);
    // One row per delivered op, newest first (ids in delivery order).
    expect(rows.map((r) => r.opId).sort((x, y) => x - y)).toEqual(queued.map((op) => op.id));
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((x, y) => y - x));
    // Every change request the replay sent is one row's request, with the service's status.
    const writes = s.writes().map((w) => `${w.method} ${w.url.pathname}`);
    expect(rows.map((r) => `${r.method} ${r.path?.split('?')[0]}`).sort()).toEqual(writes.sort());

    const of = (opId: number) => rows.find((r) => r.opId === opId)!;
    const [renamed, moved, created, trashed, commented] = queued.map((op) => of(op.id)) as [
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
    ];
    expect(renamed).toMatchObject({
      kind: 'update',
      recordId: a,
      recordName: 'Sent, then "kept", in history',
      module: 'Assets',
      method: 'PATCH',
      path: s.path(a).replace(/^/, '/api/v3'),
      status: 200,
      requests: 1,
      fields: [{ field: 'name', label: 'Name' }],
      note: null,
    });
    expect(JSON.parse(renamed.requestBody!)).toEqual({ name: 'Sent, then "kept", in history' });
    expect(JSON.parse(renamed.answer!).entity.name).toBe('Sent, then "kept", in history');
    expect(renamed.answerLength).toBe(renamed.answer!.length);
    expect(renamed.sentAt).not.toBeNull();
    expect(Date.parse(renamed.answeredAt)).toBeGreaterThanOrEqual(Date.parse(renamed.sentAt!));

    expect(moved).toMatchObject({ kind: 'update', method: 'PATCH', status: 200 });
    expect(JSON.parse(moved.requestBody!)).toEqual({ status: { id: status.id } });

    const server = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entities?per_page=5&sort_by=DESC(created_time)`,
    );
    const made = (server.body.entities as { id: string; name: string }[]).find(
      (e) => e.name === 'Made offline',
    )!;
    expect(created).toMatchObject({
      kind: 'create',
      recordId: made.id,
      recordName: 'Made offline',
      method: 'POST',
      status: 201,
    });
    expect(trashed).toMatchObject({ kind: 'trash', recordId: c, method: 'POST', status: 200 });
    expect(trashed.path).toMatch(/\/trash$/);
    expect(commented).toMatchObject({ kind: 'comment_add', recordId: d, method: 'POST' });
    expect(JSON.parse(commented.requestBody!)).toEqual({ content: 'hello, log' });

    // Searched by name, module, field, kind and text of a body.
    const found = (text: string) =>
      s.outbox.historyPage({ text }, 0, 200).entries.map((r) => r.opId);
    expect(found('"kept"')).toEqual([renamed.opId]);
    expect(found('HELLO, LOG')).toEqual([commented.opId]);
    expect(found('comment_add')).toEqual([commented.opId]);
    expect(found('assets')).toHaveLength(5);
    expect(found('100%')).toEqual([]);
    expect(s.outbox.historyPage({ kinds: ['update'] }, 0, 200).total).toBe(2);
    expect(s.outbox.historyPage({ kinds: ['trash', 'create'] }, 0, 1)).toMatchObject({
      total: 2,
      entries: [{ kind: 'trash' }],
    });

    // The export holds what the view shows: JSON as the entries, CSV one line per row.
    const json = s.outbox.exportHistory({ kinds: ['update'] }, 'json');
    expect(json.fileName).toMatch(/^portaldesk-sent-.*\.json$/);
    expect(JSON.parse(json.text)).toEqual(
      s.outbox.historyPage({ kinds: ['update'] }, 0, 200).entries,
    );
    const csv = s.outbox.exportHistory({}, 'csv');
    expect(csv.rows).toBe(5);
    expect(csv.text).toContain('"Sent, then ""kept"", in history"');
    expect(() => s.outbox.exportHistory({ text: 'no such thing at all' }, 'csv')).toThrow(
      /No sent change matches/,
    );
  });

  it('names what a delete removed: the record by its name, the comment by its text', async () => {
    const s = await outboxSession();
    const [a, b] = s.recordIds as [string, string];
    const name = s.outbox.form(s.portalId, s.module.id, a).values.name;
    const text = 'Battery swollen; sent for repair on Monday';
    s.outbox.trash(s.portalId, a, false);
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: b, content: text });
    await s.outbox.idle();
    const segment = encodeURIComponent('record comments');
    const listed = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${b}/${segment}`,
    );
    const commentId = (listed.body.comments as { id: string; content: string }[]).find(
      (c) => c.content === text,
    )?.id;
    expect(commentId).toBeDefined();
    s.outbox.setWorkOffline(true);
    s.outbox.deleteForever(s.portalId, a);
    s.outbox.comment({
      action: 'delete',
      portalId: s.portalId,
      recordId: b,
      commentId: commentId!,
    });
    // Queued (and so when refused, the same entry with the service's reason).
    expect(
      s.outbox.list().map((e) => ({ kind: e.kind, name: e.recordName, comment: e.comment })),
    ).toEqual([
      { kind: 'delete', name, comment: null },
      { kind: 'comment_delete', name: expect.any(String), comment: { commentId, content: text } },
    ]);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [comment, record] = everything(s);
    expect(comment).toMatchObject({ kind: 'comment_delete', recordId: b, comment: text });
    expect(record).toMatchObject({ kind: 'delete', recordId: a, recordName: name, comment: null });
    // Found by its words.
    expect(s.outbox.historyPage({ text: 'swollen' }, 0, 10).entries.map((e) => e.kind)).toEqual([
      'comment_delete',
      'comment_add',
    ]);
  });

  it('reads the status timeline again after a replayed status change, without a sync', async () => {
    const s = await outboxSession();
    const id = s.recordIds[1]!;
    const before = s.mirror.comments.statusTimeline(s.portalId, id);
    const status = nextStatus(s, id);
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { status: status.id });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const after = s.mirror.comments.statusTimeline(s.portalId, id);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.some((entry) => entry.toStatusId === status.id)).toBe(true);
    // The service's own timeline, entry for entry.
    const listed = await s.call(
      'GET',
      `/portal/${s.portalId}/projects/assets/entity/${id}/status-timeline`,
    );
    expect(after.map((e) => e.id).sort()).toEqual(
      (listed.body.status_timeline as { id: string }[]).map((e) => e.id).sort(),
    );
    // The open record panel hears of it.
    expect(s.events.some((e) => e.event === 'records.changed')).toBe(true);
    // A change that leaves the status alone costs no timeline read.
    const reads = () => s.sent.filter((r) => r.url.pathname.endsWith('/status-timeline')).length;
    const counted = reads();
    s.outbox.edit(s.portalId, id, { name: 'Only the name' });
    await s.outbox.idle();
    expect(reads()).toBe(counted);
  });

  it('writes the history row in the delivery transaction: a failure in either keeps neither', async () => {
    const s = await outboxSession();
    const db = s.store.db;
    const [a, b, c] = s.recordIds as [string, string, string];
    s.outbox.setWorkOffline(true);
    const first = s.outbox.edit(s.portalId, a, { name: 'History fails' }).opId!;
    const second = s.outbox.edit(s.portalId, b, { name: 'Queue fails' }).opId!;
    const third = s.outbox.edit(s.portalId, c, { name: 'Nothing fails' }).opId!;
    // The history row of the first cannot be written; the second cannot leave the queue.
    db.exec(`CREATE TEMP TRIGGER fail_history BEFORE INSERT ON outbox_history
             WHEN NEW.op_seq = ${first} BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    db.exec(`CREATE TEMP TRIGGER fail_delete BEFORE DELETE ON outbox_ops
             WHEN OLD.seq = ${second} BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    // Each op is either delivered with its row or queued without one.
    expect(opsLeft(s)).toEqual([first, second]);
    expect(historyOps(s)).toEqual([third]);
    // The mirror did not take the answer either (it is written in the same transaction).
    expect(db.prepare('SELECT name FROM records WHERE id = ?').pluck().get(a)).not.toBe(
      'History fails',
    );

    db.exec('DROP TRIGGER fail_history; DROP TRIGGER fail_delete;');
    const patchesBefore = s.writes().length;
    s.outbox.retry();
    await s.outbox.idle();
    expect(opsLeft(s)).toEqual([]);
    expect(historyOps(s)).toEqual([first, second, third]);
    // The service already had both changes: nothing was sent twice, and the rows say so.
    expect(s.writes().length).toBe(patchesBefore);
    const rows = everything(s).filter((r) => r.opId !== third);
    for (const row of rows) {
      expect(row).toMatchObject({ method: 'GET', requests: 0, requestBody: null });
      expect(row.note).toMatch(/already had the change/);
    }
  });

  it('keeps a delivery across a crash after the send: one row once the restart finds it', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    const op = s.outbox.edit(s.portalId, id, { name: 'Answer lost' }).opId!;
    s.setFault((method) => (method === 'PATCH' ? 'hang-after-send' : 'pass'));
    s.outbox.setWorkOffline(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Killed while the answer was on its way: applied on the service, nothing recorded here.
    s.outbox.close();
    expect(opsLeft(s)).toEqual([op]);
    expect(historyOps(s)).toEqual([]);
    s.setFault(() => 'pass');
    const reopened = s.open();
    await reopened.idle();
    expect(opsLeft(s)).toEqual([]);
    expect(historyOps(s)).toEqual([op]);
  });

  it('keeps configuration changes in the same history, with their action and summary', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    s.outbox.setWorkOffline(true);
    configure.createModule({
      portalId: s.portalId,
      singularName: 'Vehicle',
      pluralName: 'Vehicles',
      iconClass: null,
      isGlobal: true,
      isAllProjects: true,
      isOverviewNeeded: false,
      defaultLayoutType: 'public',
      projects: [],
    });
    const [queued] = s.outbox.list();
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const [row] = s.outbox.historyPage({ kinds: ['config'] }, 0, 10).entries;
    expect(row).toMatchObject({
      opId: queued!.id,
      kind: 'config',
      action: 'module.create',
      recordName: 'Create module Vehicles',
      method: 'POST',
      path: `/api/v3/portal/${s.portalId}/settings/modules`,
      status: 201,
      requests: 1,
    });
    expect(JSON.parse(row!.requestBody!)).toMatchObject({ plural_name: 'Vehicles' });
    expect(s.outbox.historyPage({ text: 'module.create' }, 0, 10).total).toBe(1);
  });
});
