import { describe, expect, it } from 'vitest';
import {
  api,
  grantToken,
  portalSession,
  snapshotTables,
  type RunningEmulator,
} from '../../support/emulator';

type Emulator = RunningEmulator;

const setup = (scopes?: string[]) => portalSession({ records: 20, ...(scopes ? { scopes } : {}) });

/** Every settings table, to show that a refused request changed nothing. */
const snapshot = (emulator: Emulator) =>
  snapshotTables(emulator, [
    'modules',
    'layouts',
    'sections',
    'fields',
    'layout_fields',
    'field_options',
    'statuses',
    'status_transitions',
    'entities',
  ]);

function portalId(emulator: Emulator): number {
  return Number(emulator.portals[0]);
}

function projectIds(emulator: Emulator): string[] {
  return (
    emulator.state.db
      .prepare(
        "SELECT id FROM work_items WHERE portal_id = ? AND module = 'projects' AND trashed_time IS NULL ORDER BY id",
      )
      .all(portalId(emulator)) as { id: number }[]
  ).map((row) => String(row.id));
}

/** Tops the portal up to `count` projects, straight in the database. */
function ensureProjects(emulator: Emulator, count: number): string[] {
  const { db } = emulator.state;
  const have = projectIds(emulator).length;
  const insert = db.prepare(
    `INSERT INTO work_items (id, portal_id, module, name, project_id, created_time)
     VALUES (?, ?, 'projects', ?, NULL, ?)`,
  );
  for (let i = have; i < count; i++) {
    insert.run(
      emulator.state.nextId(),
      portalId(emulator),
      `Extra project ${i}`,
      emulator.state.nowIso(),
    );
  }
  return projectIds(emulator).slice(0, count);
}

const PAGE = 'page=1&per_page=100';

describe('module settings: list and read', () => {
  it('lists modules, needs page and per_page, and filters by is_default, is_customized, is_web_tab', async () => {
    const { call } = await setup();
    const all = await call('GET', `/settings/modules?${PAGE}`);
    expect(all.status).toBe(200);
    expect(all.body.modules.map((m: { api_name: string }) => m.api_name)).toEqual([
      'projects',
      'phases',
      'tasklists',
      'tasks',
      'issues',
      'assets',
      'vendors',
      'change_requests',
    ]);
    expect(all.body.page_info).toEqual({
      page: 1,
      per_page: 100,
      page_count: 8,
      has_next_page: false,
    });

    for (const query of ['page=1', 'per_page=10', '']) {
      const reply = await call('GET', `/settings/modules?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }
    expect((await call('GET', '/settings/modules?page=1&per_page=200')).status).toBe(200);
    expect((await call('GET', '/settings/modules?page=1&per_page=201')).status).toBe(400);

    const filtered = async (filter: object) =>
      (
        await call(
          'GET',
          `/settings/modules?${PAGE}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
        )
      ).body.modules.map((m: { api_name: string }) => m.api_name);
    expect(await filtered({ is_default: true })).toHaveLength(5);
    expect(await filtered({ is_customized: true })).toEqual([
      'assets',
      'vendors',
      'change_requests',
    ]);
    expect(await filtered({ is_web_tab: true })).toEqual(['assets']);
    expect(await filtered({ is_default: false, is_web_tab: false })).toEqual([
      'vendors',
      'change_requests',
    ]);
    expect((await call('GET', `/settings/modules?${PAGE}&filter={bad`)).status).toBe(400);
    expect(
      (
        await call(
          'GET',
          `/settings/modules?${PAGE}&filter=${encodeURIComponent('{"is_default":"maybe"}')}`,
        )
      ).status,
    ).toBe(400);

    const second = await call('GET', '/settings/modules?page=2&per_page=3&index=1&range=3');
    expect(second.body.modules.map((m: { api_name: string }) => m.api_name)).toEqual([
      'tasks',
      'issues',
      'assets',
    ]);
    expect(second.body.page_info).toEqual({
      page: 2,
      per_page: 3,
      page_count: 8,
      has_next_page: true,
    });
    expect((await call('GET', `/settings/modules?${PAGE}&range=0`)).status).toBe(400);
  });

  it('reads one module by api name or id; unknown is 404; the scope is PMS.custom_fields.READ', async () => {
    const { emulator, call } = await setup();
    const byName = await call('GET', '/settings/modules/assets');
    expect(byName.status).toBe(200);
    expect(byName.body.module).toMatchObject({
      api_name: 'assets',
      singular_name: 'Asset',
      is_customized: true,
      is_default: false,
      is_active: true,
      module_property: { default_layout_type: 'public' },
    });
    const byId = await call('GET', `/settings/modules/${byName.body.module.id}`);
    expect(byId.body.module.api_name).toBe('assets');
    const missing = await call('GET', '/settings/modules/nothing_here');
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('RESOURCE_NOT_FOUND');

    const portalOnly = grantToken(emulator, { scopes: ['PMS.portals.ALL'] });
    const refused = await api(
      emulator.dcs.us!.api,
      portalOnly,
      'GET',
      `/api/v3/portal/${emulator.portals[0]}/settings/modules/assets`,
    );
    expect(refused.status).toBe(403);
  });

  it('returns all fields of a module under projects or a project id', async () => {
    const { emulator, call } = await setup();
    const reply = await call('GET', '/projects/assets/fields');
    expect(reply.status).toBe(200);
    const names = reply.body.fields.map((f: { api_name: string }) => f.api_name);
    expect(names.slice(0, 5)).toEqual(['name', 'description', 'status', 'owner', 'project']);
    expect(names).toContain('cf_serial_number');
    expect(names).toHaveLength(22);

    const project = projectIds(emulator)[0]!;
    const inProject = await call('GET', `/${project}/vendors/fields`);
    expect(inProject.status).toBe(200);
    expect(inProject.body.fields.some((f: { api_name: string }) => f.api_name === 'cf_tier')).toBe(
      true,
    );
    expect((await call('GET', '/99999999/vendors/fields')).status).toBe(404);
    expect((await call('GET', '/projects/unknown_module/fields')).status).toBe(404);
  });
});

describe('module settings: create', () => {
  it('creates a module with an api name, a default layout, system fields and statuses', async () => {
    const { emulator, call } = await setup();
    const created = await call('POST', '/settings/modules', {
      singular_name: 'Service Ticket',
      plural_name: 'Service Tickets',
      icon_class: 'icon-ticket',
      is_overview_needed: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.module).toMatchObject({
      api_name: 'service_tickets',
      singular_name: 'Service Ticket',
      plural_name: 'Service Tickets',
      icon_class: 'icon-ticket',
      is_customized: true,
      is_default: false,
      is_all_projects: true,
      is_overview_needed: true,
      is_active: true,
    });

    const layout = await call('GET', '/settings/layouts/default-layout?module=service_tickets');
    expect(layout.status).toBe(200);
    expect(layout.body.layout.name).toBe('Standard');
    expect(
      layout.body.layout.sections[0].fields.map((f: { api_name: string }) => f.api_name),
    ).toEqual(['name', 'description', 'status', 'owner', 'project']);
    const fields = await call('GET', '/projects/service_tickets/fields');
    expect(fields.body.fields).toHaveLength(5);
    const listed = await call('GET', `/settings/fields?module=service_tickets&${PAGE}`);
    expect(listed.body.page_info.page_count).toBe(5);

    const options = await call(
      'GET',
      `/settings/options?module=service_tickets&field=status&${PAGE}&index=0&range=100`,
    );
    expect(options.body.statuses.map((s: { name: string }) => s.name)).toEqual([
      'Open',
      'In Progress',
      'On Hold',
      'Closed',
      'Cancelled',
    ]);
    expect(options.body.statuses[0].is_default).toBe(true);
    expect(options.body.statuses[0].transitions).toHaveLength(4);
    expect(options.body.statuses[3].transitions).toEqual([{ id: options.body.statuses[0].id }]);

    // The same api name again gets a suffix; the portal's other modules are untouched.
    const again = await call('POST', '/settings/modules', {
      singular_name: 'Asset!',
      plural_name: 'Assets!',
    });
    expect(again.status).toBe(201);
    expect(again.body.module.api_name).toBe('assets_2');
    const reserved = await call('POST', '/settings/modules', {
      singular_name: 'Bin',
      plural_name: 'Bin',
    });
    expect(reserved.body.module.api_name).toBe('bin_2');
    const digits = await call('POST', '/settings/modules', {
      singular_name: '3D print',
      plural_name: '3D prints',
    });
    expect(digits.body.module.api_name).toBe('m_3d_prints');
    expect(
      emulator.state.db
        .prepare('SELECT COUNT(*) AS n FROM modules WHERE portal_id = ?')
        .get(portalId(emulator)),
    ).toEqual({ n: 12 });
  });

  it('a new module takes records right away; deactivated, its records stay readable only', async () => {
    const { call } = await setup();
    expect(
      (await call('POST', '/settings/modules', { singular_name: 'Gadget', plural_name: 'Gadgets' }))
        .status,
    ).toBe(201);
    const made = await call('POST', '/projects/gadgets/entities', { name: 'First gadget' });
    expect(made.status).toBe(201);
    expect(made.body.entity).toMatchObject({
      status: { name: 'Open' },
      layout: { name: 'Standard' },
    });
    expect((await call('PATCH', '/settings/modules/gadgets/deactivate')).status).toBe(200);
    expect((await call('POST', '/projects/gadgets/entities', { name: 'Second' })).status).toBe(400);
    expect((await call('GET', '/projects/gadgets/entities')).body.page_info.page_count).toBe(1);
    expect((await call('DELETE', '/settings/modules/gadgets')).status).toBe(204);
    expect((await call('GET', '/projects/gadgets/entities')).status).toBe(404);
  });

  it('limits singular_name, plural_name and icon_class to 50 characters', async () => {
    const { emulator, call } = await setup();
    const ok = await call('POST', '/settings/modules', {
      singular_name: 'S'.repeat(50),
      plural_name: 'P'.repeat(50),
      icon_class: 'i'.repeat(50),
    });
    expect(ok.status).toBe(201);
    const before = snapshot(emulator);
    for (const key of ['singular_name', 'plural_name', 'icon_class']) {
      const body: Record<string, string> = {
        singular_name: 'Widget',
        plural_name: 'Widgets',
        icon_class: 'x',
      };
      body[key] = 'y'.repeat(51);
      const reply = await call('POST', '/settings/modules', body);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(`${key} is longer than 50 characters.`);
    }
    expect((await call('POST', '/settings/modules', { plural_name: 'Widgets' })).body.message).toBe(
      'singular_name is required.',
    );
    expect(
      (await call('POST', '/settings/modules', { singular_name: 'Asset', plural_name: 'X' }))
        .status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/settings/modules', {
          singular_name: 'W',
          plural_name: 'Ws',
          is_overview_needed: 'yes',
        })
      ).status,
    ).toBe(400);
    expect(snapshot(emulator)).toBe(before);
  });

  it('takes 0 to 100 projects and at most 10000 characters of them', async () => {
    const { emulator, call } = await setup();
    const ids = ensureProjects(emulator, 101);
    const items = (n: number) =>
      ids.slice(0, n).map((id) => ({ project: { id }, is_selected: true }));

    const none = await call('POST', '/settings/modules', {
      singular_name: 'A0',
      plural_name: 'A0s',
      projects: [],
    });
    expect(none.status).toBe(201);
    expect(none.body.module.is_all_projects).toBe(true);

    const hundred = await call('POST', '/settings/modules', {
      singular_name: 'A100',
      plural_name: 'A100s',
      is_all_projects: false,
      projects: items(100),
    });
    expect(hundred.status).toBe(201);
    expect(hundred.body.module.projects).toHaveLength(100);
    expect(hundred.body.module.is_all_projects).toBe(false);
    expect(hundred.body.module.projects[0].project.name).toBeTruthy();

    const before = snapshot(emulator);
    const tooMany = await call('POST', '/settings/modules', {
      singular_name: 'A101',
      plural_name: 'A101s',
      projects: items(101),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('projects has 101 items; at most 100 are allowed.');

    // The length is that of the array's JSON text; extra members count but are not kept.
    const padded = (length: number) => {
      const base = JSON.stringify([
        { project: { id: ids[0], name: '' }, is_selected: true },
      ]).length;
      return [{ project: { id: ids[0], name: 'n'.repeat(length - base) }, is_selected: true }];
    };
    const long = await call('POST', '/settings/modules', {
      singular_name: 'L',
      plural_name: 'Ls',
      projects: padded(10_001),
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('projects is longer than 10000 characters.');
    const unknown = await call('POST', '/settings/modules', {
      singular_name: 'U',
      plural_name: 'Us',
      projects: [{ project: { id: '123' }, is_selected: true }],
    });
    expect(unknown.status).toBe(404);
    const twice = await call('POST', '/settings/modules', {
      singular_name: 'T',
      plural_name: 'Ts',
      projects: [...items(1), ...items(1)],
    });
    expect(twice.status).toBe(400);
    expect(snapshot(emulator)).toBe(before);

    const exact = await call('POST', '/settings/modules', {
      singular_name: 'L',
      plural_name: 'Ls',
      projects: padded(10_000),
    });
    expect(exact.status).toBe(201);
    expect(exact.body.module.projects).toEqual([
      { project: { id: ids[0], name: expect.any(String) }, is_selected: true },
    ]);
  });

  it('a module on in some projects only has no fields in the others', async () => {
    const { emulator, call } = await setup();
    const [first, second] = projectIds(emulator);
    const created = await call('POST', '/settings/modules', {
      singular_name: 'Permit',
      plural_name: 'Permits',
      is_all_projects: false,
      projects: [{ project: { id: first }, is_selected: true }],
    });
    expect(created.status).toBe(201);
    expect((await call('GET', `/${first}/permits/fields`)).status).toBe(200);
    expect((await call('GET', `/${second}/permits/fields`)).status).toBe(404);
    expect((await call('GET', '/projects/permits/fields')).status).toBe(200);
    expect((await call('GET', '/everything/permits/fields')).status).toBe(400);
  });
});

describe('module settings: update and lifecycle', () => {
  it('updates names, icon, flags and module_property (max 1000 characters)', async () => {
    const { emulator, call } = await setup();
    const reply = await call('PATCH', '/settings/modules/vendors', {
      singular_name: 'Supplier',
      plural_name: 'Suppliers',
      icon_class: 'icon-truck',
      is_all_projects: false,
      is_overview_needed: true,
      module_property: { default_layout_type: 'private' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.module).toMatchObject({
      api_name: 'vendors',
      singular_name: 'Supplier',
      plural_name: 'Suppliers',
      icon_class: 'icon-truck',
      is_all_projects: false,
      is_overview_needed: true,
      module_property: { default_layout_type: 'private' },
    });
    // New layouts take the module's default type.
    const layout = await call('POST', '/settings/layouts', { module: 'vendors', name: 'Quick' });
    expect(layout.body.layout.type).toBe('private');

    const property = (length: number) => {
      const base = JSON.stringify({ default_layout_type: 'public', note: '' }).length;
      return { default_layout_type: 'public', note: 'n'.repeat(length - base) };
    };
    expect(
      (await call('PATCH', '/settings/modules/vendors', { module_property: property(1000) }))
        .status,
    ).toBe(200);
    const before = snapshot(emulator);
    const long = await call('PATCH', '/settings/modules/vendors', {
      module_property: property(1001),
      icon_class: 'z',
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('module_property is longer than 1000 characters.');
    const refusals = [
      { module_property: { default_layout_type: 'secret' } },
      { icon_class: 'i'.repeat(51) },
      { singular_name: '' },
      { is_global_module: true },
      {},
      { plural_name: 'Assets' },
    ];
    for (const body of refusals) {
      expect((await call('PATCH', '/settings/modules/vendors', body)).status).toBe(400);
    }
    expect((await call('PATCH', '/settings/modules/nothing', { icon_class: 'x' })).status).toBe(
      404,
    );
    expect(snapshot(emulator)).toBe(before);
  });

  it('refuses to rename, deactivate or delete a built-in module, but updates its icon', async () => {
    const { emulator, call } = await setup();
    const before = snapshot(emulator);
    expect((await call('PATCH', '/settings/modules/tasks', { plural_name: 'Todos' })).status).toBe(
      400,
    );
    expect((await call('PATCH', '/settings/modules/tasks/deactivate')).status).toBe(400);
    const trash = await call('DELETE', '/settings/modules/tasks');
    expect(trash.status).toBe(400);
    expect(trash.body.message).toBe('tasks is a built-in module and cannot be deleted.');
    expect(snapshot(emulator)).toBe(before);
    const icon = await call('PATCH', '/settings/modules/tasks', { icon_class: 'icon-check' });
    expect(icon.body.module.icon_class).toBe('icon-check');
  });

  it('runs the lifecycle: create, deactivate, activate, trash, recover, trash, delete from the bin', async () => {
    const { emulator, call } = await setup();
    const created = await call('POST', '/settings/modules', {
      singular_name: 'Gadget',
      plural_name: 'Gadgets',
    });
    const id = created.body.module.id;

    const off = await call('PATCH', '/settings/modules/gadgets/deactivate');
    expect(off.status).toBe(200);
    expect(off.body.module).toMatchObject({ is_active: false, status: 'deactivated' });
    expect(
      (await call('PATCH', '/settings/modules/gadgets/deactivate')).body.module.is_active,
    ).toBe(false);
    const on = await call('PATCH', '/settings/modules/gadgets/activate', { ignored: true });
    expect(on.body.module).toMatchObject({ is_active: true, status: 'active' });

    // Permanent removal only from the trash.
    const early = await call('DELETE', '/settings/modules/bin/gadgets');
    expect(early.status).toBe(400);
    expect((await call('POST', '/settings/modules/bin/gadgets/recover')).status).toBe(400);

    expect((await call('DELETE', '/settings/modules/gadgets')).status).toBe(204);
    expect((await call('GET', '/settings/modules/gadgets')).status).toBe(404);
    expect((await call('GET', '/settings/layouts/default-layout?module=gadgets')).status).toBe(404);
    expect((await call('DELETE', '/settings/modules/gadgets')).status).toBe(404);
    const listed = await call('GET', `/settings/modules?${PAGE}`);
    expect(listed.body.modules.some((m: { id: string }) => m.id === id)).toBe(false);

    const recovered = await call('POST', '/settings/modules/bin/gadgets/recover');
    expect(recovered.status).toBe(200);
    expect(recovered.body.module).toMatchObject({ id, is_trashed: false, is_active: true });
    expect((await call('GET', '/settings/layouts/default-layout?module=gadgets')).status).toBe(200);

    expect((await call('DELETE', '/settings/modules/gadgets')).status).toBe(204);
    expect((await call('DELETE', '/settings/modules/bin/gadgets')).status).toBe(204);
    expect((await call('POST', '/settings/modules/bin/gadgets/recover')).status).toBe(404);
    expect((await call('DELETE', '/settings/modules/bin/gadgets')).status).toBe(404);
    const { db } = emulator.state;
    for (const table of ['modules', 'layouts', 'fields', 'statuses']) {
      const column = table === 'modules' ? 'id' : 'module_id';
      expect(
        db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).get(Number(id)),
      ).toEqual({ n: 0 });
    }
  });

  it('deletes a module with records from the bin, records included', async () => {
    const { emulator, call } = await setup();
    const { db } = emulator.state;
    const moduleId = (
      db
        .prepare("SELECT id FROM modules WHERE api_name = 'assets' AND portal_id = ?")
        .get(portalId(emulator)) as { id: number }
    ).id;
    const records = (
      db.prepare('SELECT COUNT(*) AS n FROM entities WHERE module_id = ?').get(moduleId) as {
        n: number;
      }
    ).n;
    expect(records).toBeGreaterThan(0);
    expect((await call('DELETE', '/settings/modules/assets')).status).toBe(204);
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM entities WHERE module_id = ?').get(moduleId),
    ).toEqual({ n: records });
    expect((await call('DELETE', '/settings/modules/bin/assets')).status).toBe(204);
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM entities WHERE module_id = ?').get(moduleId),
    ).toEqual({ n: 0 });
  });

  it('uses the scopes of the table: CREATE to create, UPDATE to change, READ for the trash operations', async () => {
    const { emulator, call } = await setup();
    const base = emulator.dcs.us!.api;
    const path = `/api/v3/portal/${emulator.portals[0]}`;
    const readOnly = grantToken(emulator, { scopes: ['PMS.custom_fields.READ'] });
    const body = { singular_name: 'Scope', plural_name: 'Scopes' };
    expect((await api(base, readOnly, 'POST', `${path}/settings/modules`, body)).status).toBe(403);
    expect((await call('POST', '/settings/modules', body)).status).toBe(201);
    expect(
      (await api(base, readOnly, 'PATCH', `${path}/settings/modules/scopes`, { icon_class: 'x' }))
        .status,
    ).toBe(403);
    expect(
      (await api(base, readOnly, 'PATCH', `${path}/settings/modules/scopes/deactivate`)).status,
    ).toBe(403);
    const update = grantToken(emulator, { scopes: ['PMS.custom_fields.UPDATE'] });
    expect(
      (await api(base, update, 'PATCH', `${path}/settings/modules/scopes/deactivate`)).status,
    ).toBe(200);
    expect((await api(base, readOnly, 'DELETE', `${path}/settings/modules/scopes`)).status).toBe(
      204,
    );
    expect(
      (await api(base, readOnly, 'POST', `${path}/settings/modules/bin/scopes/recover`)).status,
    ).toBe(200);
    expect((await api(base, readOnly, 'DELETE', `${path}/settings/modules/scopes`)).status).toBe(
      204,
    );
    expect(
      (await api(base, readOnly, 'DELETE', `${path}/settings/modules/bin/scopes`)).status,
    ).toBe(204);
  });

  it('describes the fields configuration of a module: layouts, sections, fields and statuses', async () => {
    const { call } = await setup();
    expect((await call('GET', '/settings/fields-configuration')).status).toBe(400);
    expect((await call('GET', '/settings/fields-configuration?module=nothing')).status).toBe(404);
    const reply = await call('GET', '/settings/fields-configuration?module=assets');
    expect(reply.status).toBe(200);
    expect(reply.body.layouts.map((l: { name: string }) => l.name)).toEqual([
      'Standard',
      'Field Kit',
    ]);
    expect(reply.body.layouts[0].sections.map((s: { name: string }) => s.name)).toEqual([
      'Overview',
      'Details',
      'Tracking',
    ]);
    const placed = reply.body.layouts[0].sections.flatMap((s: { fields: unknown[] }) => s.fields);
    expect(placed).toHaveLength(22);
    expect(reply.body.fields).toHaveLength(22);
    expect(reply.body.statuses.map((s: { name: string }) => s.name)).toContain('In Repair');
  });
});
