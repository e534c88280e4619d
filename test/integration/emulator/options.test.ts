import { describe, expect, it } from 'vitest';
import {
  filterParam,
  grantToken,
  portalSession,
  snapshotTables,
  type RunningEmulator,
} from '../../support/emulator';

type Emulator = RunningEmulator;

const setup = () => portalSession({ records: 60 });

const snapshot = (emulator: Emulator) =>
  snapshotTables(emulator, [
    'fields',
    'field_options',
    'statuses',
    'status_transitions',
    'entities',
  ]);

const filter = filterParam;
const PAGE = 'page=1&per_page=200&index=0&range=200';
const read = (field: string, module = 'assets') =>
  `/settings/options?module=${module}&field=${field}&${PAGE}`;
const values = (items: { value: string }[]) => items.map((item) => item.value);

function moduleId(emulator: Emulator, apiName: string): number {
  return (
    emulator.state.db
      .prepare('SELECT id FROM modules WHERE portal_id = ? AND api_name = ?')
      .get(Number(emulator.portals[0]), apiName) as { id: number }
  ).id;
}

function zpuidOf(emulator: Emulator, email: string): string {
  return (
    emulator.state.db.prepare('SELECT zpuid FROM users WHERE email = ?').get(email) as {
      zpuid: string;
    }
  ).zpuid;
}

describe('options: read', () => {
  it('needs module, field, page, per_page, index and range', async () => {
    const { call } = await setup();
    const reply = await call('GET', read('cf_category'));
    expect(reply.status).toBe(200);
    expect(values(reply.body.custom_options)).toEqual([
      'Hardware',
      'Peripheral',
      'Network',
      'Mobile',
      'Furniture',
    ]);
    expect(reply.body.custom_options[0]).toMatchObject({ layout: null, position: 1 });
    expect(reply.body.page_info).toEqual({
      page: 1,
      per_page: 200,
      page_count: 5,
      has_next_page: false,
    });
    const full = {
      module: 'assets',
      field: 'cf_category',
      page: '1',
      per_page: '200',
      index: '0',
      range: '200',
    };
    for (const missing of Object.keys(full)) {
      const query = new URLSearchParams(Object.entries(full).filter(([key]) => key !== missing));
      const refused = await call('GET', `/settings/options?${query}`);
      expect(refused.status, missing).toBe(400);
      expect(refused.body.message).toBe(`${missing} is required.`);
    }
    const byId = await call('GET', read(await fieldId(call, 'cf_category')));
    expect(values(byId.body.custom_options)).toHaveLength(5);
    expect((await call('GET', read('cf_purchase_date'))).status).toBe(400);
    expect((await call('GET', read('cf_nothing'))).status).toBe(404);
    const paged = await call(
      'GET',
      '/settings/options?module=assets&field=cf_category&page=2&per_page=2&index=3&range=2',
    );
    expect(values(paged.body.custom_options)).toEqual(['Network', 'Mobile']);
    expect(paged.body.custom_options[0].position).toBe(3);
  });

  it('reads statuses of the status field and users and roles of a user field', async () => {
    const { emulator, call } = await setup();
    const statuses = await call('GET', read('status'));
    expect(statuses.body.statuses.map((s: { name: string }) => s.name)).toEqual([
      'In Stock',
      'Assigned',
      'In Repair',
      'Retired',
      'Lost',
    ]);
    expect(statuses.body.statuses[3]).toMatchObject({ is_closed_type: true, color: '#718096' });
    const maya = zpuidOf(emulator, 'maya.raman@portaldesk.demo');
    await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_custodian',
      users: [{ zpuid: maya }],
      roles: [{ id: '2' }],
    });
    const people = await call('GET', read('cf_custodian'));
    expect(people.body.users).toEqual([
      { zpuid: maya, name: 'Maya Raman', email: 'maya.raman@portaldesk.demo', layout: null },
    ]);
    expect(people.body.roles).toEqual([{ id: '2', name: 'Manager', layout: null }]);
    expect(people.body.page_info.page_count).toBe(2);
  });

  it('filters by layout (shared and own options), unassociated and project', async () => {
    const { emulator, call } = await setup();
    const layouts = (await call('GET', '/settings/layouts?module=assets&page=1&per_page=10')).body
      .layouts;
    const [standard, kit] = layouts.map((l: { id: string }) => l.id);
    await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      layout_id: kit,
      custom_options: [{ value: 'Tools' }],
    });
    const inKit = await call('GET', `${read('cf_category')}&${filter({ layout_id: kit })}`);
    expect(values(inKit.body.custom_options)).toEqual([
      'Hardware',
      'Peripheral',
      'Network',
      'Mobile',
      'Furniture',
      'Tools',
    ]);
    const inStandard = await call(
      'GET',
      `${read('cf_category')}&${filter({ layout_id: standard })}`,
    );
    expect(values(inStandard.body.custom_options)).not.toContain('Tools');
    const notInStandard = await call(
      'GET',
      `${read('cf_category')}&${filter({ layout_id: standard, is_unassociated: 'true' })}`,
    );
    expect(values(notInStandard.body.custom_options)).toEqual(['Tools']);
    expect(notInStandard.body.custom_options[0].layout).toEqual({ id: kit });
    expect(
      (await call('GET', `${read('cf_category')}&${filter({ is_unassociated: true })}`)).status,
    ).toBe(400);
    expect((await call('GET', `${read('cf_category')}&${filter({ layout_id: '1' })}`)).status).toBe(
      404,
    );

    const project = emulator.state.db
      .prepare("SELECT id FROM work_items WHERE portal_id = ? AND module = 'projects' LIMIT 1")
      .get(Number(emulator.portals[0])) as { id: number };
    expect(
      (await call('GET', `${read('cf_category')}&${filter({ project_id: project.id })}`)).body
        .custom_options,
    ).toHaveLength(6);
    await call('PATCH', '/settings/modules/assets', { is_all_projects: false });
    expect(
      (await call('GET', `${read('cf_category')}&${filter({ project_id: project.id })}`)).body
        .custom_options,
    ).toHaveLength(0);
    expect(
      (await call('GET', `${read('cf_category')}&${filter({ project_id: '5' })}`)).status,
    ).toBe(404);
  });
});

async function fieldId(
  call: Awaited<ReturnType<typeof setup>>['call'],
  apiName: string,
): Promise<string> {
  const fields = await call(
    'GET',
    `/settings/fields?module=assets&page=1&per_page=200&${filter({ fields: [apiName] })}`,
  );
  return fields.body.fields[0].id;
}

describe('options: bulk create', () => {
  it('holds at most 50 pick-list options and 100 multi-select options', async () => {
    const { emulator, call } = await setup();
    const make = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ value: `${prefix} ${i}` }));
    const pick = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      custom_options: make(45, 'Kind'),
    });
    expect(pick.status).toBe(201);
    expect(pick.body.custom_options).toHaveLength(45);
    expect(pick.body.custom_options[0]).toMatchObject({ value: 'Kind 0', position: 6 });
    const multi = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_tags',
      custom_options: make(94, 'Tag'),
    });
    expect(multi.status).toBe(201);

    const before = snapshot(emulator);
    const pickPast = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      custom_options: make(1, 'More'),
    });
    expect(pickPast.status).toBe(400);
    expect(pickPast.body.message).toBe(
      'cf_category would have 51 options; a pick_list field holds at most 50.',
    );
    const multiPast = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_tags',
      custom_options: make(1, 'More'),
    });
    expect(multiPast.body.message).toBe(
      'cf_tags would have 101 options; a multi_select field holds at most 100.',
    );
    expect(snapshot(emulator)).toBe(before);
  });

  it('takes at most 1000 custom_options in one body', async () => {
    const { emulator, call } = await setup();
    const make = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `Option ${i}` }));
    const before = snapshot(emulator);
    const thousand = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_tags',
      custom_options: make(1000),
    });
    expect(thousand.status).toBe(400);
    // 1000 items pass the body limit and meet the multi-select's own.
    expect(thousand.body.message).toBe(
      'cf_tags would have 1006 options; a multi_select field holds at most 100.',
    );
    const past = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_tags',
      custom_options: make(1001),
    });
    expect(past.body.message).toBe('custom_options has 1001 items; at most 1000 are allowed.');
    const removeMany = await call('DELETE', '/settings/options', {
      module: 'assets',
      field: 'cf_tags',
      custom_options: Array.from({ length: 1001 }, () => ({ id: '1' })),
    });
    expect(removeMany.body.message).toBe(
      'custom_options has 1001 items; at most 1000 are allowed.',
    );
    expect(snapshot(emulator)).toBe(before);
  });

  it('creates options at a position, and refuses what does not fit the field', async () => {
    const { emulator, call } = await setup();
    const current = (await call('GET', read('cf_category'))).body.custom_options;
    const made = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      position: { after_id: current[0].id },
      custom_options: [{ value: 'Software' }, { value: 'Licences' }],
    });
    expect(made.status).toBe(201);
    expect(values((await call('GET', read('cf_category'))).body.custom_options)).toEqual([
      'Hardware',
      'Software',
      'Licences',
      'Peripheral',
      'Network',
      'Mobile',
      'Furniture',
    ]);
    const kit = (await call('GET', '/settings/layouts?module=assets&page=1&per_page=10')).body
      .layouts[1].id;
    const before = snapshot(emulator);
    const refusals: [object, string][] = [
      [
        { module: 'assets', field: 'cf_category', custom_options: [{ value: 'hardware' }] },
        'custom option hardware is listed twice.',
      ],
      [
        {
          module: 'assets',
          field: 'cf_category',
          custom_options: [{ value: 'A' }, { value: 'a' }],
        },
        'custom option a is listed twice.',
      ],
      [
        { module: 'assets', field: 'cf_category', custom_options: [{ value: 'x'.repeat(201) }] },
        'custom_options[0].value is longer than 200 characters.',
      ],
      [
        { module: 'assets', field: 'cf_category', custom_options: [{ value: '' }] },
        'custom_options[0].value must not be empty.',
      ],
      [
        { module: 'assets', field: 'cf_category', custom_options: [{ id: '1', value: 'x' }] },
        'custom_options[0].id: new options get their id here; PATCH changes one.',
      ],
      [
        { module: 'assets', field: 'cf_category', custom_options: [] },
        'Nothing to do: give custom_options with at least one item.',
      ],
      [
        { module: 'assets', field: 'cf_category', users: [{ zpuid: '1' }] },
        'users do not apply to cf_category (a pick_list field); it takes custom_options.',
      ],
      [
        { module: 'assets', field: 'cf_purchase_date', custom_options: [{ value: 'x' }] },
        'cf_purchase_date is a date field; it has no options.',
      ],
      [{ module: 'assets', custom_options: [{ value: 'x' }] }, 'field is required.'],
      [
        { module: 'm'.repeat(101), field: 'cf_category', custom_options: [{ value: 'x' }] },
        'module is longer than 100 characters.',
      ],
      [
        { module: 'assets', field: 'status', layout_id: kit, statuses: [{ name: 'x' }] },
        'Statuses are shared by every layout of a module; send them without layout_id.',
      ],
      [
        {
          module: 'assets',
          field: 'cf_category',
          custom_options: [{ value: 'x' }],
          position: { before_id: '77' },
        },
        'position.before_id 77 is not one of the items it is placed among.',
      ],
      [
        { module: 'assets', field: 'cf_custodian', roles: [{ id: '1' }, { id: '1' }] },
        'role 1 is listed twice.',
      ],
      [
        { module: 'assets', field: 'status', statuses: [{ name: 'Parked', color: 'blue' }] },
        'statuses[0].color must be a colour like #2a64d6.',
      ],
      [
        { module: 'assets', field: 'status', statuses: [{ name: 'in stock' }] },
        'status in stock is listed twice.',
      ],
      [
        { module: 'assets', field: 'status', statuses: [{ color: '#000000' }] },
        'statuses[0].name is required.',
      ],
    ];
    for (const [body, message] of refusals) {
      const reply = await call('POST', '/settings/options', body);
      expect(reply.body.message).toBe(message);
      expect(reply.status).toBe(400);
    }
    const notFound: object[] = [
      { module: 'assets', field: 'cf_custodian', users: [{ zpuid: '12345' }] },
      { module: 'assets', field: 'cf_custodian', roles: [{ id: '99' }] },
      {
        module: 'assets',
        field: 'status',
        statuses: [{ name: 'Parked', transitions: [{ id: '42' }] }],
      },
      { module: 'assets', field: 'cf_category', layout_id: '42', custom_options: [{ value: 'x' }] },
    ];
    for (const body of notFound)
      expect((await call('POST', '/settings/options', body)).status).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });

  it('creates users, roles and statuses with transitions', async () => {
    const { emulator, call } = await setup();
    const maya = zpuidOf(emulator, 'maya.raman@portaldesk.demo');
    const jonas = zpuidOf(emulator, 'jonas.weber@portaldesk.demo');
    const people = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_watchers',
      users: [{ zpuid: maya }, { zpuid: jonas }],
      roles: [{ id: '1' }],
    });
    expect(people.status).toBe(201);
    expect(people.body.users.map((u: { zpuid: string }) => u.zpuid)).toEqual([maya, jonas]);
    expect(people.body.roles).toEqual([{ id: '1', name: 'Administrator', layout: null }]);
    expect(
      (
        await call('POST', '/settings/options', {
          module: 'assets',
          field: 'cf_watchers',
          users: [{ zpuid: maya }],
        })
      ).status,
    ).toBe(400);

    const statuses = (await call('GET', read('status'))).body.statuses;
    const made = await call('POST', '/settings/options', {
      module: 'assets',
      field: 'status',
      position: { known_position: 'first' },
      statuses: [{ name: 'Ordered', color: '#123456', transitions: [{ id: statuses[0].id }] }],
    });
    expect(made.status).toBe(201);
    expect(made.body.statuses).toEqual([
      {
        id: expect.any(String),
        name: 'Ordered',
        color: '#123456',
        is_closed_type: false,
        is_default: false,
        position: 1,
        transitions: [{ id: statuses[0].id }],
      },
    ]);
    const after = (await call('GET', read('status'))).body.statuses;
    expect(after.map((s: { name: string }) => s.name)[0]).toBe('Ordered');
    expect(after).toHaveLength(6);
  });
});

describe('options: bulk update', () => {
  it('renames options (records that hold a pick-list name follow), moves and re-scopes them', async () => {
    const { emulator, call } = await setup();
    const { db } = emulator.state;
    const assets = moduleId(emulator, 'assets');
    const count = (value: string) =>
      (
        db
          .prepare(
            "SELECT COUNT(*) AS n FROM entities WHERE module_id = ? AND json_extract(custom, '$.cf_category') = ?",
          )
          .get(assets, value) as { n: number }
      ).n;
    const options = (await call('GET', read('cf_category'))).body.custom_options;
    const hardware = options[0];
    const hardwareRecords = count('Hardware');
    expect(hardwareRecords).toBeGreaterThan(0);

    const renamed = await call('PATCH', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      custom_options: [{ id: hardware.id, value: 'Computers' }],
      position: { known_position: 'last' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.custom_options).toEqual([
      { id: hardware.id, value: 'Computers', layout: null, position: 5 },
    ]);
    expect(count('Hardware')).toBe(0);
    expect(count('Computers')).toBe(hardwareRecords);

    const kit = (await call('GET', '/settings/layouts?module=assets&page=1&per_page=10')).body
      .layouts[1].id;
    const scoped = await call('PATCH', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      layout_id: kit,
      custom_options: [{ id: options[1].id }],
    });
    expect(scoped.body.custom_options[0].layout).toEqual({ id: kit });

    const before = snapshot(emulator);
    const refusals: object[] = [
      {
        module: 'assets',
        field: 'cf_category',
        custom_options: [{ id: options[2].id, value: 'Mobile' }],
      },
      {
        module: 'assets',
        field: 'cf_category',
        custom_options: [{ id: options[2].id }, { id: options[2].id }],
      },
      { module: 'assets', field: 'cf_category', custom_options: [{ value: 'x' }] },
      {
        module: 'assets',
        field: 'cf_category',
        custom_options: [{ id: options[2].id, value: 'y'.repeat(201) }],
      },
    ];
    for (const body of refusals)
      expect((await call('PATCH', '/settings/options', body)).status, JSON.stringify(body)).toBe(
        400,
      );
    expect(
      (
        await call('PATCH', '/settings/options', {
          module: 'assets',
          field: 'cf_category',
          custom_options: [{ id: '5', value: 'x' }],
        })
      ).status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });

  it('updates statuses: name, colour, closed type (records follow) and transitions', async () => {
    const { emulator, call } = await setup();
    const { db } = emulator.state;
    const statuses = (await call('GET', read('status'))).body.statuses;
    const inRepair = statuses[2];
    const records = () =>
      db
        .prepare('SELECT DISTINCT is_closed FROM entities WHERE status_id = ?')
        .all(Number(inRepair.id)) as { is_closed: number }[];
    const reply = await call('PATCH', '/settings/options', {
      module: 'assets',
      field: 'status',
      statuses: [
        {
          id: inRepair.id,
          name: 'Being repaired',
          color: '#aabbcc',
          is_closed_type: true,
          transitions: [{ id: statuses[0].id }],
        },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.statuses).toEqual([
      {
        id: inRepair.id,
        name: 'Being repaired',
        color: '#aabbcc',
        is_closed_type: true,
        is_default: false,
        position: 3,
        transitions: [{ id: statuses[0].id }],
      },
    ]);
    for (const row of records()) expect(row.is_closed).toBe(1);

    const before = snapshot(emulator);
    const refusals: object[] = [
      {
        module: 'assets',
        field: 'status',
        statuses: [{ id: inRepair.id, transitions: [{ id: inRepair.id }] }],
      },
      { module: 'assets', field: 'status', statuses: [{ id: inRepair.id, name: 'Lost' }] },
      { module: 'assets', field: 'status', statuses: [{ id: inRepair.id, is_closed_type: 'no' }] },
    ];
    for (const body of refusals)
      expect((await call('PATCH', '/settings/options', body)).status, JSON.stringify(body)).toBe(
        400,
      );
    expect(
      (
        await call('PATCH', '/settings/options', {
          module: 'assets',
          field: 'status',
          statuses: [{ id: '9' }],
        })
      ).status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });
});

describe('options: bulk remove', () => {
  it('removes custom options; records lose pick-list names and multi-select ids', async () => {
    const { emulator, call } = await setup();
    const { db } = emulator.state;
    const assets = moduleId(emulator, 'assets');
    const category = (await call('GET', read('cf_category'))).body.custom_options;
    const tags = (await call('GET', read('cf_tags'))).body.custom_options;
    const holding = (path: string, value: string) =>
      (
        db
          .prepare(
            `SELECT COUNT(*) AS n FROM entities WHERE module_id = ? AND (json_extract(custom, ?) = ?
               OR EXISTS (SELECT 1 FROM json_each(custom, ?) WHERE json_each.value = ?))`,
          )
          .get(assets, path, value, path, value) as { n: number }
      ).n;
    expect(holding('$.cf_category', 'Hardware')).toBeGreaterThan(0);
    const tagHolders = tags.map((tag: { id: string }) => holding('$.cf_tags', tag.id));
    const tagged = tags[tagHolders.findIndex((n: number) => n > 0)];

    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'cf_category',
          custom_options: [{ id: category[0].id }],
        })
      ).status,
    ).toBe(204);
    expect(holding('$.cf_category', 'Hardware')).toBe(0);
    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'cf_tags',
          custom_options: [{ id: tagged.id }],
        })
      ).status,
    ).toBe(204);
    expect(holding('$.cf_tags', tagged.id)).toBe(0);
    expect(values((await call('GET', read('cf_category'))).body.custom_options)).toEqual([
      'Peripheral',
      'Network',
      'Mobile',
      'Furniture',
    ]);
  });

  it('with layout_id removes only options made for that layout', async () => {
    const { emulator, call } = await setup();
    const kit = (await call('GET', '/settings/layouts?module=assets&page=1&per_page=10')).body
      .layouts[1].id;
    const own = (
      await call('POST', '/settings/options', {
        module: 'assets',
        field: 'cf_category',
        layout_id: kit,
        custom_options: [{ value: 'Tools' }],
      })
    ).body.custom_options[0];
    const shared = (await call('GET', read('cf_category'))).body.custom_options[0];
    const before = snapshot(emulator);
    const refused = await call('DELETE', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      layout_id: kit,
      custom_options: [{ id: shared.id }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('shared by every layout');
    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'cf_category',
          custom_options: [{ id: '7' }],
        })
      ).status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'cf_category',
          layout_id: kit,
          custom_options: [{ id: own.id }],
        })
      ).status,
    ).toBe(204);
    expect(values((await call('GET', read('cf_category'))).body.custom_options)).not.toContain(
      'Tools',
    );
  });

  it('removes users and roles, and statuses no record has used', async () => {
    const { emulator, call } = await setup();
    const maya = zpuidOf(emulator, 'maya.raman@portaldesk.demo');
    await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_custodian',
      users: [{ zpuid: maya }],
      roles: [{ id: '3' }],
    });
    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'cf_custodian',
          users: [{ zpuid: maya }],
          roles: [{ id: '3' }],
        })
      ).status,
    ).toBe(204);
    const people = await call('GET', read('cf_custodian'));
    expect(people.body.users).toEqual([]);
    expect(people.body.roles).toEqual([]);
    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'cf_custodian',
          users: [{ zpuid: maya }],
        })
      ).status,
    ).toBe(404);

    const statuses = (await call('GET', read('status'))).body.statuses;
    const spare = (
      await call('POST', '/settings/options', {
        module: 'assets',
        field: 'status',
        statuses: [{ name: 'Spare' }],
      })
    ).body.statuses[0];
    const before = snapshot(emulator);
    const byDefault = await call('DELETE', '/settings/options', {
      module: 'assets',
      field: 'status',
      statuses: [{ id: statuses[0].id }],
    });
    expect(byDefault.status).toBe(400);
    expect(byDefault.body.message).toContain('default status');
    const used = await call('DELETE', '/settings/options', {
      module: 'assets',
      field: 'status',
      statuses: [{ id: statuses[1].id }],
    });
    expect(used.status).toBe(400);
    expect(used.body.message).toContain('in use');
    expect(snapshot(emulator)).toBe(before);
    expect(
      (
        await call('DELETE', '/settings/options', {
          module: 'assets',
          field: 'status',
          statuses: [{ id: spare.id }],
        })
      ).status,
    ).toBe(204);
    expect((await call('GET', read('status'))).body.statuses).toHaveLength(5);
  });

  it('uses the option table scopes', async () => {
    const { emulator, call } = await setup();
    const readOnly = grantToken(emulator, { scopes: ['PMS.custom_fields.READ'] });
    const body = { module: 'assets', field: 'cf_category', custom_options: [{ value: 'Scoped' }] };
    expect((await call('GET', read('cf_category'), undefined, readOnly)).status).toBe(200);
    expect((await call('POST', '/settings/options', body, readOnly)).status).toBe(403);
    const made = await call('POST', '/settings/options', body);
    const id = made.body.custom_options[0].id;
    const patch = {
      module: 'assets',
      field: 'cf_category',
      custom_options: [{ id, value: 'Scoped 2' }],
    };
    expect((await call('PATCH', '/settings/options', patch, readOnly)).status).toBe(403);
    const update = grantToken(emulator, { scopes: ['PMS.custom_fields.UPDATE'] });
    expect((await call('PATCH', '/settings/options', patch, update)).status).toBe(200);
    const remove = { module: 'assets', field: 'cf_category', custom_options: [{ id }] };
    expect((await call('DELETE', '/settings/options', remove, update)).status).toBe(403);
    const del = grantToken(emulator, { scopes: ['PMS.custom_fields.DELETE'] });
    expect((await call('DELETE', '/settings/options', remove, del)).status).toBe(204);
  });
});
