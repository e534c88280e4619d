/**
 * The replay meets an access token that expires while it runs (401: the client renews it and
 * sends once more) and the service's rate limit (429 with Retry-After): neither is a change made,
 * so nothing may be skipped and nothing sent twice, and each record's changes still reach the
 * service in the order they were made.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

describe('a 401 and 429s in the middle of a replay', () => {
  it('neither skip nor duplicate a change, and keep each record in order', async () => {
    const s = await outboxSession();
    const [a, b, c] = s.recordIds as [string, string, string];
    s.outbox.setWorkOffline(true);
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: a, content: 'Before' });
    s.outbox.edit(s.portalId, a, { name: 'A first' });
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: a, content: 'On A' });
    s.outbox.edit(s.portalId, a, { name: 'A second' });
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: b, content: 'On B' });
    s.outbox.edit(s.portalId, b, { cf_quantity: 3 });
    s.outbox.trash(s.portalId, c, false);
    const { recordId: temp } = s.outbox.create(s.portalId, s.module.id, {
      name: 'Made mid-replay',
      cf_serial_number: 'SN-MID',
    });
    s.outbox.edit(s.portalId, temp, { cf_quantity: 9 });
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: temp, content: 'On new' });

    const commentsPath = (recordId: string) =>
      s
        .path(recordId)
        .replace(
          `/entities/${recordId}`,
          `/entity/${recordId}/${encodeURIComponent(s.emulator.commentSegment)}`,
        );
    const queuedOnA = s.outbox
      .list()
      .filter((op) => op.recordId === a)
      .map((op) =>
        op.kind === 'update' ? `PATCH /api/v3${s.path(a)}` : `POST /api/v3${commentsPath(a)}`,
      );
    expect(queuedOnA).toHaveLength(3);
    // Every write the service applies, in order (its stats count them, answer lost or not).
    const applied: string[] = [];
    const stats = s.emulator.state.stats;
    const count = stats.applied.bind(stats);
    stats.applied = (method, path) => {
      applied.push(`${method} ${path}`);
      count(method, path);
    };

    // Every other write finds the access token expired: the service answers 401, the client
    // renews the token and sends again.
    const db = s.emulator.state.db;
    let writes = 0;
    s.setGate(async (method, _url, answered) => {
      if (method === 'GET' || answered) return;
      if (writes++ % 2 === 0) db.prepare('UPDATE oauth_access_tokens SET expires_ms = 0').run();
    });
    // A third of the calls to records are answered 429, Retry-After 1 s, touching nothing.
    expect(
      (await s.admin('POST', 'faults', { faults: [{ path: '/entit', error429: 0.3 }] })).status,
    ).toBe(200);
    s.outbox.setWorkOffline(false);
    for (let round = 0; round < 80 && s.outbox.status().total > 0; round++) {
      s.outbox.retry();
      await s.outbox.idle();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await s.admin('POST', 'faults', { faults: [] });
    s.setGate(async () => undefined);
    // The checks below read as another client, whose token expired with the rest.
    db.prepare('UPDATE oauth_access_tokens SET expires_ms = ?').run(Number.MAX_SAFE_INTEGER);
    expect(s.outbox.list().map((op) => [op.kind, op.state, op.error])).toEqual([]);

    const rows = (sql: string, ...args: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...args) as number;
    expect(rows("SELECT count(*) FROM entities WHERE name = 'Made mid-replay'")).toBe(1);
    const made = String(
      db.prepare("SELECT id FROM entities WHERE name = 'Made mid-replay'").pluck().get(),
    );
    for (const [content, id] of [
      ['Before', a],
      ['On A', a],
      ['On B', b],
      ['On new', made],
    ] as const) {
      expect(
        rows('SELECT count(*) FROM comments WHERE content = ? AND entity_id = ?', content, +id),
      ).toBe(1);
    }
    expect(await s.serverRecord(a)).toMatchObject({ name: 'A second' });
    expect(await s.serverRecord(b)).toMatchObject({ cf_quantity: 3 });
    expect((await s.serverRecord(c)).trashed_time).not.toBeNull();
    expect(await s.serverRecord(made)).toMatchObject({ cf_quantity: 9 });

    // What the service applied on record A, in order: the queue's order, each once.
    expect(applied.filter((w) => w.includes(`/${a}`))).toEqual(queuedOnA);
    // The new record's edit went with its create (folded in before it was sent), once.
    expect(applied.filter((w) => w.endsWith('/entities'))).toHaveLength(1);
    expect(applied.filter((w) => w.includes(`/${made}`))).toEqual([
      `POST /api/v3${commentsPath(made)}`,
    ]);
    // The 401s and 429s happened: more sends than changes applied.
    expect(s.writes().length).toBeGreaterThan(applied.length);
  }, 120_000);
});
