/**
 * Exactly once through failures: a process killed between a PATCH and its acknowledgement, a
 * create whose answer was lost, transient errors, no connection, and a 4xx that stops only its
 * own record's queue.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

describe('outbox failures', () => {
  it('loses nothing and duplicates nothing when killed between the PATCH and its acknowledgement', async () => {
    const s = await outboxSession();
    const [a, b] = s.recordIds as [string, string];
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { name: 'Sent before the crash', cf_quantity: 5 });
    s.outbox.edit(s.portalId, b, { name: 'Queued behind it' });
    // The service applies the PATCH of record a, and the process dies before reading the answer.
    s.setFault((method, url) =>
      method === 'PATCH' && url.pathname.endsWith(`/${a}`) ? 'hang-after-send' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await until(
      async () => (await s.serverRecord(a)).name === 'Sent before the crash',
      'the PATCH',
    );
    const before = (await s.serverRecord(a)).last_updated_time as string;
    const stored = s.store.db
      .prepare('SELECT state, sent_body FROM outbox_ops WHERE record_id = ?')
      .get(a) as {
      state: string;
      sent_body: string | null;
    };
    expect(stored.state).toBe('sending');
    expect(JSON.parse(stored.sent_body!)).toEqual({
      name: 'Sent before the crash',
      cf_quantity: 5,
    });
    s.outbox.close(); // kill -9: nothing more is written by this process

    s.setFault(() => 'pass');
    const restarted = s.open();
    await restarted.idle();
    const patchesOfA = s
      .writes()
      .filter((w) => w.method === 'PATCH' && w.url.pathname.endsWith(`/${a}`));
    expect(patchesOfA).toHaveLength(1); // the restart compared first and sent nothing again
    const server = await s.serverRecord(a);
    expect(server).toMatchObject({ name: 'Sent before the crash', cf_quantity: 5 });
    expect(server.last_updated_time).toBe(before);
    expect((await s.serverRecord(b)).name).toBe('Queued behind it'); // nothing lost
    expect(restarted.list()).toEqual([]);
    expect(s.store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(0);
  });

  it('looks a create whose answer was lost up before any retry, so no duplicate is made', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    const { recordId: temp } = s.outbox.create(s.portalId, s.module.id, {
      name: 'Lost answer laptop',
      cf_serial_number: 'SN-LOST',
    });
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/entities') ? 'lose-answer' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [waiting] = s.outbox.list();
    expect(waiting).toMatchObject({ kind: 'create', state: 'pending', uncertain: true });
    expect(waiting!.error).toMatch(/may have reached/);
    expect(s.outbox.status().online).toBe(false);

    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    const named = s.emulator.state.db
      .prepare("SELECT id FROM entities WHERE name = 'Lost answer laptop'")
      .pluck()
      .all() as number[];
    expect(named).toHaveLength(1);
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(1);
    expect(s.outbox.list()).toEqual([]);
    expect(
      s.store.db.prepare('SELECT id FROM records WHERE id = ?').pluck().get(String(named[0])),
    ).toBe(String(named[0]));
    expect(s.store.db.prepare('SELECT count(*) FROM records WHERE id = ?').pluck().get(temp)).toBe(
      0,
    );
  });

  it('a crash after a create was sent: the restart adopts the record instead of creating it twice', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    s.outbox.create(s.portalId, s.module.id, {
      name: 'Crash laptop',
      cf_serial_number: 'SN-CRASH',
    });
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/entities') ? 'hang-after-send' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    const count = () =>
      s.emulator.state.db
        .prepare("SELECT count(*) FROM entities WHERE name = 'Crash laptop'")
        .pluck()
        .get() as number;
    await until(() => count() === 1, 'the POST');
    s.outbox.close();
    s.setFault(() => 'pass');
    const restarted = s.open();
    await restarted.idle();
    expect(count()).toBe(1);
    expect(restarted.list()).toEqual([]);
  });

  it('a create and a comment answered 2xx with a reply it cannot read are made once: a retry looks them up first', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    s.outbox.create(s.portalId, s.module.id, { name: 'Garbled laptop', cf_serial_number: 'SN-G' });
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: id, content: 'Garbled' });
    // The service makes both and answers 201, with a body PortalDesk cannot read.
    s.setFault((method) => (method === 'POST' ? 'garble-answer' : 'pass'));
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const refused = s.outbox.list();
    expect(refused.map((op) => [op.kind, op.state, op.uncertain])).toEqual([
      ['create', 'failed', true],
      ['comment_add', 'failed', true],
    ]);
    expect(refused[0]!.error).toMatch(/may have made the change/);

    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const made = (sql: string) => s.emulator.state.db.prepare(sql).pluck().get() as number;
    expect(made("SELECT count(*) FROM entities WHERE name = 'Garbled laptop'")).toBe(1);
    expect(made("SELECT count(*) FROM comments WHERE content = 'Garbled'")).toBe(1);
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(2);
  });

  it('two identical creates, one of them looked up after a reset: two records, each adopted once', async () => {
    const s = await outboxSession();
    const values = { name: 'Twin chair', cf_serial_number: 'SN-TWIN' };
    s.outbox.setWorkOffline(true);
    s.outbox.create(s.portalId, s.module.id, values);
    let posts = 0;
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/entities') && ++posts === 1
        ? 'reset-unsent'
        : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toMatchObject([{ kind: 'create', state: 'pending', uncertain: true }]);
    // A second chair like the first, queued while the replay waits for the connection.
    s.outbox.create(s.portalId, s.module.id, values);

    // The service makes the second chair, then lists the records of that name for the first
    // chair's lookup; the lookup's answer reaches PortalDesk before the second chair's.
    let made!: () => void;
    const madeOnServer = new Promise<void>((resolve) => (made = resolve));
    let listed!: () => void;
    const lookupAnswered = new Promise<void>((resolve) => (listed = resolve));
    s.setGate(async (method, url, answered) => {
      if (!url.pathname.endsWith('/entities')) return;
      if (method === 'POST' && answered) {
        made();
        await lookupAnswered;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (method === 'GET' && url.searchParams.has('filter')) {
        if (!answered) await Promise.race([madeOnServer, new Promise((r) => setTimeout(r, 500))]);
        else listed();
      }
    });
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const onServer = s.emulator.state.db
      .prepare("SELECT id FROM entities WHERE name = 'Twin chair'")
      .pluck()
      .all()
      .map(String);
    expect(onServer).toHaveLength(2);
    const mirrored = s.store.db
      .prepare("SELECT id FROM records WHERE name = 'Twin chair' ORDER BY id")
      .pluck()
      .all();
    expect(mirrored).toEqual(onServer.sort());
  });

  it('retries transient errors with backoff, then delivers', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    // The client itself retries a send that never left four times; the fifth refusal reaches the outbox.
    let failures = 5;
    s.setFault((method) => {
      if (method === 'PATCH' && failures > 0) {
        failures--;
        return 'refuse';
      }
      return 'pass';
    });
    s.outbox.edit(s.portalId, id, { cf_quantity: 42 });
    await s.outbox.idle();
    // No connection: the replay holds and says so; it comes back without the user.
    expect(s.outbox.status().online).toBe(false);
    expect(s.outbox.list()[0]).toMatchObject({ state: 'pending' });
    await until(() => s.outbox.status().total === 0, 'the retries');
    expect((await s.serverRecord(id)).cf_quantity).toBe(42);
    expect(s.outbox.status().online).toBe(true);
  });

  it("stops only the refused record's queue, with the service's reason", async () => {
    const s = await outboxSession();
    const [a, b] = s.recordsWithField('cf_category') as [string, string];
    const field = s.store.db
      .prepare("SELECT id FROM fields WHERE portal_id = ? AND api_name = 'cf_category'")
      .pluck()
      .get(s.portalId) as string;
    const option = s.store.db
      .prepare(
        "SELECT value_id FROM field_options WHERE portal_id = ? AND field_id = ? AND value = 'Furniture'",
      )
      .pluck()
      .get(s.portalId, field) as string;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { cf_category: 'Furniture' });
    s.outbox.comment({
      action: 'add',
      portalId: s.portalId,
      recordId: a,
      content: 'behind the refused edit',
    });
    s.outbox.edit(s.portalId, b, { name: 'Unaffected' });
    // The option goes on the service after the mirror was pulled: the edit is now invalid there.
    const removed = await s.call('DELETE', `/portal/${s.portalId}/settings/options`, {
      module: 'assets',
      field,
      custom_options: [{ id: option }],
    });
    expect(removed.status).toBeLessThan(300);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();

    const ops = s.outbox.list();
    expect(ops.map((op) => [op.recordId, op.kind, op.state])).toEqual([
      [a, 'update', 'failed'],
      [a, 'comment_add', 'pending'],
    ]);
    expect(ops[0]!.error).toMatch(/refused.*Furniture/);
    expect((await s.serverRecord(b)).name).toBe('Unaffected');
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(0);
    expect(
      s.events.some(
        (e) =>
          e.event === 'outbox.changed' &&
          (e.payload as { notice: { kind: string } | null }).notice?.kind === 'attention',
      ),
    ).toBe(true);

    // Discarding the refused edit lets the record's queue go on.
    s.outbox.discard(ops[0]!.id);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(1);
  });
});
