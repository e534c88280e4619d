import { describe, expect, it } from 'vitest';
import { RESTORE_WINDOW_MS, TRASH_BATCH_MAX } from '@portaldesk/emulator/bin/binRules';
import { api, grantToken, testEmulator } from '../../support/emulator';

type Emulator = Awaited<ReturnType<typeof testEmulator>>;

const MINUTE = 60_000;

async function setup() {
  const emulator = await testEmulator();
  const base = emulator.dcs.us!.api;
  const token = grantToken(emulator);
  const portalId = emulator.portals[0]!;
  const otherPortalId = emulator.portals[1]!;
  const { db } = emulator.state;
  const ids = (module: string, portal = portalId): string[] =>
    (
      db
        .prepare('SELECT id FROM work_items WHERE portal_id = ? AND module = ? ORDER BY id')
        .all(Number(portal), module) as { id: number }[]
    ).map((row) => String(row.id));
  const call = (method: string, path: string, body?: unknown, withToken = token) =>
    api(base, withToken, method, `/api/v3/portal/${portalId}${path}`, body);
  return { emulator, base, token, portalId, otherPortalId, db, ids, call };
}

/** The work_items table as it is now, to prove a refused request changed nothing. */
function snapshot(emulator: Emulator) {
  return emulator.state.db.prepare('SELECT * FROM work_items ORDER BY id').all();
}

/** Adds tasks to the portal's first project so one module has more than 100 records. */
function addTasks(emulator: Emulator, portalId: string, count: number): string[] {
  const { db } = emulator.state;
  const project = db
    .prepare("SELECT id FROM work_items WHERE portal_id = ? AND module = 'projects' ORDER BY id")
    .get(Number(portalId)) as { id: number };
  const insert = db.prepare(
    `INSERT INTO work_items (id, portal_id, module, name, project_id, created_time)
     VALUES (?, ?, 'tasks', ?, ?, ?)`,
  );
  const added: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = emulator.state.nextId();
    insert.run(id, Number(portalId), `Extra task ${i}`, project.id, emulator.state.nowIso());
    added.push(String(id));
  }
  return added;
}

describe('recycle bin: trash (POST /trash)', () => {
  it('moves records to the bin, stamped with time and user, and lists them', async () => {
    const { call, ids, db, emulator } = await setup();
    const tasks = ids('tasks').slice(0, 2);
    const trashed = await call('POST', '/trash', { module: 'tasks', items: tasks });
    expect(trashed.status).toBe(200);
    expect(trashed.body.bin_items.map((item: { id: string }) => item.id)).toEqual(tasks);
    const item = trashed.body.bin_items[0];
    expect(item).toMatchObject({
      module: 'tasks',
      trashed_time: emulator.state.nowIso().slice(0, 10) + item.trashed_time.slice(10),
      is_restorable: true,
      trashed_by: { email: emulator.user.email },
    });
    expect(item.project).toEqual({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) });
    expect(Date.parse(item.restorable_until) - Date.parse(item.trashed_time)).toBe(
      RESTORE_WINDOW_MS,
    );
    const row = db
      .prepare('SELECT trashed_time, trashed_by FROM work_items WHERE id = ?')
      .get(Number(tasks[0])) as { trashed_time: string | null; trashed_by: string | null };
    expect(row.trashed_time).not.toBeNull();
    const list = await call('GET', '/bin');
    expect(list.status).toBe(200);
    expect(list.body.bin_items.map((entry: { id: string }) => entry.id).sort()).toEqual(
      [...tasks].sort(),
    );
    expect(list.body.page_info).toEqual({
      page: 1,
      per_page: 100,
      page_count: 2,
      has_next_page: false,
    });
  });

  it('accepts 0 items (nothing happens) and exactly 100, refuses 101 and changes nothing', async () => {
    const { call, emulator, portalId, ids } = await setup();
    const before = snapshot(emulator);
    const none = await call('POST', '/trash', { module: 'tasks', items: [] });
    expect(none.status).toBe(200);
    expect(none.body.bin_items).toEqual([]);
    expect(snapshot(emulator)).toEqual(before);

    addTasks(emulator, portalId, 60);
    const all = ids('tasks');
    expect(all.length).toBeGreaterThan(TRASH_BATCH_MAX);
    const tooMany = await call('POST', '/trash', {
      module: 'tasks',
      items: all.slice(0, TRASH_BATCH_MAX + 1),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    expect(tooMany.body.message).toBe('items has 101 ids; at most 100 are allowed.');
    const unchanged = snapshot(emulator);
    expect(unchanged.length).toBe(before.length + 60);

    const hundred = await call('POST', '/trash', {
      module: 'tasks',
      items: all.slice(0, TRASH_BATCH_MAX),
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.bin_items).toHaveLength(100);
  });

  it('refuses a missing or unknown module, and accepts the module id', async () => {
    const { call, emulator, ids, portalId, db } = await setup();
    const before = snapshot(emulator);
    const missing = await call('POST', '/trash', { items: ids('tasks').slice(0, 1) });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('module is required.');
    for (const module of ['milestones', 'assets', 'Tasks', 42]) {
      const reply = await call('POST', '/trash', { module, items: ids('tasks').slice(0, 1) });
      expect(reply.status, String(module)).toBe(400);
      expect(reply.body.message).toMatch(/^module must be one of projects, phases, tasklists/);
    }
    const customModuleId = db
      .prepare("SELECT id FROM modules WHERE portal_id = ? AND api_name = 'assets'")
      .get(Number(portalId)) as { id: number } | undefined;
    if (customModuleId) {
      const custom = await call('POST', '/trash', {
        module: String(customModuleId.id),
        items: [],
      });
      expect(custom.status).toBe(400);
    }
    expect(snapshot(emulator)).toEqual(before);

    const tasksModule = db
      .prepare("SELECT id FROM modules WHERE portal_id = ? AND api_name = 'tasks'")
      .get(Number(portalId)) as { id: number };
    const byId = await call('POST', '/trash', {
      module: String(tasksModule.id),
      items: ids('tasks').slice(0, 1),
    });
    expect(byId.status).toBe(200);
    expect(byId.body.bin_items[0].module).toBe('tasks');
  });

  it('names ids that are not records of the module in this portal, or already trashed', async () => {
    const { call, emulator, ids, otherPortalId } = await setup();
    const task = ids('tasks')[0]!;
    const otherPortalTask = ids('tasks', otherPortalId)[0]!;
    const issue = ids('issues')[0]!;
    const before = snapshot(emulator);

    const foreign = await call('POST', '/trash', {
      module: 'tasks',
      items: [task, otherPortalTask, '999999999', issue],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain(`${otherPortalTask}, 999999999, ${issue}`);
    expect(foreign.body.message).toContain('are not tasks of portal');
    expect(foreign.body.message).not.toContain(`${task},`);

    for (const items of [['abc'], [0], ['-5'], 'not-an-array', [{}]]) {
      const reply = await call('POST', '/trash', { module: 'tasks', items });
      expect(reply.status, JSON.stringify(items)).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }
    const typo = await call('POST', '/trash', { module: 'tasks', item: [task] });
    expect(typo.status).toBe(400);
    expect(typo.body.message).toContain('item is not a known parameter');
    expect(snapshot(emulator)).toEqual(before);

    expect((await call('POST', '/trash', { module: 'tasks', items: [task] })).status).toBe(200);
    const again = await call('POST', '/trash', { module: 'tasks', items: [task] });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(`items: ${task} are already in the bin.`);
  });

  it('trashing a project takes its contents along: hidden, untouchable, restored with it', async () => {
    const { call, emulator, db } = await setup();
    const project = db
      .prepare("SELECT id FROM work_items WHERE module = 'projects' ORDER BY id")
      .get() as { id: number };
    const children = db
      .prepare('SELECT id, module FROM work_items WHERE project_id = ? ORDER BY id')
      .all(project.id) as { id: number; module: string }[];
    expect(children.length).toBeGreaterThan(0);
    const task = children.find((child) => child.module === 'tasks')!;

    expect(
      (await call('POST', '/trash', { module: 'projects', items: [String(project.id)] })).status,
    ).toBe(200);
    const list = await call('GET', '/bin');
    expect(list.body.bin_items.map((item: { id: string }) => item.id)).toEqual([
      String(project.id),
    ]);
    expect(list.body.bin_items[0].project).toBeNull();

    const before = snapshot(emulator);
    const inside = await call('POST', '/trash', { module: 'tasks', items: [String(task.id)] });
    expect(inside.status).toBe(400);
    expect(inside.body.message).toContain('belong to a project that is in the bin');
    expect(snapshot(emulator)).toEqual(before);

    const restored = await call('POST', '/bin/restore', [
      { module: 'projects', items: [String(project.id)] },
    ]);
    expect(restored.status).toBe(200);
    expect(restored.body.restored).toEqual([{ module: 'projects', items: [String(project.id)] }]);
    expect(
      (await call('POST', '/trash', { module: 'tasks', items: [String(task.id)] })).status,
    ).toBe(200);
  });

  it('needs PMS.portals.CREATE', async () => {
    const { emulator, base, portalId, ids } = await setup();
    const readOnly = grantToken(emulator, { scopes: ['PMS.portals.READ'] });
    const reply = await api(base, readOnly, 'POST', `/api/v3/portal/${portalId}/trash`, {
      module: 'tasks',
      items: ids('tasks').slice(0, 1),
    });
    expect(reply.status).toBe(403);
    expect(reply.body.errorCode).toBe('INVALID_OAUTHSCOPE');
  });
});

describe('recycle bin: list (GET /bin)', () => {
  async function withTrash() {
    const context = await setup();
    const { call, ids, emulator } = context;
    const tasks = ids('tasks').slice(0, 3);
    const issues = ids('issues').slice(0, 2);
    await call('POST', '/trash', { module: 'tasks', items: tasks });
    emulator.state.clock.advance(MINUTE);
    await call('POST', '/trash', { module: 'issues', items: issues });
    return { ...context, tasks, issues };
  }

  it('sorts by trashed_time or name, either way, newest first by default', async () => {
    const { call, tasks, issues } = await withTrash();
    const listed = async (sortBy?: string) => {
      const query = sortBy ? `?sort_by=${encodeURIComponent(sortBy)}` : '';
      const reply = await call('GET', `/bin${query}`);
      expect(reply.status, sortBy).toBe(200);
      return reply.body.bin_items as { id: string; name: string; trashed_time: string }[];
    };
    const byDefault = await listed();
    expect(byDefault.slice(0, 2).map((item) => item.id)).toEqual([...issues].reverse());
    const ascending = await listed('asc(trashed_time)');
    expect(ascending.slice(0, 3).map((item) => item.id)).toEqual(tasks);
    const descName = await listed('desc(name)');
    const names = descName.map((item) => item.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    const upper = await listed('ASC(name)');
    expect(upper.map((item) => item.name.toLowerCase())).toEqual([...names].reverse());

    for (const bad of ['asc(created_time)', 'name', 'desc(name', 'up(name)']) {
      const reply = await call('GET', `/bin?sort_by=${encodeURIComponent(bad)}`);
      expect(reply.status, bad).toBe(400);
      expect(reply.body.message).toMatch(/^sort_by must be asc\(<field>\) or desc\(<field>\)/);
    }
  });

  it('filters by module, trashed_by, project_id and search_term', async () => {
    const { call, tasks, issues, emulator, db } = await withTrash();
    const filtered = async (filter: unknown) => {
      const reply = await call(
        'GET',
        `/bin?filter=${encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter))}`,
      );
      return reply;
    };
    const onlyIssues = await filtered({ module: 'issues' });
    expect(onlyIssues.body.bin_items.map((item: { id: string }) => item.id).sort()).toEqual(
      [...issues].sort(),
    );
    expect((await filtered({ module: ['issues', 'tasks'] })).body.page_info.page_count).toBe(5);
    const me = db.prepare('SELECT zpuid FROM users WHERE email = ?').get(emulator.user.email) as {
      zpuid: string;
    };
    expect((await filtered({ trashed_by: me.zpuid })).body.page_info.page_count).toBe(5);
    expect((await filtered({ trashed_by: '123' })).body.page_info.page_count).toBe(0);
    const task = db
      .prepare('SELECT name, project_id FROM work_items WHERE id = ?')
      .get(Number(tasks[0])) as { name: string; project_id: number };
    const inProject = await filtered({ project_id: String(task.project_id) });
    expect(inProject.body.bin_items.length).toBeGreaterThan(0);
    for (const item of inProject.body.bin_items) {
      expect(item.project.id).toBe(String(task.project_id));
    }
    const search = await filtered({ search_term: task.name.slice(1, 6).toUpperCase() });
    expect(search.body.bin_items.map((item: { id: string }) => item.id)).toContain(tasks[0]);

    for (const bad of [
      { color: 'red' },
      { module: 'milestones' },
      { trashed_by: 5 },
      { project_id: 'x' },
      { search_term: 'x'.repeat(201) },
      'not json',
      '[1]',
    ]) {
      const reply = await filtered(bad);
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }
  });

  it('pages with page and per_page, and lists only this portal', async () => {
    const { call, base, token, otherPortalId, ids } = await withTrash();
    const second = await call('GET', '/bin?page=2&per_page=2&sort_by=asc(trashed_time)');
    expect(second.status).toBe(200);
    expect(second.body.bin_items).toHaveLength(2);
    expect(second.body.page_info).toEqual({
      page: 2,
      per_page: 2,
      page_count: 5,
      has_next_page: true,
    });
    const last = await call('GET', '/bin?page=3&per_page=2');
    expect(last.body.page_info.has_next_page).toBe(false);
    for (const bad of ['per_page=0', 'per_page=201', 'page=0', 'page=x']) {
      expect((await call('GET', `/bin?${bad}`)).status, bad).toBe(400);
    }
    expect((await call('GET', '/bin?per_page=200')).status).toBe(200);
    const other = await api(base, token, 'GET', `/api/v3/portal/${otherPortalId}/bin`);
    expect(other.status).toBe(200);
    expect(other.body.bin_items).toEqual([]);
    expect(ids('tasks', otherPortalId).length).toBeGreaterThan(0);
  });

  it('needs PMS.portals.READ and a portal the caller belongs to', async () => {
    const { emulator, base, portalId } = await setup();
    const noScope = grantToken(emulator, { scopes: ['PMS.custom_fields.ALL'] });
    const reply = await api(base, noScope, 'GET', `/api/v3/portal/${portalId}/bin`);
    expect(reply.status).toBe(403);
    const token = grantToken(emulator);
    const unknown = await api(base, token, 'GET', '/api/v3/portal/123456/bin');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('recycle bin: restore (POST /bin/restore)', () => {
  it('restores within 30 days (one minute before the limit) via the admin clock', async () => {
    const { call, ids, emulator, base, db } = await setup();
    const tasks = ids('tasks').slice(0, 2);
    await call('POST', '/trash', { module: 'tasks', items: tasks });
    const advance = await api(
      base,
      undefined,
      'POST',
      '/__emulator/clock/advance',
      { ms: RESTORE_WINDOW_MS - MINUTE },
      { 'X-Emulator-Admin': emulator.adminSecret },
    );
    expect(advance.status).toBe(200);
    // The token was issued before the jump; a fresh one for the rest of the test.
    const token = grantToken(emulator);
    const reply = await api(
      base,
      token,
      'POST',
      `/api/v3/portal/${emulator.portals[0]}/bin/restore`,
      [{ module: 'tasks', items: tasks }],
    );
    expect(reply.status).toBe(200);
    expect(reply.body.restored).toEqual([{ module: 'tasks', items: tasks }]);
    const rows = db
      .prepare(
        'SELECT trashed_time, trashed_by FROM work_items WHERE id IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(tasks.map(Number)));
    expect(rows).toEqual([
      { trashed_time: null, trashed_by: null },
      { trashed_time: null, trashed_by: null },
    ]);
  });

  it('refuses after 30 days with a clear message, and changes nothing', async () => {
    const { call, ids, emulator } = await setup();
    const [old, fresh] = ids('tasks');
    await call('POST', '/trash', { module: 'tasks', items: [old] });
    emulator.state.clock.advance(RESTORE_WINDOW_MS + MINUTE);
    const token = grantToken(emulator);
    await call('POST', '/trash', { module: 'tasks', items: [fresh] }, token);
    const listed = await call('GET', '/bin?sort_by=asc(trashed_time)', undefined, token);
    expect(
      listed.body.bin_items.map((item: { is_restorable: boolean }) => item.is_restorable),
    ).toEqual([false, true]);
    const before = snapshot(emulator);
    const reply = await call(
      'POST',
      '/bin/restore',
      [{ module: 'tasks', items: [fresh, old] }],
      token,
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    expect(reply.body.message).toContain(
      `body[0].items: ${old} were trashed more than 30 days ago`,
    );
    expect(reply.body.message).toContain('can no longer be restored');
    // The other, restorable record in the same request stays in the bin too.
    expect(snapshot(emulator)).toEqual(before);
  });

  it('refuses records not in the bin, of another module or portal, and bad bodies', async () => {
    const { call, ids, emulator, otherPortalId } = await setup();
    const [trashed, active] = ids('tasks');
    await call('POST', '/trash', { module: 'tasks', items: [trashed] });
    const before = snapshot(emulator);
    const cases: [unknown, RegExp][] = [
      [
        [{ module: 'tasks', items: [trashed, active] }],
        new RegExp(`^body\\[0\\]\\.items: ${active} are not in the bin\\.$`),
      ],
      [[{ module: 'issues', items: [trashed] }], /are not issues of portal/],
      [[{ module: 'tasks', items: [ids('tasks', otherPortalId)[0]] }], /are not tasks of portal/],
      [
        [{ module: 'tasks', items: Array.from({ length: 101 }, () => trashed) }],
        /body\[0\]\.items has 101 ids/,
      ],
      [[{ items: [trashed] }], /^body\[0\]\.module is required\.$/],
      [[{ module: 'bogus', items: [trashed] }], /^body\[0\]\.module must be one of/],
      [{ module: 'tasks', items: [trashed] }, /must be a JSON array/],
      [['tasks'], /^body\[0\] must be an object/],
    ];
    for (const [body, message] of cases) {
      const reply = await call('POST', '/bin/restore', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.message).toMatch(message);
    }
    expect(snapshot(emulator)).toEqual(before);
    const empty = await call('POST', '/bin/restore', []);
    expect(empty.status).toBe(200);
    expect(empty.body.restored).toEqual([]);
  });

  it('restores a record inside a trashed project only together with the project', async () => {
    const { call, db } = await setup();
    const project = db
      .prepare("SELECT id FROM work_items WHERE module = 'projects' ORDER BY id")
      .get() as { id: number };
    const task = db
      .prepare("SELECT id FROM work_items WHERE project_id = ? AND module = 'tasks' ORDER BY id")
      .get(project.id) as { id: number };
    await call('POST', '/trash', { module: 'tasks', items: [String(task.id)] });
    await call('POST', '/trash', { module: 'projects', items: [String(project.id)] });
    const alone = await call('POST', '/bin/restore', [
      { module: 'tasks', items: [String(task.id)] },
    ]);
    expect(alone.status).toBe(400);
    expect(alone.body.message).toContain('restore the project too');
    const together = await call('POST', '/bin/restore', [
      { module: 'tasks', items: [String(task.id)] },
      { module: 'projects', items: [String(project.id)] },
    ]);
    expect(together.status).toBe(200);
    expect(together.body.restored).toEqual([
      { module: 'projects', items: [String(project.id)] },
      { module: 'tasks', items: [String(task.id)] },
    ]);
  });

  it('needs PMS.portals.CREATE', async () => {
    const { emulator, base, portalId } = await setup();
    const readOnly = grantToken(emulator, { scopes: ['PMS.portals.READ'] });
    const reply = await api(base, readOnly, 'POST', `/api/v3/portal/${portalId}/bin/restore`, []);
    expect(reply.status).toBe(403);
  });
});

describe('recycle bin: permanent removal (DELETE /bin, DELETE /empty-bin)', () => {
  it('DELETE bin removes the named records for good and refuses active ones', async () => {
    const { call, ids, emulator, db } = await setup();
    const [a, b, active] = ids('issues');
    await call('POST', '/trash', { module: 'issues', items: [a, b] });
    const before = snapshot(emulator);
    const refused = await call('DELETE', '/bin', [{ module: 'issues', items: [a, active] }]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `body[0].items: ${active} are not in the bin; trash them first.`,
    );
    for (const body of [undefined, {}, [{ module: 'issues', items: 'x' }]]) {
      expect((await call('DELETE', '/bin', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(snapshot(emulator)).toEqual(before);

    const deleted = await call('DELETE', '/bin', [{ module: 'issues', items: [a] }]);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toEqual([{ module: 'issues', items: [a] }]);
    expect(db.prepare('SELECT id FROM work_items WHERE id = ?').get(Number(a))).toBeUndefined();
    const list = await call('GET', '/bin');
    expect(list.body.bin_items.map((item: { id: string }) => item.id)).toEqual([b]);
    const gone = await call('POST', '/bin/restore', [{ module: 'issues', items: [a] }]);
    expect(gone.status).toBe(400);
  });

  it('removing a project removes its contents and unlinks custom-module records from it', async () => {
    const { call, db } = await setup();
    const project = db
      .prepare(
        `SELECT w.id FROM work_items w WHERE w.module = 'projects'
         AND EXISTS (SELECT 1 FROM entities e WHERE e.project_id = w.id) ORDER BY w.id`,
      )
      .get() as { id: number };
    const contents = db
      .prepare('SELECT id, module FROM work_items WHERE project_id = ? ORDER BY id')
      .all(project.id) as { id: number; module: string }[];
    const linked = (
      db.prepare('SELECT COUNT(*) AS n FROM entities WHERE project_id = ?').get(project.id) as {
        n: number;
      }
    ).n;
    expect(linked).toBeGreaterThan(0);
    const entityCount = (db.prepare('SELECT COUNT(*) AS n FROM entities').get() as { n: number }).n;

    await call('POST', '/trash', { module: 'projects', items: [String(project.id)] });
    const deleted = await call('DELETE', '/bin', [
      { module: 'projects', items: [String(project.id)] },
    ]);
    expect(deleted.status).toBe(200);
    const removed = (deleted.body.deleted as { items: string[] }[]).flatMap((group) => group.items);
    expect(removed.sort()).toEqual([project.id, ...contents.map((c) => c.id)].map(String).sort());
    expect(
      db
        .prepare('SELECT COUNT(*) AS n FROM work_items WHERE id = ? OR project_id = ?')
        .get(project.id, project.id),
    ).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM entities').get()).toEqual({ n: entityCount });
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM entities WHERE project_id = ?').get(project.id),
    ).toEqual({ n: 0 });
  });

  it('DELETE empty-bin removes everything in this portal bin and nothing else', async () => {
    const { call, ids, db, base, token, otherPortalId, portalId } = await setup();
    const tasks = ids('tasks').slice(0, 2);
    const phase = ids('phases')[0]!;
    await call('POST', '/trash', { module: 'tasks', items: tasks });
    await call('POST', '/trash', { module: 'phases', items: [phase] });
    const otherTask = ids('tasks', otherPortalId)[0]!;
    await api(base, token, 'POST', `/api/v3/portal/${otherPortalId}/trash`, {
      module: 'tasks',
      items: [otherTask],
    });
    const count = () =>
      (
        db
          .prepare('SELECT COUNT(*) AS n FROM work_items WHERE portal_id = ?')
          .get(Number(portalId)) as { n: number }
      ).n;
    const before = count();

    const emptied = await call('DELETE', '/empty-bin');
    expect(emptied.status).toBe(200);
    expect(emptied.body.deleted).toEqual([
      { module: 'phases', items: [phase] },
      { module: 'tasks', items: tasks },
    ]);
    expect(count()).toBe(before - 3);
    expect((await call('GET', '/bin')).body.bin_items).toEqual([]);
    const other = await api(base, token, 'GET', `/api/v3/portal/${otherPortalId}/bin`);
    expect(other.body.bin_items.map((item: { id: string }) => item.id)).toEqual([otherTask]);
    const again = await call('DELETE', '/empty-bin');
    expect(again.status).toBe(200);
    expect(again.body.deleted).toEqual([]);
  });

  it('needs PMS.portals.CREATE for both', async () => {
    const { emulator, base, portalId } = await setup();
    const readOnly = grantToken(emulator, { scopes: ['PMS.portals.READ'] });
    const bin = await api(base, readOnly, 'DELETE', `/api/v3/portal/${portalId}/bin`, []);
    const empty = await api(base, readOnly, 'DELETE', `/api/v3/portal/${portalId}/empty-bin`);
    expect([bin.status, empty.status]).toEqual([403, 403]);
  });
});
