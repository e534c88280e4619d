import { describe, expect, it } from 'vitest';
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
    'modules',
    'layouts',
    'sections',
    'fields',
    'layout_fields',
    'field_options',
    'entities',
  ]);

const filter = filterParam;
const names = (items: { name: string }[]) => items.map((item) => item.name);

async function layoutIds(call: Awaited<ReturnType<typeof setup>>['call']) {
  const list = await call('GET', '/settings/layouts?module=assets&page=1&per_page=10');
  const [standard, kit] = list.body.layouts as { id: string }[];
  return { standard: standard!.id, kit: kit!.id };
}

describe('layouts: reads', () => {
  it('lists layouts; module, page and per_page are required; filters arrive as strings', async () => {
    const { emulator, call } = await setup();
    const list = await call('GET', '/settings/layouts?module=assets&page=1&per_page=10');
    expect(list.status).toBe(200);
    expect(names(list.body.layouts)).toEqual(['Standard', 'Field Kit']);
    expect(list.body.layouts[0]).toMatchObject({
      type: 'public',
      is_default: true,
      module: { api_name: 'assets' },
    });
    expect(list.body.layouts[0].sections).toBeUndefined();
    expect(list.body.page_info).toEqual({
      page: 1,
      per_page: 10,
      page_count: 2,
      has_next_page: false,
    });

    for (const query of [
      'page=1&per_page=10',
      'module=assets&per_page=10',
      'module=assets&page=1',
    ]) {
      const reply = await call('GET', `/settings/layouts?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }

    const search = await call(
      'GET',
      `/settings/layouts?module=assets&page=1&per_page=10&${filter({ search_term: 'kit', is_association_info_needed: 'true' })}`,
    );
    expect(names(search.body.layouts)).toEqual(['Field Kit']);
    expect(search.body.layouts[0].association_info).toMatchObject({
      is_current_user_profile_associated: true,
    });
    const byType = await call(
      'GET',
      `/settings/layouts?module=assets&page=1&per_page=10&${filter({ search_term: 'private', search_by: 'type' })}`,
    );
    expect(names(byType.body.layouts)).toEqual(['Field Kit']);
    expect(
      (
        await call(
          'GET',
          `/settings/layouts?module=assets&page=1&per_page=10&${filter({ search_by: 'color' })}`,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          'GET',
          `/settings/layouts?module=assets&page=1&per_page=10&${filter({ is_association_info_needed: 'yes' })}`,
        )
      ).status,
    ).toBe(400);

    // A private layout is associated with the administrator profile only.
    const member = grantToken(emulator, { email: 'maya.raman@portaldesk.demo' });
    const mine = `/settings/layouts?module=assets&page=1&per_page=10&${filter({ is_current_user_profile_associated: 'true' })}`;
    expect(names((await call('GET', mine, undefined, member)).body.layouts)).toEqual(['Standard']);
    expect(names((await call('GET', mine)).body.layouts)).toEqual(['Standard', 'Field Kit']);
    const others = `/settings/layouts?module=assets&page=1&per_page=10&${filter({ is_current_user_profile_associated: 'false' })}`;
    expect(names((await call('GET', others, undefined, member)).body.layouts)).toEqual([
      'Field Kit',
    ]);
  });

  it('reads the default layout and one layout with sections; module is required', async () => {
    const { call } = await setup();
    const fallback = await call('GET', '/settings/layouts/default-layout?module=vendors');
    expect(fallback.status).toBe(200);
    expect(fallback.body.layout).toMatchObject({ name: 'Standard', is_default: true });
    expect(names(fallback.body.layout.sections)).toEqual(['Overview', 'Details', 'Tracking']);
    expect(fallback.body.layout.sections[0].fields[0]).toMatchObject({
      api_name: 'name',
      position: 1,
    });
    expect((await call('GET', '/settings/layouts/default-layout')).status).toBe(400);

    const { kit } = await layoutIds(call);
    const one = await call('GET', `/settings/layouts/${kit}?module=assets`);
    expect(one.status).toBe(200);
    expect(one.body.layout).toMatchObject({ id: kit, name: 'Field Kit', type: 'private' });
    expect((await call('GET', `/settings/layouts/${kit}`)).status).toBe(400);
    expect((await call('GET', `/settings/layouts/${kit}?module=vendors`)).status).toBe(404);
    expect((await call('GET', '/settings/layouts/abc?module=assets')).status).toBe(400);
  });

  it('lists the projects associated with a layout, or the others; is_unassociated and search_term are required', async () => {
    const { emulator, call } = await setup();
    const { standard } = await layoutIds(call);
    const path = `/settings/layouts/${standard}/associated-entities?module=assets`;
    const associated = await call('GET', `${path}&is_unassociated=false&search_term=`);
    expect(associated.status).toBe(200);
    const used = emulator.state.db
      .prepare(
        'SELECT COUNT(DISTINCT project_id) AS n FROM entities WHERE layout_id = ? AND project_id IS NOT NULL AND trashed_time IS NULL',
      )
      .get(Number(standard)) as { n: number };
    expect(used.n).toBeGreaterThan(0);
    expect(associated.body.entities).toHaveLength(used.n);
    expect(associated.body.entities[0]).toMatchObject({ type: 'project' });
    const others = await call('GET', `${path}&is_unassociated=true&search_term=`);
    expect(associated.body.entities.length + others.body.entities.length).toBe(6);

    const first = associated.body.entities[0];
    const ignored = await call(
      'GET',
      `${path}&is_unassociated=false&search_term=&${filter({ ignore: [{ id: first.id }] })}`,
    );
    expect(ignored.body.entities).toHaveLength(used.n - 1);
    const term = first.name.slice(0, 4).toUpperCase();
    const searched = await call(
      'GET',
      `${path}&is_unassociated=false&search_term=${encodeURIComponent(term)}`,
    );
    expect(searched.body.entities.map((e: { id: string }) => e.id)).toContain(first.id);

    expect((await call('GET', `${path}&search_term=`)).status).toBe(400);
    expect((await call('GET', `${path}&is_unassociated=false`)).status).toBe(400);
    expect((await call('GET', `${path}&is_unassociated=maybe&search_term=`)).status).toBe(400);
    expect(
      (
        await call(
          'GET',
          `${path}&is_unassociated=false&search_term=&filter=${encodeURIComponent('{"ignore":[{"id":"x"}]}')}`,
        )
      ).status,
    ).toBe(400);
  });
});

describe('layouts: writes', () => {
  it('creates a layout: module max 100, name max 200, type public or private', async () => {
    const { emulator, call } = await setup();
    const made = await call('POST', '/settings/layouts', {
      module: 'assets',
      name: 'N'.repeat(200),
      type: 'private',
    });
    expect(made.status).toBe(201);
    expect(made.body.layout).toMatchObject({ type: 'private', is_default: false, reference: null });
    // Without a reference: the default sections with the system fields.
    expect(names(made.body.layout.sections)).toEqual(['Overview', 'Details', 'Tracking']);
    expect(made.body.layout.sections[0].fields).toHaveLength(5);

    const before = snapshot(emulator);
    const long = await call('POST', '/settings/layouts', {
      module: 'assets',
      name: 'N'.repeat(201),
    });
    expect(long.body.message).toBe('name is longer than 200 characters.');
    const longModule = await call('POST', '/settings/layouts', {
      module: 'm'.repeat(101),
      name: 'x',
    });
    expect(longModule.status).toBe(400);
    expect(longModule.body.message).toBe('module is longer than 100 characters.');
    expect(
      (await call('POST', '/settings/layouts', { module: 'm'.repeat(100), name: 'x' })).status,
    ).toBe(404);
    expect((await call('POST', '/settings/layouts', { name: 'x' })).status).toBe(400);
    expect((await call('POST', '/settings/layouts', { module: 'assets' })).status).toBe(400);
    expect(
      (await call('POST', '/settings/layouts', { module: 'assets', name: 'x', type: 'shared' }))
        .status,
    ).toBe(400);
    expect(
      (await call('POST', '/settings/layouts', { module: 'assets', name: 'standard' })).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/settings/layouts', {
          module: 'assets',
          name: 'x',
          reference: { id: '5' },
        })
      ).status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });

  it('copies the reference layout: sections, field placements and its own options', async () => {
    const { call } = await setup();
    const { kit } = await layoutIds(call);
    await call('POST', '/settings/options', {
      module: 'assets',
      field: 'cf_category',
      layout_id: kit,
      custom_options: [{ value: 'Kit only' }],
    });
    const copy = await call('POST', '/settings/layouts', {
      module: 'assets',
      name: 'Kit copy',
      reference: { id: kit },
    });
    expect(copy.status).toBe(201);
    expect(copy.body.layout.reference).toEqual({ id: kit });
    const original = (await call('GET', `/settings/layouts/${kit}?module=assets`)).body.layout;
    const shape = (layout: { sections: { name: string; fields: { api_name: string }[] }[] }) =>
      layout.sections.map((s) => [s.name, s.fields.map((f) => f.api_name)]);
    expect(shape(copy.body.layout)).toEqual(shape(original));
    const options = await call(
      'GET',
      `/settings/options?module=assets&field=cf_category&page=1&per_page=100&index=0&range=100&${filter({ layout_id: copy.body.layout.id })}`,
    );
    expect(options.body.custom_options.map((o: { value: string }) => o.value)).toContain(
      'Kit only',
    );
  });

  it('updates a layout name, type and default', async () => {
    const { emulator, call } = await setup();
    const { standard, kit } = await layoutIds(call);
    const renamed = await call('PATCH', `/settings/layouts/${kit}`, {
      module: 'assets',
      name: 'Kit',
      type: 'public',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.layout).toMatchObject({ name: 'Kit', type: 'public' });
    const before = snapshot(emulator);
    for (const body of [
      { name: 'Kit' },
      { module: 'assets' },
      { module: 'assets', name: 'Standard' },
      { module: 'assets', name: 'x'.repeat(201) },
      { module: 'assets', type: 'open' },
      { module: 'assets', is_default: false },
    ]) {
      expect((await call('PATCH', `/settings/layouts/${kit}`, body)).status).toBe(400);
    }
    expect(snapshot(emulator)).toBe(before);
    const made = await call('PATCH', `/settings/layouts/${kit}`, {
      module: 'assets',
      is_default: true,
    });
    expect(made.body.layout.is_default).toBe(true);
    const old = await call('GET', `/settings/layouts/${standard}?module=assets`);
    expect(old.body.layout.is_default).toBe(false);
  });

  it('deletes a layout, but not the default one nor one that records use', async () => {
    const { emulator, call } = await setup();
    const { standard } = await layoutIds(call);
    const spare = (await call('POST', '/settings/layouts', { module: 'assets', name: 'Spare' }))
      .body.layout.id;
    const used = (await call('POST', '/settings/layouts', { module: 'assets', name: 'Used' })).body
      .layout.id;
    const { db } = emulator.state;
    db.prepare(
      'UPDATE entities SET layout_id = ? WHERE id = (SELECT MIN(id) FROM entities WHERE layout_id = ?)',
    ).run(Number(used), Number(standard));
    const before = snapshot(emulator);
    const main = await call('DELETE', `/settings/layouts/${standard}?module=assets`);
    expect(main.status).toBe(400);
    expect(main.body.message).toContain('default layout');
    const busy = await call('DELETE', `/settings/layouts/${used}?module=assets`);
    expect(busy.status).toBe(400);
    expect(busy.body.message).toContain('used by 1 records');
    expect((await call('DELETE', `/settings/layouts/${spare}`)).status).toBe(400);
    expect(snapshot(emulator)).toBe(before);

    expect((await call('DELETE', `/settings/layouts/${spare}?module=assets`)).status).toBe(204);
    expect((await call('GET', `/settings/layouts/${spare}?module=assets`)).status).toBe(404);
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM sections WHERE layout_id = ?').get(Number(spare)),
    ).toEqual({ n: 0 });
  });

  it('removes a field from a layout; the segment must match [a-zA-Z0-9_]+; system fields stay', async () => {
    const { emulator, call } = await setup();
    const { standard, kit } = await layoutIds(call);
    const before = snapshot(emulator);
    const bad = await call('DELETE', `/settings/layouts/${standard}/fields/cf-notes?module=assets`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('[a-zA-Z0-9_]+');
    expect(
      (
        await call(
          'DELETE',
          `/settings/layouts/${standard}/fields/${encodeURIComponent('cf notes')}?module=assets`,
        )
      ).status,
    ).toBe(400);
    const system = await call(
      'DELETE',
      `/settings/layouts/${standard}/fields/status?module=assets`,
    );
    expect(system.status).toBe(400);
    expect(system.body.message).toBe(
      'status is a system field and cannot be removed from a layout.',
    );
    // cf_notes (the second custom field) is not in the Field Kit layout.
    expect(
      (await call('DELETE', `/settings/layouts/${kit}/fields/cf_notes?module=assets`)).status,
    ).toBe(404);
    expect(
      (await call('DELETE', `/settings/layouts/${standard}/fields/cf_nothing?module=assets`))
        .status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);

    expect(
      (await call('DELETE', `/settings/layouts/${standard}/fields/cf_notes?module=assets`)).status,
    ).toBe(204);
    const layout = (await call('GET', `/settings/layouts/${standard}?module=assets`)).body.layout;
    const placed = layout.sections.flatMap((s: { fields: { api_name: string }[] }) =>
      s.fields.map((f) => f.api_name),
    );
    expect(placed).not.toContain('cf_notes');
    expect(placed).toHaveLength(21);
    // The field itself and record values stay.
    expect(
      (await call('GET', '/projects/assets/fields')).body.fields.map(
        (f: { api_name: string }) => f.api_name,
      ),
    ).toContain('cf_notes');
  });
});

describe('sections', () => {
  it('adds and updates sections: name max 100, position max 1000, placed by the position object', async () => {
    const { emulator, call } = await setup();
    const { standard } = await layoutIds(call);
    const path = `/settings/layouts/${standard}/sections`;
    const added = await call('PUT', path, {
      module: 'assets',
      name: 'S'.repeat(100),
      position: { known_position: 'first' },
    });
    expect(added.status).toBe(201);
    expect(added.body.section).toMatchObject({ name: 'S'.repeat(100), position: 1, fields: [] });
    const sections = async () =>
      names(
        (await call('GET', `/settings/layouts/${standard}?module=assets`)).body.layout.sections,
      );
    expect(await sections()).toEqual(['S'.repeat(100), 'Overview', 'Details', 'Tracking']);

    const tracking = (await call('GET', `/settings/layouts/${standard}?module=assets`)).body.layout
      .sections[3].id;
    const after = await call('PUT', path, {
      module: 'assets',
      name: 'After overview',
      position: { before_id: tracking },
    });
    expect(after.body.section.position).toBe(4);
    const exact = await call('PUT', path, {
      module: 'assets',
      name: 'Second',
      position: { exact_position: 2 },
    });
    expect(exact.body.section.position).toBe(2);
    const last = await call('PUT', path, { module: 'assets', name: 'Last' });
    expect(last.body.section.position).toBe(7);

    // Update: rename keeps the place; a position moves it.
    const renamed = await call('PUT', path, {
      module: 'assets',
      id: exact.body.section.id,
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.section).toMatchObject({ name: 'Renamed', position: 2 });
    const moved = await call('PUT', path, {
      module: 'assets',
      id: exact.body.section.id,
      name: 'Renamed',
      position: { after_id: last.body.section.id },
    });
    expect(moved.body.section.position).toBe(7);
    expect(await sections()).toEqual([
      'S'.repeat(100),
      'Overview',
      'Details',
      'After overview',
      'Tracking',
      'Last',
      'Renamed',
    ]);

    const padded = (length: number) => {
      const base = JSON.stringify({ known_position: 'last', note: '' }).length;
      return { known_position: 'last', note: 'n'.repeat(length - base) };
    };
    expect(
      (await call('PUT', path, { module: 'assets', name: 'Padded', position: padded(1000) }))
        .status,
    ).toBe(201);
    const before = snapshot(emulator);
    const refusals: [object, string][] = [
      [
        { module: 'assets', name: 'Too far', position: padded(1001) },
        'position is longer than 1000 characters.',
      ],
      [{ module: 'assets', name: 'S'.repeat(101) }, 'name is longer than 100 characters.'],
      [{ module: 'assets' }, 'name is required.'],
      [{ name: 'x' }, 'module is required.'],
      [
        { module: 'assets', name: 'overview' },
        'name "overview" is already used by another section of this layout.',
      ],
      [
        { module: 'assets', name: 'x', position: { known_position: 'middle' } },
        'position.known_position must be first or last.',
      ],
      [
        { module: 'assets', name: 'x', position: { first: 1, before_id: '1', after_id: '2' } },
        'position takes one of before_id, after_id, exact_position, known_position, not before_id and after_id.',
      ],
      [
        { module: 'assets', name: 'x', position: { before_id: '12345' } },
        'position.before_id 12345 is not one of the items it is placed among.',
      ],
      [
        { module: 'assets', name: 'x', position: { exact_position: 0 } },
        'position.exact_position must be a whole number from 1.',
      ],
    ];
    for (const [body, message] of refusals) {
      const reply = await call('PUT', path, body);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(message);
    }
    expect((await call('PUT', path, { module: 'assets', id: '123', name: 'x' })).status).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });

  it('deletes a section, moving its fields to the section before it; the last section stays', async () => {
    const { emulator, call } = await setup();
    const { standard } = await layoutIds(call);
    const layout = async () =>
      (await call('GET', `/settings/layouts/${standard}?module=assets`)).body.layout;
    const [overview, details, tracking] = (await layout()).sections;
    const moving = tracking.fields.map((f: { api_name: string }) => f.api_name);
    expect(
      (await call('DELETE', `/settings/layouts/${standard}/sections/${tracking.id}`)).status,
    ).toBe(400);
    expect(
      (await call('DELETE', `/settings/layouts/${standard}/sections/${tracking.id}?module=assets`))
        .status,
    ).toBe(204);
    const after = await layout();
    expect(names(after.sections)).toEqual(['Overview', 'Details']);
    expect(after.sections[1].fields.map((f: { api_name: string }) => f.api_name)).toEqual([
      ...details.fields.map((f: { api_name: string }) => f.api_name),
      ...moving,
    ]);
    expect(after.sections[1].fields.map((f: { position: number }) => f.position)).toEqual(
      after.sections[1].fields.map((_: unknown, i: number) => i + 1),
    );
    // The first section hands its fields to the next one.
    expect(
      (await call('DELETE', `/settings/layouts/${standard}/sections/${overview.id}?module=assets`))
        .status,
    ).toBe(204);
    expect((await layout()).sections[0].fields[0].api_name).toBe('cf_serial_number');
    const before = snapshot(emulator);
    const lastOne = await call(
      'DELETE',
      `/settings/layouts/${standard}/sections/${details.id}?module=assets`,
    );
    expect(lastOne.status).toBe(400);
    expect(lastOne.body.message).toContain('last section');
    expect(
      (await call('DELETE', `/settings/layouts/${standard}/sections/${tracking.id}?module=assets`))
        .status,
    ).toBe(404);
    expect(snapshot(emulator)).toBe(before);
  });

  it('uses the layout table scopes', async () => {
    const { emulator, call } = await setup();
    const { standard } = await layoutIds(call);
    const readOnly = grantToken(emulator, { scopes: ['PMS.custom_fields.READ'] });
    expect(
      (await call('GET', '/settings/layouts/default-layout?module=assets', undefined, readOnly))
        .status,
    ).toBe(200);
    expect(
      (await call('POST', '/settings/layouts', { module: 'assets', name: 'x' }, readOnly)).status,
    ).toBe(403);
    expect(
      (
        await call(
          'PATCH',
          `/settings/layouts/${standard}`,
          { module: 'assets', name: 'y' },
          readOnly,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(
          'PUT',
          `/settings/layouts/${standard}/sections`,
          { module: 'assets', name: 'y' },
          readOnly,
        )
      ).status,
    ).toBe(403);
    const create = grantToken(emulator, { scopes: ['PMS.custom_fields.CREATE'] });
    expect(
      (
        await call(
          'DELETE',
          `/settings/layouts/${standard}/fields/cf_notes?module=assets`,
          undefined,
          create,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(
          'PUT',
          `/settings/layouts/${standard}/sections`,
          { module: 'assets', name: 'y' },
          create,
        )
      ).status,
    ).toBe(201);
  });
});
