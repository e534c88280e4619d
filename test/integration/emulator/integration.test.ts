import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

async function setup(scopes?: string[]) {
  const emulator = await testEmulator({ records: 10 });
  const token = grantToken(emulator, scopes ? { scopes } : {});
  const portal = emulator.portals[0]!;
  const call = (method: string, path: string) =>
    api(
      emulator.dcs.us!.api,
      token,
      method,
      `/api/v3/portal/${portal}/integration-field/service${path}`,
    );
  return { emulator, call };
}

describe('integration fields', () => {
  it('lists the integrated services', async () => {
    const { call } = await setup(['PMS.custom_fields.READ']);
    const reply = await call('GET', '');
    expect(reply.status).toBe(200);
    expect(reply.body.services.map((s: { name: string }) => s.name)).toEqual(['CRM', 'Help Desk']);
    expect(reply.body.services[0]).toMatchObject({
      id: '900000000001',
      service_type: 'crm',
      module_count: 3,
    });
    expect(reply.body.page_info).toEqual({
      page: 1,
      per_page: 100,
      page_count: 2,
      has_next_page: false,
    });
    const paged = await call('GET', '?page=2&per_page=1');
    expect(paged.body.services.map((s: { name: string }) => s.name)).toEqual(['Help Desk']);
    expect((await call('GET', '?per_page=201')).status).toBe(400);
  });

  it("lists a service's modules; an unknown service is 404", async () => {
    const { call } = await setup();
    const reply = await call('GET', '/900000000002/modules');
    expect(reply.status).toBe(200);
    expect(reply.body.modules.map((m: { api_name: string }) => m.api_name)).toEqual([
      'tickets',
      'contacts',
    ]);
    expect((await call('GET', '/900000000009/modules')).status).toBe(404);
    expect((await call('GET', '/crm/modules')).status).toBe(400);
  });

  it("lists a module's fields under projects or a project id", async () => {
    const { emulator, call } = await setup();
    const deals = await call('GET', '/900000000001/projects/Deals/fields');
    expect(deals.status).toBe(200);
    expect(deals.body.fields.map((f: { api_name: string }) => f.api_name)).toEqual([
      'Deal_Name',
      'Amount',
      'Closing_Date',
      'Stage',
    ]);
    expect(deals.body.fields[1]).toEqual({
      id: '900000001022',
      api_name: 'Amount',
      display_name: 'Amount',
      field_type: 'currency',
      data_type: 'currency',
    });
    const project = emulator.state.db
      .prepare("SELECT id FROM work_items WHERE portal_id = ? AND module = 'projects' LIMIT 1")
      .get(Number(emulator.portals[0])) as { id: number };
    const byId = await call('GET', `/900000000001/${project.id}/900000000101/fields`);
    expect(byId.body.module.api_name).toBe('Leads');
    expect((await call('GET', '/900000000001/projects/leads/fields')).status).toBe(200);
    expect((await call('GET', '/900000000001/12345/Leads/fields')).status).toBe(404);
    expect((await call('GET', '/900000000001/everywhere/Leads/fields')).status).toBe(400);
    expect((await call('GET', '/900000000001/projects/Tickets/fields')).status).toBe(404);
  });

  it('needs PMS.custom_fields.READ and a portal the caller belongs to', async () => {
    const { emulator, call } = await setup(['PMS.portals.ALL']);
    expect((await call('GET', '')).status).toBe(403);
    const token = grantToken(emulator);
    const stranger = await api(
      emulator.dcs.us!.api,
      token,
      'GET',
      '/api/v3/portal/123/integration-field/service',
    );
    expect(stranger.status).toBe(404);
  });
});
