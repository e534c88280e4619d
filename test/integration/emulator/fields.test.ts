import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FIELD_TYPE_NAMES,
  CUSTOM_FIELD_TYPES,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import {
  filterParam,
  grantToken,
  portalSession,
  snapshotTables,
  type RunningEmulator,
} from '../../support/emulator';

type Emulator = RunningEmulator;

const setup = () => portalSession({ records: 40 });

const snapshot = (emulator: Emulator) =>
  snapshotTables(emulator, [
    'layouts',
    'sections',
    'fields',
    'layout_fields',
    'field_options',
    'entities',
  ]);

const filter = filterParam;
const apiNames = (items: { api_name: string }[]) => items.map((item) => item.api_name);
const LIST = '/settings/fields?module=assets&page=1&per_page=200';

async function layouts(call: Awaited<ReturnType<typeof setup>>['call']) {
  const list = await call('GET', '/settings/layouts?module=assets&page=1&per_page=10');
  const [standard, kit] = list.body.layouts as { id: string }[];
  const full = await call('GET', `/settings/layouts/${standard!.id}?module=assets`);
  return {
    standard: standard!.id,
    kit: kit!.id,
    sections: full.body.layout.sections as { id: string; name: string }[],
  };
}

describe('fields: list', () => {
  it('lists fields; module, page and per_page are required', async () => {
    const { call } = await setup();
    const all = await call('GET', LIST);
    expect(all.status).toBe(200);
    expect(all.body.fields).toHaveLength(22);
    expect(all.body.page_info.page_count).toBe(22);
    expect(all.body.fields[0]).toMatchObject({
      api_name: 'name',
      display_name: 'Name',
      is_default: true,
      is_mandatory: true,
      is_renamed: false,
      field_property: {},
    });
    const cost = all.body.fields.find((f: { api_name: string }) => f.api_name === 'cf_cost');
    expect(cost).toMatchObject({ field_type: 'currency', data_type: 'currency' });
    for (const query of ['page=1&per_page=5', 'module=assets&per_page=5', 'module=assets&page=1']) {
      expect((await call('GET', `/settings/fields?${query}`)).status).toBe(400);
    }
    const page = await call(
      'GET',
      '/settings/fields?module=assets&page=3&per_page=10&index=1&range=10',
    );
    expect(page.body.fields).toHaveLength(2);
    expect(page.body.page_info).toEqual({
      page: 3,
      per_page: 10,
      page_count: 22,
      has_next_page: false,
    });
    expect(
      (await call('GET', '/settings/fields?module=assets&page=1&per_page=10&index=x')).status,
    ).toBe(400);
  });

  it('filters by flags, layout, association, project, ids, api names and a search term', async () => {
    const { emulator, call } = await setup();
    const { kit } = await layouts(call);
    const list = async (value: object) =>
      (await call('GET', `${LIST}&${filter(value)}`)).body.fields;

    expect(apiNames(await list({ is_default: true }))).toEqual([
      'name',
      'description',
      'status',
      'owner',
      'project',
    ]);
    expect(apiNames(await list({ is_mandatory: 'true', is_default: false }))).toEqual([
      'cf_serial_number',
    ]);
    expect(await list({ is_renamed: true })).toHaveLength(0);
    expect(await list({ is_formula_based_list: false })).toHaveLength(22);

    const inKit = await list({ layout_id: kit });
    expect(inKit).toHaveLength(5 + 9);
    expect(apiNames(inKit)).not.toContain('cf_notes');
    const notInKit = await list({ layout_id: kit, is_unassociated: true });
    expect(apiNames(notInKit)).toContain('cf_notes');
    expect(inKit.length + notInKit.length).toBe(22);
    expect(await list({ is_unassociated: true })).toHaveLength(0);

    const withInfo = await list({
      fields: ['cf_serial_number'],
      is_association_info_needed: 'true',
    });
    expect(withInfo).toHaveLength(1);
    expect(withInfo[0].layouts.map((l: { name: string }) => l.name)).toEqual([
      'Standard',
      'Field Kit',
    ]);
    expect(withInfo[0].layouts[0]).toMatchObject({ section: { name: 'Details' }, position: 1 });

    const two = (await list({})).slice(5, 7).map((f: { id: string }) => f.id);
    expect((await list({ field_ids: two })).map((f: { id: string }) => f.id)).toEqual(two);
    expect(apiNames(await list({ search_term: 'EMAIL' }))).toEqual(['cf_supplier_email']);

    const project = emulator.state.db
      .prepare("SELECT id FROM work_items WHERE module = 'projects' AND portal_id = ? LIMIT 1")
      .get(Number(emulator.portals[0])) as { id: number };
    expect(await list({ project_id: String(project.id) })).toHaveLength(22);
    expect((await call('GET', `${LIST}&${filter({ project_id: '42' })}`)).status).toBe(404);
    expect((await call('GET', `${LIST}&${filter({ layout_id: '42' })}`)).status).toBe(404);
    expect((await call('GET', `${LIST}&${filter({ field_ids: 'x' })}`)).status).toBe(400);
    expect((await call('GET', `${LIST}&${filter({ is_default: 'sometimes' })}`)).status).toBe(400);
  });
});

describe('fields: create and update', () => {
  it('creates a custom field of every type with a cf_ api name, in the default layout', async () => {
    const { call } = await setup();
    const { sections } = await layouts(call);
    for (const type of CUSTOM_FIELD_TYPE_NAMES) {
      const reply = await call('PUT', '/settings/fields', {
        module: 'vendors',
        display_name: `New ${CUSTOM_FIELD_TYPES[type].label}`,
        field_type: type,
      });
      expect(reply.status).toBe(201);
      expect(reply.body.field).toMatchObject({
        field_type: type,
        data_type: CUSTOM_FIELD_TYPES[type].dataType,
        is_default: false,
      });
      expect(reply.body.field.layouts).toHaveLength(1);
      expect(reply.body.field.layouts[0].section.name).toBe('Overview');
    }
    const listed = await call('GET', '/settings/fields?module=vendors&page=1&per_page=200');
    expect(apiNames(listed.body.fields)).toContain('cf_new_single_line');
    expect(apiNames(listed.body.fields)).toContain('cf_new_time_stamp');

    const placed = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: 'Résumé  Link!',
      field_type: 'url',
      data_type: 'url',
      section_id: sections[1]!.id,
      position: { known_position: 'first' },
    });
    expect(placed.body.field.api_name).toBe('cf_resume_link');
    expect(placed.body.field.layouts[0]).toMatchObject({
      section: { name: 'Details' },
      position: 1,
    });
    const twin = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: 'Resume link?',
      field_type: 'url',
    });
    expect(twin.body.field.api_name).toBe('cf_resume_link_2');
    const symbols = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: '日本',
      field_type: 'date',
    });
    expect(symbols.body.field.api_name).toBe('cf_field');
  });

  it('limits display_name to 250, field_type and data_type to 100, and types to the custom ones', async () => {
    const { emulator, call } = await setup();
    const ok = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: 'd'.repeat(250),
      field_type: 'number',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.field.api_name).toBe(`cf_${'d'.repeat(60)}`);
    const before = snapshot(emulator);
    const refusals: [object, string][] = [
      [
        { module: 'assets', display_name: 'x'.repeat(251), field_type: 'number' },
        'display_name is longer than 250 characters.',
      ],
      [
        { module: 'assets', display_name: 'x', field_type: 't'.repeat(101) },
        'field_type is longer than 100 characters.',
      ],
      [
        { module: 'assets', display_name: 'x', field_type: 'number', data_type: 'd'.repeat(101) },
        'data_type is longer than 100 characters.',
      ],
      [
        { module: 'assets', display_name: 'x', field_type: 'number', data_type: 'double' },
        'data_type of a number field is long, not double.',
      ],
      [{ module: 'assets', display_name: 'x' }, 'field_type is required.'],
      [{ module: 'assets', field_type: 'number' }, 'display_name is required.'],
      [
        { module: 'assets', display_name: ' ', field_type: 'number' },
        'display_name must not be empty.',
      ],
      [
        { module: 'assets', display_name: 'Serial Number', field_type: 'number' },
        'display_name "Serial Number" is already used by the field cf_serial_number.',
      ],
      [
        { module: 'm'.repeat(101), display_name: 'x', field_type: 'number' },
        'module is longer than 100 characters.',
      ],
    ];
    for (const [body, message] of refusals) {
      const reply = await call('PUT', '/settings/fields', body);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(message);
    }
    for (const type of ['status', 'project', 't'.repeat(100), 'formula']) {
      const reply = await call('PUT', '/settings/fields', {
        module: 'assets',
        display_name: 'x',
        field_type: type,
      });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain('field_type must be one of single_line, multi_line');
    }
    expect(
      (
        await call('PUT', '/settings/fields', {
          module: 'assets',
          display_name: 'x',
          field_type: 'date',
          layout_id: '77',
        })
      ).status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });

  it('validates field_property and keeps it', async () => {
    const { emulator, call } = await setup();
    const property = {
      description: 'Budget in the contract currency',
      is_pii: false,
      is_encrypted: true,
      context_property: {
        default_value: '0',
        is_mandatory: true,
        has_info: true,
        permission: 'read_only',
        is_added_to_resolution: false,
        is_added_to_public_form: true,
      },
      field_type_properties: {
        currencylist_type: 'project_currency',
        currency_value: 'EUR',
        precision_value: 2,
      },
    };
    const made = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: 'Budget',
      field_type: 'currency',
      field_property: property,
    });
    expect(made.status).toBe(201);
    expect(made.body.field.field_property).toEqual(property);
    expect(made.body.field.is_mandatory).toBe(true);
    const users = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: 'Reviewers',
      field_type: 'multi_user',
      field_property: { field_type_properties: { userlist_type: 'selected_roles' } },
    });
    expect(users.status).toBe(201);

    const before = snapshot(emulator);
    const bad: [string, object][] = [
      ['number', { field_type_properties: { currencylist_type: 'field_currency' } }],
      ['currency', { field_type_properties: { currencylist_type: 'any' } }],
      ['currency', { field_type_properties: { currency_value: 'euro' } }],
      ['currency', { field_type_properties: { precision_value: 10 } }],
      ['date', { field_type_properties: { userlist_type: 'all_users' } }],
      ['user_pick_list', { field_type_properties: { userlist_type: 'everyone' } }],
      ['date', { context_property: { permission: 'admin' } }],
      ['date', { context_property: { is_mandatory: 'yes' } }],
      ['date', { context_property: { default_value: 'x'.repeat(201) } }],
      ['date', { description: 'x'.repeat(1001) }],
      ['date', { colour: 'red' }],
      ['date', { is_pii: 1 }],
    ];
    for (const [type, fieldProperty] of bad) {
      const reply = await call('PUT', '/settings/fields', {
        module: 'assets',
        display_name: 'Bad',
        field_type: type,
        field_property: fieldProperty,
      });
      expect(reply.status, JSON.stringify(fieldProperty)).toBe(400);
    }
    expect(snapshot(emulator)).toBe(before);
  });

  it('updates a field: rename (is_renamed), properties merge, move to another layout and section', async () => {
    const { emulator, call } = await setup();
    const { kit, sections } = await layouts(call);
    const fields = (await call('GET', LIST)).body.fields as { id: string; api_name: string }[];
    const notes = fields.find((f) => f.api_name === 'cf_notes')!;
    const renamed = await call('PUT', '/settings/fields', {
      module: 'assets',
      id: notes.id,
      display_name: 'Remarks',
      field_property: { description: 'Free text', context_property: { is_mandatory: true } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.field).toMatchObject({
      api_name: 'cf_notes',
      display_name: 'Remarks',
      is_renamed: true,
      is_mandatory: true,
      field_property: { description: 'Free text', context_property: { is_mandatory: true } },
    });
    const merged = await call('PUT', '/settings/fields', {
      module: 'assets',
      id: notes.id,
      field_property: { context_property: { has_info: true } },
    });
    expect(merged.body.field.field_property).toEqual({
      description: 'Free text',
      context_property: { is_mandatory: true, has_info: true },
    });
    const renamedList = await call('GET', `${LIST}&${filter({ is_renamed: true })}`);
    expect(apiNames(renamedList.body.fields)).toEqual(['cf_notes']);

    // Into the Field Kit layout (its first section by default), then to the top of Tracking.
    const added = await call('PUT', '/settings/fields', {
      module: 'assets',
      id: notes.id,
      layout_id: kit,
    });
    expect(added.body.field.layouts.map((l: { name: string }) => l.name)).toEqual([
      'Standard',
      'Field Kit',
    ]);
    expect(added.body.field.layouts[1].section.name).toBe('Overview');
    const moved = await call('PUT', '/settings/fields', {
      module: 'assets',
      id: notes.id,
      section_id: sections[2]!.id,
      position: { exact_position: 1 },
    });
    expect(moved.body.field.layouts[0]).toMatchObject({
      section: { name: 'Tracking' },
      position: 1,
    });

    // A system field can be renamed and moved, nothing more.
    const name = fields.find((f) => f.api_name === 'name')!;
    expect(
      (
        await call('PUT', '/settings/fields', {
          module: 'assets',
          id: name.id,
          display_name: 'Title',
        })
      ).body.field.is_renamed,
    ).toBe(true);
    const before = snapshot(emulator);
    const refusals: object[] = [
      { module: 'assets', id: name.id, field_property: { description: 'x' } },
      { module: 'assets', id: notes.id, field_type: 'single_line' },
      { module: 'assets', id: notes.id, data_type: 'string' },
      { module: 'assets', id: notes.id },
      { module: 'assets', id: notes.id, display_name: 'Serial number' },
      { module: 'assets', id: notes.id, position: { before_id: name.id, exact_position: 1 } },
      { module: 'assets', id: notes.id, position: { before_id: '1234' } },
    ];
    for (const body of refusals)
      expect((await call('PUT', '/settings/fields', body)).status, JSON.stringify(body)).toBe(400);
    expect(
      (await call('PUT', '/settings/fields', { module: 'assets', id: '999', display_name: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (
        await call('PUT', '/settings/fields', {
          module: 'vendors',
          id: notes.id,
          display_name: 'x',
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('PUT', '/settings/fields', { module: 'assets', id: notes.id, section_id: '5' }))
        .status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });
});

describe('fields: delete and associated layouts', () => {
  it('deletes a custom field and its values in records; system fields stay', async () => {
    const { emulator, call } = await setup();
    const fields = (await call('GET', LIST)).body.fields as { id: string; api_name: string }[];
    const serial = fields.find((f) => f.api_name === 'cf_serial_number')!;
    const status = fields.find((f) => f.api_name === 'status')!;
    const { db } = emulator.state;
    const moduleId = (
      db
        .prepare("SELECT id FROM modules WHERE portal_id = ? AND api_name = 'assets'")
        .get(Number(emulator.portals[0])) as {
        id: number;
      }
    ).id;
    const withValue = (module = moduleId) =>
      (
        db
          .prepare(
            "SELECT COUNT(*) AS n FROM entities WHERE module_id = ? AND json_type(custom, '$.cf_serial_number') IS NOT NULL",
          )
          .get(module) as { n: number }
      ).n;
    // The other portal's assets module is another module: its records keep their values.
    const otherModule = (
      db
        .prepare("SELECT id FROM modules WHERE portal_id = ? AND api_name = 'assets'")
        .get(Number(emulator.portals[1])) as {
        id: number;
      }
    ).id;
    const otherCount = withValue(otherModule);
    expect(otherCount).toBeGreaterThan(0);
    expect(withValue()).toBeGreaterThan(0);

    const before = snapshot(emulator);
    const system = await call('DELETE', `/settings/fields/${status.id}?module=assets`);
    expect(system.status).toBe(400);
    expect(system.body.message).toBe('status is a system field and cannot be deleted.');
    expect((await call('DELETE', `/settings/fields/${serial.id}`)).status).toBe(400);
    expect((await call('DELETE', `/settings/fields/${serial.id}?module=vendors`)).status).toBe(404);
    expect(snapshot(emulator)).toBe(before);

    expect((await call('DELETE', `/settings/fields/${serial.id}?module=assets`)).status).toBe(204);
    expect(withValue()).toBe(0);
    expect(withValue(otherModule)).toBe(otherCount);
    expect(apiNames((await call('GET', LIST)).body.fields)).not.toContain('cf_serial_number');
    expect((await call('DELETE', `/settings/fields/${serial.id}?module=assets`)).status).toBe(404);
    // The name is free again, and the new field starts empty.
    const again = await call('PUT', '/settings/fields', {
      module: 'assets',
      display_name: 'Serial number',
      field_type: 'single_line',
    });
    expect(again.body.field.api_name).toBe('cf_serial_number');
  });

  it('lists the layouts a field is on, with ignore and search_term', async () => {
    const { call } = await setup();
    const { standard, kit } = await layouts(call);
    const fields = (await call('GET', LIST)).body.fields as { id: string; api_name: string }[];
    const serial = fields.find((f) => f.api_name === 'cf_serial_number')!;
    const path = `/settings/fields/${serial.id}/associated-layouts?module=assets`;
    const all = await call('GET', path);
    expect(all.status).toBe(200);
    expect(all.body.layouts.map((l: { id: string }) => l.id)).toEqual([standard, kit]);
    expect(all.body.layouts[1]).toMatchObject({ name: 'Field Kit', section: { name: 'Details' } });
    expect(
      (await call('GET', `${path}&${filter({ ignore: [{ id: standard }] })}`)).body.layouts,
    ).toHaveLength(1);
    expect(
      (await call('GET', `${path}&${filter({ search_term: 'STAND' })}`)).body.layouts,
    ).toHaveLength(1);
    expect((await call('GET', `${path}&page=2&per_page=1`)).body.page_info).toEqual({
      page: 2,
      per_page: 1,
      page_count: 2,
      has_next_page: false,
    });
    expect((await call('GET', `/settings/fields/${serial.id}/associated-layouts`)).status).toBe(
      400,
    );
    expect(
      (await call('GET', `/settings/fields/123/associated-layouts?module=assets`)).status,
    ).toBe(404);
  });

  it('uses the field table scopes', async () => {
    const { emulator, call } = await setup();
    const readOnly = grantToken(emulator, { scopes: ['PMS.custom_fields.READ'] });
    expect((await call('GET', LIST, undefined, readOnly)).status).toBe(200);
    const body = { module: 'assets', display_name: 'Scoped', field_type: 'date' };
    expect((await call('PUT', '/settings/fields', body, readOnly)).status).toBe(403);
    const create = grantToken(emulator, { scopes: ['PMS.custom_fields.CREATE'] });
    const made = await call('PUT', '/settings/fields', body, create);
    expect(made.status).toBe(201);
    expect(
      (
        await call(
          'DELETE',
          `/settings/fields/${made.body.field.id}?module=assets`,
          undefined,
          create,
        )
      ).status,
    ).toBe(403);
    const remove = grantToken(emulator, { scopes: ['PMS.custom_fields.DELETE'] });
    expect(
      (
        await call(
          'DELETE',
          `/settings/fields/${made.body.field.id}?module=assets`,
          undefined,
          remove,
        )
      ).status,
    ).toBe(204);
  });
});
