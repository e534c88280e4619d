import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

type Emulator = Awaited<ReturnType<typeof testEmulator>>;
type Row = Record<string, unknown>;

/** The configured segment as a client sends it: percent-encoded, as is. */
const SEGMENT = 'record%20comments';

async function setup(options: Parameters<typeof testEmulator>[0] = {}) {
  const emulator = await testEmulator({ records: 40, ...options });
  const base = emulator.dcs.us!.api;
  const token = grantToken(emulator);
  const portalId = emulator.portals[0]!;
  const { db } = emulator.state;
  const prefix = `/api/v3/portal/${portalId}/projects/assets`;
  const call = (method: string, suffix: string, body?: unknown, withToken = token) =>
    api(base, withToken, method, `${prefix}${suffix}`, body);
  const entity = (
    db
      .prepare(
        `SELECT e.id FROM entities e JOIN modules m ON m.id = e.module_id
         WHERE m.portal_id = ? AND m.api_name = 'assets' ORDER BY e.id`,
      )
      .get(Number(portalId)) as { id: number }
  ).id;
  const comments = `/entity/${entity}/${SEGMENT}`;
  return { emulator, base, token, portalId, db, call, entity, comments, prefix };
}

function snapshot(emulator: Emulator) {
  return emulator.state.db.prepare('SELECT * FROM comments ORDER BY id').all();
}

describe('comments: the endpoint table and its scopes', () => {
  it('answers every row with PMS.custom_fields.<OP>, and 403 without it', async () => {
    const { emulator, call, comments, entity } = await setup();
    const created = await call('POST', comments, { content: 'first' });
    expect(created.status).toBe(201);
    const id = created.body.comment.id as string;
    const rows: [string, string, unknown, string, number][] = [
      ['GET', comments, undefined, 'PMS.custom_fields.READ', 200],
      ['GET', `${comments}/${id}`, undefined, 'PMS.custom_fields.READ', 200],
      ['POST', comments, { content: 'second' }, 'PMS.custom_fields.CREATE', 201],
      ['PATCH', `${comments}/${id}`, { content: 'edited' }, 'PMS.custom_fields.UPDATE', 200],
      ['GET', `/entity/${entity}/commentscount`, undefined, 'PMS.custom_fields.READ', 200],
      ['DELETE', `${comments}/${id}`, undefined, 'PMS.custom_fields.DELETE', 204],
    ];
    const ops = ['READ', 'CREATE', 'UPDATE', 'DELETE'].map((op) => `PMS.custom_fields.${op}`);
    for (const [method, suffix, body, scope, status] of rows) {
      const others = [...ops.filter((s) => s !== scope), 'PMS.portals.ALL'];
      const without = await call(method, suffix, body, grantToken(emulator, { scopes: others }));
      expect(without.status, `${method} ${suffix} without ${scope}`).toBe(403);
      expect(without.body.errorCode).toBe('INVALID_OAUTHSCOPE');
      const withIt = await call(method, suffix, body, grantToken(emulator, { scopes: [scope] }));
      expect(withIt.status, `${method} ${suffix} with ${scope}`).toBe(status);
    }
  });

  it('matches the configured segment however it is encoded, and only it', async () => {
    const { call, entity } = await setup();
    for (const segment of ['record%20comments', 'record comments', 'record%20comment%73']) {
      const reply = await call('GET', `/entity/${entity}/${segment}`);
      expect(reply.status, segment).toBe(200);
    }
    for (const segment of ['record+comments', 'recordcomments', 'comments']) {
      const reply = await call('GET', `/entity/${entity}/${segment}`);
      expect(reply.status, segment).toBe(400);
      expect(reply.body.errorCode).toBe('URL_RULE_NOT_CONFIGURED');
    }
  });

  it('serves another configured segment', async () => {
    const { call, entity } = await setup({ commentSegment: 'case notes' });
    expect((await call('GET', `/entity/${entity}/case%20notes`)).status).toBe(200);
    expect((await call('GET', `/entity/${entity}/${SEGMENT}`)).status).toBe(400);
  });
});

describe('comments: create, read, update, delete, count', () => {
  it('creates a comment by the caller and reads it back', async () => {
    const { call, comments, emulator } = await setup();
    const created = await call('POST', comments, {
      content: 'Looks good',
      attachments: [{ attachment_id: '501' }, { add: [{ attachment_id: 502 }] }],
    });
    expect(created.status).toBe(201);
    const comment = created.body.comment;
    expect(comment).toEqual({
      id: expect.stringMatching(/^\d+$/),
      content: 'Looks good',
      attachments: [{ attachment_id: '501' }, { attachment_id: '502' }],
      created_by: { zpuid: expect.any(String), name: 'Alex Admin', email: emulator.user.email },
      created_time: expect.any(String),
      last_updated_time: comment.created_time,
    });
    expect((await call('GET', `${comments}/${comment.id}`)).body).toEqual({ comment });
  });

  it('limits content to 65535 characters and requires it', async () => {
    const { call, comments, emulator } = await setup();
    expect((await call('POST', comments, { content: 'c'.repeat(65_535) })).status).toBe(201);
    const before = snapshot(emulator);
    const cases: [unknown, RegExp][] = [
      [{ content: 'c'.repeat(65_536) }, /^content is longer than 65535 characters\.$/],
      [{}, /^content is required\.$/],
      [{ content: '  ' }, /^content must not be empty\.$/],
      [{ content: 5 }, /^content must be a string\.$/],
      [{ content: 'x', author: 'me' }, /author is not a comment field/],
      [
        { content: 'x', attachments: [{ remove: [{ attachment_id: '1' }] }] },
        /no attachments to remove/,
      ],
      [{ content: 'x', attachments: 'file' }, /attachments must be an array/],
    ];
    for (const [body, message] of cases) {
      const reply = await call('POST', comments, body);
      expect(reply.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
      expect(reply.body.message).toMatch(message);
    }
    expect((await call('POST', comments, '{"content":')).body.errorCode).toBe(
      'INVALID_INPUTSTREAM',
    );
    expect(snapshot(emulator)).toEqual(before);
  });

  it('updates content and attachments, moving last_updated_time', async () => {
    const { call, comments, emulator } = await setup();
    const comment = (
      await call('POST', comments, { content: 'draft', attachments: [{ attachment_id: '7' }] })
    ).body.comment;
    emulator.state.clock.advance(5_000);
    const patched = await call('PATCH', `${comments}/${comment.id}`, {
      content: 'final',
      attachments: [{ add: [{ attachment_id: '8' }], remove: [{ attachment_id: '7' }] }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.comment).toMatchObject({
      content: 'final',
      attachments: [{ attachment_id: '8' }],
      created_time: comment.created_time,
    });
    expect(
      Date.parse(patched.body.comment.last_updated_time) - Date.parse(comment.created_time),
    ).toBeGreaterThanOrEqual(5_000);
    const before = snapshot(emulator);
    // "content (string, req, max 65535)" on PATCH too.
    const refused = await call('PATCH', `${comments}/${comment.id}`, { attachments: [] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('content is required.');
    const tooLong = await call('PATCH', `${comments}/${comment.id}`, {
      content: 'c'.repeat(65_536),
    });
    expect(tooLong.status).toBe(400);
    expect(snapshot(emulator)).toEqual(before);
  });

  it('deletes a comment and counts what is left', async () => {
    const { call, comments, entity, db } = await setup();
    const stored = () =>
      (
        db.prepare('SELECT COUNT(*) AS n FROM comments WHERE entity_id = ?').get(entity) as {
          n: number;
        }
      ).n;
    const start = stored();
    const a = (await call('POST', comments, { content: 'a' })).body.comment;
    await call('POST', comments, { content: 'b' });
    expect((await call('GET', `/entity/${entity}/commentscount`)).body).toEqual({
      count: start + 2,
    });
    const removed = await call('DELETE', `${comments}/${a.id}`);
    expect(removed.status).toBe(204);
    expect((await call('GET', `${comments}/${a.id}`)).status).toBe(404);
    expect((await call('DELETE', `${comments}/${a.id}`)).status).toBe(404);
    expect((await call('GET', `/entity/${entity}/commentscount`)).body).toEqual({
      count: start + 1,
    });
  });
});

describe('comments: lists', () => {
  it('pages oldest first and sorts by ASC/DESC(field)', async () => {
    const { call, comments, emulator, db, entity } = await setup();
    db.prepare('DELETE FROM comments WHERE entity_id = ?').run(entity);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await call('POST', comments, { content: `c${i}` })).body.comment.id);
      emulator.state.clock.advance(1_000);
    }
    const page = await call('GET', `${comments}?per_page=2&page=2`);
    expect(page.body.comments.map((c: Row) => c.id)).toEqual(made.slice(2, 4));
    expect(page.body.page_info).toEqual({
      page: 2,
      per_page: 2,
      page_count: 5,
      has_next_page: true,
    });
    const down = await call('GET', `${comments}?sort_by=DESC(created_time)`);
    expect(down.body.comments.map((c: Row) => c.id)).toEqual([...made].reverse());
    expect((await call('GET', `${comments}?per_page=200`)).status).toBe(200);
    for (const query of [
      'per_page=201',
      'per_page=0',
      'page=0',
      'sort_by=DESC(content)',
      'sort_by=newest',
    ]) {
      const reply = await call('GET', `${comments}?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }
  });
});

describe('comments: the record they belong to', () => {
  it('answers 404 for an unknown record or a comment of another record', async () => {
    const { call, comments, db, entity } = await setup();
    const reply = await call('GET', `/entity/123456/${SEGMENT}`);
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe('Record 123456 does not exist.');
    expect((await call('GET', '/entity/123456/commentscount')).status).toBe(404);
    const other = db.prepare('SELECT c.id FROM comments c WHERE c.entity_id <> ? ').get(entity) as {
      id: number;
    };
    const foreign = await call('GET', `${comments}/${other.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`Comment ${other.id} does not exist.`);
  });

  it('keeps the comments of a trashed record readable but not writable', async () => {
    const { call, comments, entity, emulator } = await setup();
    const comment = (await call('POST', comments, { content: 'before trash' })).body.comment;
    expect((await call('POST', `/entities/${entity}/trash`)).status).toBe(200);
    expect((await call('GET', comments)).status).toBe(200);
    const before = snapshot(emulator);
    for (const [method, suffix, body] of [
      ['POST', comments, { content: 'x' }],
      ['PATCH', `${comments}/${comment.id}`, { content: 'x' }],
      ['DELETE', `${comments}/${comment.id}`, undefined],
    ] as const) {
      const reply = await call(method, suffix, body);
      expect(reply.status, method).toBe(400);
      expect(reply.body.message).toMatch(/is in the trash; restore it first/);
    }
    expect(snapshot(emulator)).toEqual(before);
  });
});
