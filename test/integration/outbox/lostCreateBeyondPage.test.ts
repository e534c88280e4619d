/**
 * A create whose answer was lost is looked up among the records of its name before it goes again.
 * An import queues many records of one name ("Laptop", a serial each) and they go in parallel: the
 * others keep being made while the lost one waits for its answer, so by the time it is looked up
 * more than one page of records of that name are newer than it. It must still be found, not made
 * twice.
 */
import { describe, expect, it } from 'vitest';
import { LOOKUP_PAGE } from '../../../src/main/outbox/sendContext';
import { outboxSession } from './outboxSession';

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 1_000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

describe('a lost create behind more than a page of newer ones', () => {
  it('is adopted after a restart, not made again', async () => {
    const s = await outboxSession();
    const name = 'Bulk laptop';
    const count = LOOKUP_PAGE + 12;
    s.outbox.setWorkOffline(true);
    for (let i = 0; i < count; i++) {
      s.outbox.create(s.portalId, s.module.id, { name, cf_serial_number: `SN-${i}` });
    }
    // The first create reaches the service, which makes the record; its answer never comes back.
    let posts = 0;
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/entities') && posts++ === 0
        ? 'hang-after-send'
        : 'pass',
    );
    s.outbox.setWorkOffline(false);
    const made = () =>
      s.emulator.state.db
        .prepare('SELECT count(*) FROM entities WHERE name = ?')
        .pluck()
        .get(name) as number;
    // Every other create is delivered while the first one hangs.
    await until(() => made() === count && s.outbox.list().length === 1, 'the other creates');
    expect(s.outbox.list()).toMatchObject([{ kind: 'create', state: 'sending', uncertain: true }]);
    s.outbox.close(); // kill -9: nothing more is written by this process

    s.setFault(() => 'pass');
    const restarted = s.open();
    await restarted.idle();
    expect(restarted.list()).toEqual([]);
    const serials = s.emulator.state.db
      .prepare(
        `SELECT json_extract(custom, '$.cf_serial_number') FROM entities WHERE name = ? ORDER BY 1`,
      )
      .pluck()
      .all(name);
    expect(serials).toHaveLength(count);
    expect(new Set(serials).size).toBe(count);
    // The mirror holds each once, by its server id: no temporary record is left.
    expect(
      s.store.db.prepare('SELECT count(*) FROM records WHERE name = ?').pluck().get(name),
    ).toBe(count);
  }, 60_000);

  it('a comment whose answer was lost is adopted after a restart, however many came after it', async () => {
    const s = await outboxSession();
    const record = s.recordIds[0]!;
    const comments = s
      .path(record)
      .replace(
        `/entities/${record}`,
        `/entity/${record}/${encodeURIComponent(s.emulator.commentSegment)}`,
      );
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith(comments.split('/').pop()!)
        ? 'hang-after-send'
        : 'pass',
    );
    s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: record, content: 'Lost' });
    const made = (content: string) =>
      s.emulator.state.db
        .prepare('SELECT count(*) FROM comments WHERE content = ? AND entity_id = ?')
        .pluck()
        .get(content, Number(record)) as number;
    await until(() => made('Lost') === 1, 'the comment');
    // While the answer hangs, the team discusses the record on the service (the same account
    // on another device: the creator alone cannot tell them apart).
    for (let i = 0; i < LOOKUP_PAGE + 5; i++) {
      const reply = await s.call('POST', comments, { content: `Reply ${i}` });
      expect(reply.status).toBe(201);
    }
    s.outbox.close(); // kill -9

    s.setFault(() => 'pass');
    const restarted = s.open();
    await restarted.idle();
    expect(restarted.list()).toEqual([]);
    expect(made('Lost')).toBe(1);
  }, 60_000);
});
