/**
 * A create or comment whose send may have reached the service (the connection reset as it went)
 * is looked up before it is sent again. Another user of the portal made an identical one at about
 * the same time: it is theirs (the service names its creator: a record's owner, a comment's
 * created_by), not ours, so it must not be adopted as ours, and ours must still be made. Who we
 * are in the portal is learnt from the answers to our own creates.
 */
import { describe, expect, it } from 'vitest';
import { api, grantToken } from '../../support/emulator';
import { outboxSession } from './outboxSession';

async function setUp() {
  const s = await outboxSession();
  const db = s.emulator.state.db;
  const me = db
    .prepare('SELECT zpuid FROM users WHERE email = ?')
    .pluck()
    .get(s.emulator.user.email);
  const other = db
    .prepare(
      `SELECT u.email, u.zpuid FROM users u JOIN portal_users p ON p.zpuid = u.zpuid
       WHERE p.portal_id = ? AND u.zpuid <> ? AND u.status = 'active' ORDER BY u.zpuid LIMIT 1`,
    )
    .get(Number(s.portalId), me) as { email: string; zpuid: string };
  const token = grantToken(s.emulator, { email: other.email });
  /** A call as the other user makes it. */
  const asOther = (method: string, path: string, body?: unknown) =>
    api(s.emulator.dcs.us!.api, token, method, `/api/v3${path}`, body);
  const commentsPath = (recordId: string) =>
    s
      .path(recordId)
      .replace(
        `/entities/${recordId}`,
        `/entity/${recordId}/${encodeURIComponent(s.emulator.commentSegment)}`,
      );
  const [first, second] = s.recordIds as [string, string];
  // One comment of ours delivered first: its answer says who we are in the portal.
  s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: first, content: 'Hello' });
  await s.outbox.idle();
  expect(s.outbox.list()).toEqual([]);
  return { s, me, other, asOther, commentsPath, record: second };
}

/** The first POST to `where` resets as it leaves: the service never got it, we cannot tell. */
function resetFirstPost(s: Awaited<ReturnType<typeof setUp>>['s'], where: (url: URL) => boolean) {
  let posts = 0;
  s.setFault((method, url) =>
    method === 'POST' && where(url) && posts++ === 0 ? 'reset-unsent' : 'pass',
  );
}

describe('a lost send looked up before it goes again', () => {
  it("does not take another user's identical comment for ours", async () => {
    const { s, me, other, asOther, commentsPath, record } = await setUp();
    resetFirstPost(s, (url) => url.pathname.endsWith(commentsPath(record).split('/').pop()!));
    s.outbox.comment({
      action: 'add',
      portalId: s.portalId,
      recordId: record,
      content: 'Same words',
    });
    await s.outbox.idle();
    expect(s.outbox.list()).toMatchObject([{ kind: 'comment_add', uncertain: true }]);

    const theirs = await asOther('POST', commentsPath(record), { content: 'Same words' });
    expect(theirs.status).toBe(201);
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const listed = await s.call('GET', commentsPath(record));
    const authors = (listed.body.comments as { content: string; created_by: { zpuid: string } }[])
      .filter((comment) => comment.content === 'Same words')
      .map((comment) => comment.created_by.zpuid)
      .sort();
    expect(authors).toEqual([me, other.zpuid].sort());
  });

  it("does not take another user's identical record for ours", async () => {
    const { s, me, other, asOther } = await setUp();
    const values = { name: 'Twin laptop', cf_serial_number: 'SN-TWIN' };
    resetFirstPost(s, (url) => url.pathname.endsWith('/entities'));
    s.outbox.create(s.portalId, s.module.id, values);
    await s.outbox.idle();
    expect(s.outbox.list()).toMatchObject([{ kind: 'create', uncertain: true }]);

    const theirs = await asOther(
      'POST',
      `/portal/${s.portalId}/projects/${s.module.apiName}/entities`,
      values,
    );
    expect(theirs.status).toBe(201);
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const owners = s.emulator.state.db
      .prepare("SELECT owner_zpuid FROM entities WHERE name = 'Twin laptop' ORDER BY owner_zpuid")
      .pluck()
      .all();
    expect(owners).toEqual([me, other.zpuid].sort());
  });
});
