import { describe, expect, it } from 'vitest';
import { foldText } from '@portaldesk/portal-api/filter';
import { naturalCompare } from '@portaldesk/portal-api/domain/naturalOrder';
import { api, grantToken, testEmulator } from '../../support/emulator';

type Emulator = Awaited<ReturnType<typeof testEmulator>>;
type Row = Record<string, unknown>;

async function setup(options: Parameters<typeof testEmulator>[0] = {}) {
  const emulator = await testEmulator({ records: 120, ...options });
  const base = emulator.dcs.us!.api;
  const token = grantToken(emulator);
  const portalId = emulator.portals[0]!;
  const { db } = emulator.state;
  const moduleId = (apiName = 'assets') =>
    (
      db
        .prepare('SELECT id FROM modules WHERE portal_id = ? AND api_name = ?')
        .get(Number(portalId), apiName) as { id: number }
    ).id;
  const path = (suffix: string, scope = 'projects', module = 'assets') =>
    `/api/v3/portal/${portalId}/${scope}/${module}${suffix}`;
  const callAt =
    (scope: string, module = 'assets') =>
    (method: string, suffix: string, body?: unknown, withToken = token) =>
      api(base, withToken, method, path(suffix, scope, module), body);
  const call = callAt('projects');
  const statusId = (name: string, apiName = 'assets') =>
    String(
      (
        db
          .prepare('SELECT id FROM statuses WHERE module_id = ? AND name = ?')
          .get(moduleId(apiName), name) as { id: number }
      ).id,
    );
  /** Active records of a module in id order, straight from the table. */
  const activeIds = (apiName = 'assets') =>
    (
      db
        .prepare('SELECT id FROM entities WHERE module_id = ? AND trashed_time IS NULL ORDER BY id')
        .all(moduleId(apiName)) as { id: number }[]
    ).map((row) => String(row.id));
  return { emulator, base, token, portalId, db, moduleId, path, call, callAt, statusId, activeIds };
}

/** Records, timelines and comments as they are now, to prove a refused request changed nothing. */
function snapshot(emulator: Emulator) {
  const { db } = emulator.state;
  return {
    entities: db.prepare('SELECT * FROM entities ORDER BY id').all(),
    timeline: db.prepare('SELECT * FROM status_timeline ORDER BY id').all(),
    comments: db.prepare('SELECT * FROM comments ORDER BY id').all(),
  };
}

const NEW_ASSET = { name: 'Test laptop', cf_serial_number: 'SN-TEST-1' };
const filterParam = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;
const ids = (list: Row[]) => list.map((item) => item.id as string);

describe('records: the endpoint table and its scopes', () => {
  it('answers every row with the scope the spec lists, and 403 without it', async () => {
    const { emulator, call, activeIds } = await setup();
    const id = activeIds()[0]!;
    const created = await call('POST', '/entities', NEW_ASSET);
    expect(created.status).toBe(201);
    const fresh = created.body.entity.id as string;
    const rows: [string, string, unknown, string, number][] = [
      ['GET', '/entities', undefined, 'PMS.portals.READ', 200],
      ['GET', `/entities/${id}`, undefined, 'PMS.portals.READ', 200],
      ['POST', '/entities', NEW_ASSET, 'PMS.portals.CREATE', 201],
      // The spec's table lists PMS.portals.CREATE for PATCH.
      ['PATCH', `/entities/${id}`, { description: 'patched' }, 'PMS.portals.CREATE', 200],
      ['POST', `/entities/${fresh}/trash`, undefined, 'PMS.portals.UPDATE', 200],
      ['POST', `/entities/${fresh}/restore`, undefined, 'PMS.portals.UPDATE', 200],
      ['GET', `/entity/${id}/status-timeline`, undefined, 'PMS.portals.READ', 200],
      ['GET', '/entities/20', undefined, 'PMS.portals.READ', 200],
    ];
    const everyOther = (scope: string) =>
      [
        'PMS.portals.READ',
        'PMS.portals.CREATE',
        'PMS.portals.UPDATE',
        'PMS.portals.DELETE',
        'PMS.custom_fields.ALL',
      ].filter((s) => s !== scope);
    for (const [method, suffix, body, scope, status] of rows) {
      const without = await call(
        method,
        suffix,
        body,
        grantToken(emulator, { scopes: everyOther(scope) }),
      );
      expect(without.status, `${method} ${suffix} without ${scope}`).toBe(403);
      expect(without.body.errorCode).toBe('INVALID_OAUTHSCOPE');
      const withIt = await call(method, suffix, body, grantToken(emulator, { scopes: [scope] }));
      expect(withIt.status, `${method} ${suffix} with ${scope}`).toBe(status);
    }
    // DELETE (permanent removal) needs PMS.portals.DELETE and a record in the trash.
    expect((await call('POST', `/entities/${fresh}/trash`)).status).toBe(200);
    const noDelete = grantToken(emulator, { scopes: everyOther('PMS.portals.DELETE') });
    expect((await call('DELETE', `/entities/${fresh}`, undefined, noDelete)).status).toBe(403);
    const withDelete = grantToken(emulator, { scopes: ['PMS.portals.DELETE'] });
    expect((await call('DELETE', `/entities/${fresh}`, undefined, withDelete)).status).toBe(204);
  });

  it('has records only in custom modules', async () => {
    const { base, token, path } = await setup();
    for (const module of ['tasks', 'projects']) {
      const reply = await api(base, token, 'GET', path('/entities', 'projects', module));
      expect(reply.status, module).toBe(404);
      expect(reply.body).toEqual({
        errorCode: 'RESOURCE_NOT_FOUND',
        message: `Custom module ${module} does not exist.`,
        status: 404,
      });
    }
    const unknown = await api(base, token, 'GET', path('/entities', 'projects', 'gadgets'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Module gadgets does not exist.');
  });
});

describe('records: lists and pagination', () => {
  it('lists active records in id order with page_info counting every record', async () => {
    const { call, activeIds } = await setup();
    const all = activeIds();
    const reply = await call('GET', '/entities?per_page=200');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(ids(reply.body.entities)).toEqual(all);
    expect(reply.body.page_info).toEqual({
      page: 1,
      per_page: 200,
      page_count: all.length,
      has_next_page: false,
    });
  });

  it('shows a record with grouped related data and custom fields by api_name', async () => {
    const { call, db, activeIds } = await setup();
    const id = activeIds()[0]!;
    const reply = await call('GET', `/entities/${id}`);
    expect(reply.status).toBe(200);
    const record = reply.body.entity;
    const row = db.prepare('SELECT * FROM entities WHERE id = ?').get(Number(id)) as Row;
    expect(record).toMatchObject({
      id,
      name: row.name,
      status: { id: String(row.status_id), name: expect.any(String), color: expect.any(String) },
      layout: { id: String(row.layout_id), name: expect.any(String) },
      owner: { zpuid: row.owner_zpuid, name: expect.any(String), email: expect.any(String) },
      is_external: false,
      created_time: row.created_time,
      last_updated_time: row.last_updated_time,
      trashed_time: null,
    });
    expect(typeof record.status.is_closed_type).toBe('boolean');
    expect(record.is_closed).toBe(record.status.is_closed_type);
    expect(Object.keys(record)).toContain('cf_serial_number');
    // Ids are strings of digits.
    expect(record.id).toMatch(/^\d+$/);
  });

  it('pages with page/per_page: limits at the boundary and one past', async () => {
    const { call, activeIds } = await setup();
    const all = activeIds();
    const one = await call('GET', '/entities?per_page=1&page=2');
    expect(ids(one.body.entities)).toEqual([all[1]]);
    expect(one.body.page_info).toEqual({
      page: 2,
      per_page: 1,
      page_count: all.length,
      has_next_page: true,
    });
    expect((await call('GET', '/entities?per_page=200')).status).toBe(200);
    for (const query of ['per_page=0', 'per_page=201', 'page=0', 'page=-1', 'per_page=abc']) {
      const reply = await call('GET', `/entities?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }
    const defaults = await call('GET', '/entities');
    expect(defaults.body.page_info.per_page).toBe(100);
    expect(defaults.body.entities).toHaveLength(Math.min(100, all.length));
    const size = 7;
    const last = Math.ceil(all.length / size);
    const lastPage = await call('GET', `/entities?per_page=${size}&page=${last}`);
    expect(ids(lastPage.body.entities)).toEqual(all.slice((last - 1) * size));
    expect(lastPage.body.page_info.has_next_page).toBe(false);
    const beyond = await call('GET', `/entities?per_page=${size}&page=${last + 1}`);
    expect(beyond.body.entities).toEqual([]);
    expect(beyond.body.page_info).toMatchObject({ page_count: all.length, has_next_page: false });
  });

  it('pages with index/range as a 1-based offset and a count', async () => {
    const { call, activeIds } = await setup();
    const all = activeIds();
    const reply = await call('GET', '/entities?index=3&range=4');
    expect(ids(reply.body.entities)).toEqual(all.slice(2, 6));
    expect(reply.body.page_info).toEqual({
      page: 1,
      per_page: 4,
      page_count: all.length,
      has_next_page: true,
    });
    expect((await call('GET', '/entities?range=200')).status).toBe(200);
    expect((await call('GET', '/entities?range=201')).status).toBe(400);
    expect((await call('GET', '/entities?index=0')).status).toBe(400);
    const both = await call('GET', '/entities?index=1&per_page=5');
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/not both/);
  });

  it('sorts by system and custom fields, and refuses what it cannot sort by', async () => {
    const { call, activeIds, db } = await setup();
    // Names whose numbers sort by value, not digit by digit (issue 19).
    const rename = db.prepare('UPDATE entities SET name = ? WHERE id = ?');
    ['Dock #1014', 'dock #148', 'DOCK #2', 'Dock #0148'].forEach((name, i) =>
      rename.run(name, Number(activeIds()[i])),
    );
    const byName = await call('GET', '/entities?per_page=200&sort_by=ASC(name)');
    const names = byName.body.entities.map((e: Row) => e.name as string);
    expect(names).toEqual([...names].sort(naturalCompare));
    expect(names.filter((n: string) => /^dock #/i.test(n))).toEqual([
      'DOCK #2',
      'dock #148',
      'Dock #0148',
      'Dock #1014',
    ]);
    const down = await call('GET', '/entities?per_page=200&sort_by=DESC(id)');
    expect(ids(down.body.entities)).toEqual(activeIds().reverse());
    // A currency by code, then amount: the seed mixes five codes.
    const cost = await call('GET', '/entities?per_page=200&sort_by=desc(cf_cost)');
    const costs = cost.body.entities.map(
      (e: Row) => e.cf_cost as { currency_code: string; amount: number } | null,
    );
    const filled = costs.filter((c: unknown) => c !== null);
    expect(new Set(filled.map((c: { currency_code: string }) => c.currency_code)).size).toBe(5);
    expect(filled).toEqual(
      [...filled].sort(
        (a, b) =>
          (a.currency_code === b.currency_code ? 0 : a.currency_code < b.currency_code ? 1 : -1) ||
          b.amount - a.amount,
      ),
    );
    // Empty values come last.
    expect(costs.slice(filled.length).every((c: unknown) => c === null)).toBe(true);
    const updated = await call('GET', '/entities?per_page=200&sort_by=ASC(last_updated_time)');
    const times = updated.body.entities.map((e: Row) => e.last_updated_time as string);
    expect(times).toEqual([...times].sort());
    for (const [sort, message] of [
      ['name', /ASC\(field_name\) or DESC\(field_name\)/],
      ['ASC(colour)', /colour is not a sortable field/],
      ['ASC(cf_tags)', /holds several values/],
    ] as const) {
      const reply = await call('GET', `/entities?sort_by=${encodeURIComponent(sort)}`);
      expect(reply.status, sort).toBe(400);
      expect(reply.body.message).toMatch(message);
    }
  });
});

describe('records: filters, views, projects and the count', () => {
  it('filters with the filter guide, through HTTP', async () => {
    const { call, db, moduleId, statusId } = await setup();
    const rows = db
      .prepare('SELECT * FROM entities WHERE module_id = ? AND trashed_time IS NULL ORDER BY id')
      .all(moduleId()) as Row[];
    const closed = new Set([statusId('Retired'), statusId('Lost')]);
    const list = async (filter: unknown) => {
      const reply = await call('GET', `/entities?per_page=200&${filterParam(filter)}`);
      expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
      return ids(reply.body.entities);
    };
    const open = rows.filter((r) => !closed.has(String(r.status_id))).map((r) => String(r.id));
    expect(
      await list({
        criteria: [{ field_name: 'status', criteria_condition: 'all_open' }],
        pattern: '1',
      }),
    ).toEqual(open);
    expect(
      await list({
        criteria: [
          {
            field_name: 'status',
            criteria_condition: 'custom_condition',
            value: ['${ALL_CLOSED}'],
          },
        ],
        pattern: '1',
      }),
    ).toEqual(rows.filter((r) => closed.has(String(r.status_id))).map((r) => String(r.id)));

    const custom = (r: Row) => JSON.parse(r.custom as string) as Record<string, unknown>;
    const hardware = rows
      .filter((r) => custom(r).cf_category === 'Hardware')
      .map((r) => String(r.id));
    expect(hardware.length).toBeGreaterThan(0);
    // Pick lists compare by display name, case-insensitively.
    expect(
      await list({
        criteria: [{ field_name: 'cf_category', criteria_condition: 'is', value: ['hardware'] }],
        pattern: '1',
      }),
    ).toEqual(hardware);

    const laptopsOrOpen = rows
      .filter(
        (r) => foldText(r.name as string).includes('laptop') || !closed.has(String(r.status_id)),
      )
      .map((r) => String(r.id));
    expect(
      await list({
        criteria: [
          { field_name: 'name', criteria_condition: 'contains', value: ['LAPTOP'] },
          { field_name: 'status', criteria_condition: 'all_open' },
        ],
        pattern: '1 OR 2',
      }),
    ).toEqual(laptopsOrOpen);

    // Multi pick lists by option id; currency by amount.
    const tagId = (
      db
        .prepare(
          "SELECT o.id FROM field_options o JOIN fields f ON f.id = o.field_id WHERE f.module_id = ? AND f.api_name = 'cf_tags' AND o.value = 'Leased'",
        )
        .get(moduleId()) as { id: number }
    ).id;
    const leased = rows
      .filter((r) => ((custom(r).cf_tags as string[] | undefined) ?? []).includes(String(tagId)))
      .map((r) => String(r.id));
    expect(
      await list({
        criteria: [{ field_name: 'cf_tags', criteria_condition: 'is', value: [String(tagId)] }],
        pattern: '1',
      }),
    ).toEqual(leased);
    const dear = rows
      .filter((r) => ((custom(r).cf_cost as { amount: number } | undefined)?.amount ?? -1) > 10_000)
      .map((r) => String(r.id));
    expect(
      await list({
        criteria: [{ field_name: 'cf_cost', criteria_condition: 'greater_than', value: ['10000'] }],
        pattern: '1',
      }),
    ).toEqual(dear);
  });

  it("filters users by the portal's people: reports, presets and multi-user fields", async () => {
    const { call, db, moduleId } = await setup();
    const rows = db
      .prepare('SELECT * FROM entities WHERE module_id = ? AND trashed_time IS NULL ORDER BY id')
      .all(moduleId()) as Row[];
    const list = async (filter: unknown) => {
      const reply = await call('GET', `/entities?per_page=200&${filterParam(filter)}`);
      expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
      return ids(reply.body.entities);
    };
    const lead = db
      .prepare(
        'SELECT zpuid FROM users WHERE is_team_lead = 1 AND reports_to IS NOT NULL ORDER BY id',
      )
      .get() as { zpuid: string };
    const reports = new Set(
      (
        db.prepare('SELECT zpuid FROM users WHERE reports_to = ?').all(lead.zpuid) as {
          zpuid: string;
        }[]
      ).map((u) => u.zpuid),
    );
    const owned = rows.filter((r) => reports.has(r.owner_zpuid as string)).map((r) => String(r.id));
    expect(owned.length).toBeGreaterThan(0);
    expect(
      await list({
        criteria: [
          { field_name: 'owner', criteria_condition: 'direct_reports_of', value: [lead.zpuid] },
        ],
        pattern: '1',
      }),
    ).toEqual(owned);
    const leads = new Set(
      (
        db.prepare('SELECT zpuid FROM users WHERE is_team_lead = 1').all() as { zpuid: string }[]
      ).map((u) => u.zpuid),
    );
    expect(
      await list({
        criteria: [{ field_name: 'owner', criteria_condition: 'is_team_lead_only' }],
        pattern: '1',
      }),
    ).toEqual(rows.filter((r) => leads.has(r.owner_zpuid as string)).map((r) => String(r.id)));
    const watcher = rows[0]!.owner_zpuid as string;
    const watched = rows
      .filter((r) =>
        ((JSON.parse(r.custom as string).cf_watchers as string[] | undefined) ?? []).includes(
          watcher,
        ),
      )
      .map((r) => String(r.id));
    expect(watched.length).toBeGreaterThan(0);
    expect(
      await list({
        criteria: [{ field_name: 'cf_watchers', criteria_condition: 'is', value: [watcher] }],
        pattern: '1',
      }),
    ).toEqual(watched);
  });

  it("refuses an invalid filter with the filter module's messages", async () => {
    const { call } = await setup();
    for (const [filter, message] of [
      ['{not json', /filter: filter: is not valid JSON/],
      [
        JSON.stringify({
          criteria: [{ field_name: 'colour', criteria_condition: 'is', value: ['x'] }],
          pattern: '1',
        }),
        /criteria\[0\]\.field_name: "colour" is not a filterable field/,
      ],
      [
        JSON.stringify({
          criteria: [{ field_name: 'name', criteria_condition: 'is' }],
          pattern: '1',
        }),
        /needs at least 1 value/,
      ],
      [
        JSON.stringify({
          criteria: [{ field_name: 'name', criteria_condition: 'is', value: ['x'] }],
          pattern: '1 AND 2',
        }),
        /pattern/,
      ],
    ] as const) {
      const reply = await call('GET', `/entities?filter=${encodeURIComponent(filter)}`);
      expect(reply.status, filter).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
      expect(reply.body.message).toMatch(message);
    }
  });

  it('filters by date presets relative to the emulated clock', async () => {
    const { call, emulator } = await setup();
    const today = {
      criteria: [{ field_name: 'created_time', criteria_condition: 'today' }],
      pattern: '1',
    };
    const before = await call('GET', `/entities?${filterParam(today)}`);
    expect(before.status).toBe(200);
    const created = await call('POST', '/entities', NEW_ASSET);
    const after = await call('GET', `/entities?${filterParam(today)}`);
    expect(ids(after.body.entities)).toContain(created.body.entity.id);
    // Two days later the same filter no longer finds it (a new token: the old one has expired).
    emulator.state.clock.advance(2 * 86_400_000);
    const later = await call(
      'GET',
      `/entities?${filterParam(today)}`,
      undefined,
      grantToken(emulator),
    );
    expect(later.status).toBe(200);
    expect(ids(later.body.entities)).not.toContain(created.body.entity.id);
  });

  it('counts at /entities/20 with filter, view_id and project_id', async () => {
    const { call, activeIds, db, moduleId } = await setup();
    const total = activeIds().length;
    const count = await call('GET', '/entities/20');
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ count: total });
    const openFilter = filterParam({
      criteria: [{ field_name: 'status', criteria_condition: 'all_open' }],
      pattern: '1',
    });
    const open = (await call('GET', `/entities/20?${openFilter}`)).body.count;
    const listed = (await call('GET', `/entities?${openFilter}`)).body.page_info.page_count;
    expect(open).toBe(listed);
    expect((await call('GET', '/entities/20?view_id=2')).body.count).toBe(open);
    expect((await call('GET', '/entities/20?view_id=3')).body.count).toBe(total - open);
    expect((await call('GET', '/entities/20?view_id=1')).body.count).toBe(total);
    const badView = await call('GET', '/entities/20?view_id=99');
    expect(badView.status).toBe(400);
    expect(badView.body.message).toMatch(/view_id "99" is not a view/);
    const project = db
      .prepare(
        'SELECT project_id AS p, COUNT(*) AS n FROM entities WHERE module_id = ? AND trashed_time IS NULL AND project_id IS NOT NULL GROUP BY project_id ORDER BY n DESC',
      )
      .get(moduleId()) as { p: number; n: number };
    expect((await call('GET', `/entities/20?project_id=${project.p}`)).body.count).toBe(project.n);
    expect((await call('GET', `/entities?project_id=${project.p}`)).body.page_info.page_count).toBe(
      project.n,
    );
    expect((await call('GET', '/entities/20?project_id=123')).status).toBe(400);
    const wrong = await call('GET', `/entities/20?filter=${encodeURIComponent('[]')}`);
    expect(wrong.status).toBe(400);
  });

  it('counts and lists what changed since the last call (no stale cache)', async () => {
    const { call, db, moduleId, activeIds, emulator } = await setup();
    const before = (await call('GET', '/entities/20')).body.count;
    await call('GET', '/entities?per_page=200');
    // A write by anything else (here straight to the table) shows at once.
    const [first, second] = activeIds();
    db.prepare('UPDATE entities SET trashed_time = ? WHERE id = ?').run(
      emulator.state.nowIso(),
      Number(first),
    );
    expect((await call('GET', '/entities/20')).body.count).toBe(before - 1);
    expect(ids((await call('GET', '/entities?per_page=200')).body.entities)).not.toContain(first);
    db.prepare('UPDATE entities SET name = ? WHERE id = ?').run(
      'Renamed straight in the table',
      Number(second),
    );
    expect((await call('GET', `/entities/${second}`)).body.entity.name).toBe(
      'Renamed straight in the table',
    );
    // Renaming an option (the settings routes' business) renames it in every record.
    const tagged = (await call('GET', '/entities?per_page=200')).body.entities.find(
      (e: Row) => (e.cf_tags as string[] | null)?.length,
    ) as Row;
    const tag = (tagged.cf_tags as string[])[0]!;
    db.prepare(
      `UPDATE field_options SET value = ? WHERE value = ? AND field_id IN
         (SELECT id FROM fields WHERE module_id = ? AND api_name = 'cf_tags')`,
    ).run(`${tag} (renamed)`, tag, moduleId());
    const again = await call('GET', `/entities/${tagged.id}`);
    expect(again.body.entity.cf_tags).toContain(`${tag} (renamed)`);
  });
});

describe('records: scope paths', () => {
  it("lists only a project's records under a numeric scope, and 404s elsewhere", async () => {
    const { callAt, db, moduleId, portalId } = await setup();
    const project = db
      .prepare(
        'SELECT project_id AS p FROM entities WHERE module_id = ? AND project_id IS NOT NULL ORDER BY id',
      )
      .get(moduleId()) as { p: number };
    const inProject = (
      db
        .prepare(
          'SELECT id FROM entities WHERE module_id = ? AND project_id = ? AND trashed_time IS NULL ORDER BY id',
        )
        .all(moduleId(), project.p) as { id: number }[]
    ).map((row) => String(row.id));
    const scoped = callAt(String(project.p));
    const list = await scoped('GET', '/entities?per_page=200');
    expect(list.status).toBe(200);
    expect(ids(list.body.entities)).toEqual(inProject);
    expect((await scoped('GET', '/entities/20')).body.count).toBe(inProject.length);
    expect((await scoped('GET', `/entities/${inProject[0]}`)).status).toBe(200);
    const elsewhere = db
      .prepare(
        'SELECT id FROM entities WHERE module_id = ? AND (project_id IS NULL OR project_id <> ?)',
      )
      .get(moduleId(), project.p) as { id: number };
    const hidden = await scoped('GET', `/entities/${elsewhere.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(`Record ${elsewhere.id} does not exist.`);

    const created = await scoped('POST', '/entities', NEW_ASSET);
    expect(created.status).toBe(201);
    expect(created.body.entity.project.id).toBe(String(project.p));

    const otherPortal = db
      .prepare("SELECT id FROM work_items WHERE module = 'projects' AND portal_id <> ?")
      .get(Number(portalId)) as { id: number };
    const notHere = await callAt(String(otherPortal.id))('GET', '/entities');
    expect(notHere.status).toBe(404);
    expect(notHere.body.message).toBe(`Project ${otherPortal.id} does not exist.`);
    const bad = await callAt('tasks')('GET', '/entities');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/scope_path must be projects or a project id/);
  });
});

describe('records: create and update', () => {
  it('creates a record owned by the caller, with a first timeline entry', async () => {
    const { call, emulator, db } = await setup();
    const admin = db
      .prepare('SELECT zpuid FROM users WHERE email = ?')
      .get(emulator.user.email) as {
      zpuid: string;
    };
    const reply = await call('POST', '/entities', {
      ...NEW_ASSET,
      description: 'Fresh from the box',
      is_external: true,
      cf_category: 'Mobile',
    });
    expect(reply.status).toBe(201);
    const record = reply.body.entity;
    expect(record).toMatchObject({
      name: 'Test laptop',
      description: 'Fresh from the box',
      status: { name: 'In Stock', is_closed_type: false },
      layout: { name: 'Standard' },
      project: null,
      owner: { zpuid: admin.zpuid, name: 'Alex Admin' },
      is_closed: false,
      is_external: true,
      cf_serial_number: 'SN-TEST-1',
      cf_category: 'Mobile',
      cf_tags: null,
      trashed_time: null,
    });
    expect(record.created_time).toBe(record.last_updated_time);
    expect(Date.parse(record.created_time)).toBeGreaterThan(Date.now() - 60_000);
    expect((await call('GET', `/entities/${record.id}`)).body.entity).toEqual(record);
    const timeline = await call('GET', `/entity/${record.id}/status-timeline`);
    expect(timeline.body.status_timeline).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        from_status: null,
        to_status: { ...record.status },
        changed_by: { zpuid: admin.zpuid, name: 'Alex Admin', email: emulator.user.email },
        changed_time: record.created_time,
      },
    ]);
    // It is in the list and the count at once.
    const list = await call('GET', '/entities?sort_by=DESC(id)&per_page=1');
    expect(list.body.entities[0].id).toBe(record.id);
  });

  it('updates fields, moves last_updated_time and logs status changes', async () => {
    const { call, emulator, statusId } = await setup();
    const created = (await call('POST', '/entities', NEW_ASSET)).body.entity;
    emulator.state.clock.advance(60_000);
    const patched = await call('PATCH', `/entities/${created.id}`, {
      name: 'Renamed',
      status: { id: statusId('Assigned') },
      cf_tags: ['Leased', 'Remote'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.entity).toMatchObject({
      name: 'Renamed',
      status: { id: statusId('Assigned'), name: 'Assigned' },
      cf_serial_number: 'SN-TEST-1',
      cf_tags: ['Leased', 'Remote'],
      created_time: created.created_time,
    });
    expect(
      Date.parse(patched.body.entity.last_updated_time) - Date.parse(created.last_updated_time),
    ).toBeGreaterThanOrEqual(60_000);
    const timeline = (await call('GET', `/entity/${created.id}/status-timeline`)).body
      .status_timeline;
    expect(
      timeline.map((t: Row) => [
        (t.from_status as Row | null)?.name ?? null,
        (t.to_status as Row).name,
      ]),
    ).toEqual([
      [null, 'In Stock'],
      ['In Stock', 'Assigned'],
    ]);
    // An update that changes nothing is not an edit.
    emulator.state.clock.advance(60_000);
    const same = await call('PATCH', `/entities/${created.id}`, { name: 'Renamed' });
    expect(same.body.entity.last_updated_time).toBe(patched.body.entity.last_updated_time);
    // Closing follows the status: Retired is a closed status.
    const retired = await call('PATCH', `/entities/${created.id}`, {
      status: { id: statusId('Retired') },
      is_closed: true,
    });
    expect(retired.status).toBe(200);
    expect(retired.body.entity).toMatchObject({
      is_closed: true,
      status: { is_closed_type: true },
    });
    expect((await call('GET', '/entities/20?view_id=3')).body.count).toBeGreaterThan(0);
  });

  it('refuses a status change the transitions do not allow, naming both statuses', async () => {
    const { call, emulator, statusId } = await setup();
    const created = (
      await call('POST', '/entities', { ...NEW_ASSET, status: { id: statusId('Retired') } })
    ).body.entity;
    expect(created.is_closed).toBe(true);
    const before = snapshot(emulator);
    const refused = await call('PATCH', `/entities/${created.id}`, {
      status: { id: statusId('Assigned') },
      name: 'Changed',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      errorCode: 'INVALID_PARAMETER_VALUE',
      message:
        'status cannot change from "Retired" to "Assigned"; allowed next statuses: "In Stock".',
      status: 400,
    });
    expect(snapshot(emulator)).toEqual(before);
  });

  it('changes nothing when a create or update is refused', async () => {
    const { call, emulator, activeIds } = await setup();
    const id = activeIds()[0]!;
    const before = snapshot(emulator);
    const cases: [string, string, unknown, RegExp][] = [
      [
        'POST',
        '/entities',
        { ...NEW_ASSET, cf_quantity: 1.5 },
        /^cf_quantity must be a whole number\.$/,
      ],
      ['POST', '/entities', { name: 'No serial' }, /cf_serial_number is mandatory/],
      [
        'POST',
        '/entities',
        { ...NEW_ASSET, colour: 'red' },
        /colour is not a field of module assets/,
      ],
      ['POST', '/entities', { ...NEW_ASSET, owner: { zpuid: '1' } }, /^owner is read-only\.$/],
      [
        'POST',
        '/entities',
        { ...NEW_ASSET, name: 'n'.repeat(201) },
        /^name is longer than 200 characters\.$/,
      ],
      [
        'POST',
        '/entities',
        { ...NEW_ASSET, is_closed: true },
        /is_closed is true but status "In Stock" is an open status/,
      ],
      [
        'POST',
        '/entities',
        { ...NEW_ASSET, layout: { id: '1' } },
        /layout 1 is not a layout of module assets/,
      ],
      [
        'POST',
        '/entities',
        { ...NEW_ASSET, project: { id: '1' } },
        /project 1 is not a project of this portal/,
      ],
      [
        'PATCH',
        `/entities/${id}`,
        { description: 'ok', cf_cost: { amount: 'lots' } },
        /cf_cost\.amount must be a number/,
      ],
      [
        'PATCH',
        `/entities/${id}`,
        { cf_serial_number: '' },
        /cf_serial_number is mandatory and cannot be emptied/,
      ],
    ];
    for (const [method, suffix, body, message] of cases) {
      const reply = await call(method, suffix, body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
      expect(reply.body.message).toMatch(message);
    }
    const malformed = await call('POST', '/entities', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errorCode).toBe('INVALID_INPUTSTREAM');
    const array = await call('POST', '/entities', [NEW_ASSET]);
    expect(array.body.errorCode).toBe('INVALID_INPUTSTREAM');
    expect(snapshot(emulator)).toEqual(before);
  });

  it('answers 404 for unknown records, and 400 for ids that are not ids', async () => {
    const { call, db, moduleId } = await setup();
    for (const [method, suffix] of [
      ['GET', '/entities/123456'],
      ['PATCH', '/entities/123456'],
      ['DELETE', '/entities/123456'],
      ['POST', '/entities/123456/trash'],
      ['POST', '/entities/123456/restore'],
      ['GET', '/entity/123456/status-timeline'],
    ] as const) {
      const reply = await call(method, suffix, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(reply.status, `${method} ${suffix}`).toBe(404);
      expect(reply.body).toMatchObject({
        errorCode: 'RESOURCE_NOT_FOUND',
        message: 'Record 123456 does not exist.',
      });
    }
    // A record of another module is not found through this one.
    const vendor = db
      .prepare('SELECT id FROM entities WHERE module_id = ?')
      .get(moduleId('vendors')) as { id: number };
    expect((await call('GET', `/entities/${vendor.id}`)).status).toBe(404);
    const bad = await call('GET', '/entities/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('entity_id must be a numeric id, not "abc".');
  });

  it('keeps records of a deactivated module readable but not writable', async () => {
    const { call, db, moduleId, activeIds } = await setup();
    db.prepare("UPDATE modules SET state = 'deactivated' WHERE id = ?").run(moduleId());
    expect((await call('GET', '/entities')).status).toBe(200);
    const refused = await call('PATCH', `/entities/${activeIds()[0]}`, { name: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'module assets is deactivated; activate it to change its records.',
    );
    expect((await call('POST', '/entities', NEW_ASSET)).status).toBe(400);
  });
});

describe('records: trash, restore and permanent removal', () => {
  it('follows the state table: active → trash → restore / delete', async () => {
    const { call, emulator, db } = await setup();
    const record = (await call('POST', '/entities', NEW_ASSET)).body.entity;
    await call('POST', `/entity/${record.id}/record%20comments`, { content: 'a comment' });
    const count = async () => (await call('GET', '/entities/20')).body.count as number;
    const total = await count();

    // Deleting an active record is refused: the state table deletes from the trash only.
    const early = await call('DELETE', `/entities/${record.id}`);
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/is not in the trash; trash it first/);
    expect((await call('POST', `/entities/${record.id}/restore`)).body.message).toBe(
      `record ${record.id} is not in the trash.`,
    );

    const trashed = await call('POST', `/entities/${record.id}/trash`);
    expect(trashed.status).toBe(200);
    const trashedTime = trashed.body.entity.trashed_time as string;
    expect(trashedTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(trashedTime)).toBeGreaterThanOrEqual(Date.parse(record.created_time));
    expect(Date.parse(trashedTime)).toBeLessThanOrEqual(emulator.state.clock.now());
    expect(await count()).toBe(total - 1);
    expect(ids((await call('GET', '/entities?per_page=200')).body.entities)).not.toContain(
      record.id,
    );
    // Still readable, with its trashed_time; not changeable.
    expect((await call('GET', `/entities/${record.id}`)).body.entity.trashed_time).toBe(
      trashed.body.entity.trashed_time,
    );
    const patch = await call('PATCH', `/entities/${record.id}`, { name: 'x' });
    expect(patch.status).toBe(400);
    expect(patch.body.message).toMatch(/is in the trash; restore it first/);
    expect((await call('POST', `/entities/${record.id}/trash`)).body.message).toBe(
      `record ${record.id} is already in the trash.`,
    );

    const restored = await call('POST', `/entities/${record.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.entity.trashed_time).toBeNull();
    expect(await count()).toBe(total);

    await call('POST', `/entities/${record.id}/trash`);
    const removed = await call('DELETE', `/entities/${record.id}`);
    expect(removed.status).toBe(204);
    expect((await call('GET', `/entities/${record.id}`)).status).toBe(404);
    expect(await count()).toBe(total - 1);
    // Its comments and timeline went with it.
    const left = (table: string) =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE entity_id = ?`)
          .get(Number(record.id)) as { n: number }
      ).n;
    expect(left('comments')).toBe(0);
    expect(left('status_timeline')).toBe(0);
  });
});

describe('records: status timeline', () => {
  it('pages the timeline oldest first', async () => {
    const { call, statusId } = await setup();
    const record = (await call('POST', '/entities', NEW_ASSET)).body.entity;
    for (const name of ['Assigned', 'In Repair', 'In Stock']) {
      expect(
        (await call('PATCH', `/entities/${record.id}`, { status: { id: statusId(name) } })).status,
      ).toBe(200);
    }
    const page = await call('GET', `/entity/${record.id}/status-timeline?per_page=2&page=2`);
    expect(page.body.status_timeline.map((t: Row) => (t.to_status as Row).name)).toEqual([
      'In Repair',
      'In Stock',
    ]);
    expect(page.body.page_info).toEqual({
      page: 2,
      per_page: 2,
      page_count: 4,
      has_next_page: false,
    });
    expect((await call('GET', `/entity/${record.id}/status-timeline?per_page=201`)).status).toBe(
      400,
    );
    // The plural form is not the timeline's path.
    expect((await call('GET', `/entities/${record.id}/status-timeline`)).body.errorCode).toBe(
      'URL_RULE_NOT_CONFIGURED',
    );
  });
});
