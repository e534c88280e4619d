/**
 * Every endpoint of the table, called through the client against the emulator: each reply must
 * parse without a skipped item, so the domain schemas and the emulator's shapes agree.
 */
import { describe, expect, it } from 'vitest';
import { collectAll } from '../../../../src/main/api/client/paginate';
import { ENDPOINT_NAMES, type EndpointName } from '../../../../src/main/api/client/endpoints';
import { clientSession } from './session';

/** Which endpoints the tests below called (checked at the end). */
const called = new Set<EndpointName>();

async function session() {
  const s = await clientSession();
  const calls = s.client as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ENDPOINT_NAMES) {
    const original = calls[name]!;
    calls[name] = (...args: unknown[]) => {
      called.add(name);
      return original(...args);
    };
  }
  return s;
}

describe('every endpoint of the spec, through the client', () => {
  it('portals and data backup', async () => {
    const { client, portal, malformed } = await session();
    expect((await client.listPortals({})).items.length).toBeGreaterThan(0);
    expect((await client.getPortal({ portal_id: portal })).id).toBe(portal);
    const scheduled = await client.scheduleBackup({
      portal_id: portal,
      body: { access_code: 'correct horse battery', attachment_needed: true },
    });
    expect(scheduled).toMatchObject({ is_reused: false, portal_export: { status: 'in_progress' } });
    const status = await client.getBackupStatus({
      portal_id: portal,
      export_id: scheduled.portal_export.id,
    });
    expect(status.id).toBe(scheduled.portal_export.id);
    const history = await client.listBackupHistory({ portal_id: portal });
    expect(history.items.map((item) => item.id)).toContain(scheduled.portal_export.id);
    expect(malformed).toEqual([]);
  });

  it('recycle bin', async () => {
    const { client, portal, emulator, malformed } = await session();
    const tasks = emulator.state.db
      .prepare(
        `SELECT w.id FROM work_items w JOIN work_items p ON p.id = w.project_id
         WHERE w.portal_id = ? AND w.module = 'tasks' AND w.trashed_time IS NULL
           AND p.trashed_time IS NULL ORDER BY w.id LIMIT 2`,
      )
      .all(Number(portal))
      .map((row) => String((row as { id: number }).id));
    expect(tasks).toHaveLength(2);
    const trashed = await client.trashItems({
      portal_id: portal,
      body: { module: 'tasks', items: tasks },
    });
    expect(trashed.items.map((item) => item.id).sort()).toEqual([...tasks].sort());
    const bin = await collectAll(client.listBin, {
      portal_id: portal,
      query: { sort_by: 'asc(name)', filter: { module: 'tasks' } },
    });
    expect(bin.map((item) => item.id)).toEqual(expect.arrayContaining(tasks));
    const restored = await client.restoreFromBin({
      portal_id: portal,
      body: [{ module: 'tasks', items: [tasks[0]!] }],
    });
    expect(restored.restored).toEqual([{ module: 'tasks', items: [tasks[0]] }]);
    const deleted = await client.deleteFromBin({
      portal_id: portal,
      body: [{ module: 'tasks', items: [tasks[1]!] }],
    });
    expect(deleted.deleted).toEqual([{ module: 'tasks', items: [tasks[1]] }]);
    await client.trashItems({ portal_id: portal, body: { module: 'tasks', items: [tasks[0]!] } });
    const emptied = await client.emptyBin({ portal_id: portal });
    expect(emptied.deleted.flatMap((group) => group.items)).toContain(tasks[0]);
    expect((await client.listBin({ portal_id: portal })).pageInfo.page_count).toBe(0);
    expect(malformed).toEqual([]);
  });

  it('module settings', async () => {
    const { client, portal, malformed } = await session();
    const modules = await collectAll(client.listModules, { portal_id: portal }, { perPage: 3 });
    expect(modules.map((m) => m.api_name)).toContain('assets');
    const assets = await client.getModule({ portal_id: portal, module_api_name: 'assets' });
    expect(assets.is_default).toBe(false);
    const fields = await client.listModuleFields({
      portal_id: portal,
      scope_path: 'projects',
      module_api_name: 'assets',
    });
    expect(fields.items.map((f) => f.api_name)).toContain('cf_serial_number');
    const configuration = await client.getFieldsConfiguration({
      portal_id: portal,
      query: { module: 'assets' },
    });
    expect(configuration.layouts[0]!.sections!.length).toBeGreaterThan(0);
    expect(configuration.statuses.length).toBeGreaterThan(0);

    const created = await client.createModule({
      portal_id: portal,
      body: { singular_name: 'Gadget', plural_name: 'Gadgets', is_overview_needed: true },
    });
    const module = { portal_id: portal, module_api_name: created.api_name };
    const changed = await client.updateModule({ ...module, body: { icon_class: 'icon-gadget' } });
    expect(changed.icon_class).toBe('icon-gadget');
    expect((await client.deactivateModule(module)).is_active).toBe(false);
    expect((await client.activateModule(module)).is_active).toBe(true);
    await client.trashModule(module);
    expect((await client.recoverModule(module)).is_trashed).toBe(false);
    await client.trashModule(module);
    await client.deleteTrashedModule(module);
    await expect(client.getModule(module)).rejects.toMatchObject({ status: 404 });
    expect(malformed).toEqual([]);
  });

  it('layouts and sections', async () => {
    const { client, portal, malformed } = await session();
    const query = { module: 'assets' };
    const layouts = await collectAll(client.listLayouts, {
      portal_id: portal,
      query: { ...query, filter: { is_association_info_needed: 'true' } },
    });
    expect(layouts.length).toBeGreaterThan(0);
    const standard = await client.getDefaultLayout({ portal_id: portal, query });
    expect(standard.is_default).toBe(true);
    expect(
      (await client.getLayout({ portal_id: portal, layout_id: standard.id, query })).name,
    ).toBe(standard.name);
    const associated = await client.listLayoutAssociatedEntities({
      portal_id: portal,
      layout_id: standard.id,
      query: { ...query, is_unassociated: false, search_term: '' },
    });
    expect(associated.pageInfo.page).toBe(1);

    const copy = await client.createLayout({
      portal_id: portal,
      body: {
        module: 'assets',
        name: 'Client test layout',
        type: 'private',
        reference: { id: standard.id },
      },
    });
    const layout = { portal_id: portal, layout_id: copy.id };
    const renamed = await client.updateLayout({
      ...layout,
      body: { module: 'assets', name: 'Kit' },
    });
    expect(renamed.name).toBe('Kit');
    const section = await client.putSection({
      ...layout,
      body: { module: 'assets', name: 'Extras', position: { known_position: 'first' } },
    });
    expect(section.position).toBe(1);
    const again = await client.putSection({
      ...layout,
      body: { module: 'assets', id: section.id, name: 'More' },
    });
    expect(again.name).toBe('More');
    await client.deleteSection({ ...layout, section_id: section.id, query });
    await client.removeLayoutField({ ...layout, field_api_name: 'cf_notes', query });
    const after = await client.getLayout({ ...layout, query });
    const placed = after.sections!.flatMap((s) => s.fields.map((f) => f.api_name));
    expect(placed).not.toContain('cf_notes');
    await client.deleteLayout({ ...layout, query });
    expect(malformed).toEqual([]);
  });

  it('fields and options', async () => {
    const { client, portal, malformed } = await session();
    const query = { module: 'assets' };
    const fields = await collectAll(client.listFields, {
      portal_id: portal,
      query: { ...query, filter: { is_association_info_needed: true } },
    });
    expect(fields.length).toBeGreaterThan(10);
    const category = fields.find((field) => field.api_name === 'cf_category')!;
    const placements = await client.listFieldAssociatedLayouts({
      portal_id: portal,
      field_id: category.id,
      query,
    });
    expect(placements.items.length).toBeGreaterThan(0);
    const options = await client.listFieldOptions({
      portal_id: portal,
      query: { ...query, field: 'cf_category' },
    });
    expect(options.options.custom_options.map((o) => o.value)).toContain('Hardware');
    const statuses = await client.listFieldOptions({
      portal_id: portal,
      query: { ...query, field: 'status' },
    });
    expect(statuses.options.statuses.length).toBeGreaterThan(0);

    const field = await client.putField({
      portal_id: portal,
      body: { module: 'assets', display_name: 'Colour', field_type: 'pick_list' },
    });
    expect(field.field_type).toBe('pick_list');
    const added = await client.createFieldOptions({
      portal_id: portal,
      body: {
        module: 'assets',
        field: field.id,
        custom_options: [{ value: 'Red' }, { value: 'Blue' }],
      },
    });
    const red = added.options.custom_options.find((o) => o.value === 'Red')!;
    const updated = await client.updateFieldOptions({
      portal_id: portal,
      body: {
        module: 'assets',
        field: field.id,
        custom_options: [{ id: red.id, value: 'Crimson' }],
      },
    });
    expect(updated.options.custom_options.map((o) => o.value)).toContain('Crimson');
    await client.deleteFieldOptions({
      portal_id: portal,
      body: { module: 'assets', field: field.id, custom_options: [{ id: red.id }] },
    });
    await client.deleteField({ portal_id: portal, field_id: field.id, query });
    expect(malformed).toEqual([]);
  });

  it('integration fields', async () => {
    const { client, portal, malformed } = await session();
    const services = await client.listIntegrationServices({ portal_id: portal });
    const crm = services.items[0]!;
    const modules = await client.listIntegrationModules({ portal_id: portal, service_id: crm.id });
    const fields = await client.listIntegrationFields({
      portal_id: portal,
      service_id: crm.id,
      scope_path: 'projects',
      module_id: modules.items[0]!.api_name,
    });
    expect(fields.items.length).toBeGreaterThan(0);
    expect(malformed).toEqual([]);
  });

  it('records and comments', async () => {
    const { client, records, malformed } = await session();
    const page = await client.listEntities({ ...records, query: { per_page: 200 } });
    expect(page.skipped).toEqual([]);
    const record = { ...records, entity_id: page.items[0]!.id };
    await client.getEntity(record);
    await client.countEntities(records);
    await client.listStatusTimeline(record);
    const created = await client.createEntity({
      ...records,
      body: { name: 'Tour', cf_serial_number: 'T-1' },
    });
    const mine = { ...records, entity_id: created.id };
    await client.updateEntity({ ...mine, body: { description: 'seen' } });
    await client.trashEntity(mine);
    await client.restoreEntity(mine);
    await client.trashEntity(mine);
    await client.deleteEntity(mine);
    const comment = await client.createComment({ ...record, body: { content: 'tour' } });
    const commentRef = { ...record, comment_id: comment.id };
    await client.listComments(record);
    await client.getComment(commentRef);
    await client.updateComment({ ...commentRef, body: { content: 'tour 2' } });
    await client.countComments(record);
    await client.deleteComment(commentRef);
    expect(malformed).toEqual([]);
  });

  it('left no endpoint uncalled', () => {
    expect(ENDPOINT_NAMES.filter((name) => !called.has(name))).toEqual([]);
  });
});
