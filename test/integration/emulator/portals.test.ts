import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

/** The spec's "Portal (list item)" table, field by field. */
const PORTAL_KEYS = [
  'owner',
  'portal_name',
  'is_default_portal',
  'profile_id',
  'profile',
  'timezone',
  'portal_owner',
  'org_name',
  'zsoid',
  'id',
  'org_logo',
  'bug_plan',
  'project_plan',
].sort();
const OWNER_KEYS = [
  'zpuid',
  'full_name',
  'name',
  'first_name',
  'last_name',
  'id',
  'is_client_user',
  'email',
].sort();
/** The spec's "Portal details" table. */
const DETAILS_KEYS = [
  'owner',
  'business_details',
  'logo_url',
  'timezone',
  'name',
  'id',
  'plan_details',
  'org_name',
  'is_customdomain_enabled',
].sort();
const BUSINESS_KEYS = [
  'start_time',
  'end_time',
  'data_format',
  'time_format',
  'weekends',
  'working_days',
  'week_start_day',
  'week_start_year',
].sort();

function expectOwner(owner: Record<string, unknown>, email: string) {
  expect(Object.keys(owner).sort()).toEqual(OWNER_KEYS);
  expect(owner).toMatchObject({
    zpuid: expect.stringMatching(/^\d+$/),
    full_name: 'Alex Admin',
    name: 'Alex Admin',
    first_name: 'Alex',
    last_name: 'Admin',
    id: expect.any(Number),
    is_client_user: false,
    email,
  });
}

describe('GET /api/v3/portals', () => {
  it('returns a bare array of the caller portals in this data center, fields as in the spec', async () => {
    const emulator = await testEmulator({ dcs: ['us', 'eu'] });
    const token = grantToken(emulator);
    const reply = await api(emulator.dcs.us!.api, token, 'GET', '/api/v3/portals');
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body.map((portal: { id: string }) => portal.id)).toEqual(emulator.portals);
    const [first, second] = reply.body;
    for (const portal of reply.body) {
      expect(Object.keys(portal).sort()).toEqual(PORTAL_KEYS);
      expectOwner(portal.owner, emulator.user.email);
      expect(portal.portal_owner).toBe(portal.owner.id);
      expect(typeof portal.id).toBe('string');
      expect(typeof portal.profile_id).toBe('number');
      expect(portal.profile).toEqual({ name: 'Administrator', id: portal.profile_id });
      expect(typeof portal.zsoid).toBe('string');
      expect(portal.org_logo).toMatch(/^\//);
    }
    expect(first).toMatchObject({
      portal_name: 'northwind',
      org_name: 'Northwind Traders',
      is_default_portal: true,
      timezone: 'Asia/Kolkata',
      project_plan: 'Enterprise',
      bug_plan: 'Premium',
    });
    expect(second).toMatchObject({ portal_name: 'acme-engineering', is_default_portal: false });

    // The EU portal lives in the EU data center, with its own people.
    const euToken = grantToken(emulator, { email: 'admin.eu@portaldesk.demo' });
    const eu = await api(emulator.dcs.eu!.api, euToken, 'GET', '/api/v3/portals');
    expect(eu.status).toBe(200);
    expect(eu.body.map((portal: { portal_name: string }) => portal.portal_name)).toEqual([
      'northwind-eu',
    ]);
  });

  it('lists only portals the caller belongs to', async () => {
    const emulator = await testEmulator();
    const { db } = emulator.state;
    const member = db.prepare("SELECT zpuid, email FROM users WHERE email LIKE 'maya%'").get() as {
      zpuid: string;
      email: string;
    };
    db.prepare('DELETE FROM portal_users WHERE portal_id = ? AND zpuid = ?').run(
      Number(emulator.portals[0]),
      member.zpuid,
    );
    const token = grantToken(emulator, { email: member.email });
    const reply = await api(emulator.dcs.us!.api, token, 'GET', '/api/v3/portals');
    expect(reply.body.map((portal: { id: string }) => portal.id)).toEqual([emulator.portals[1]]);
    const hidden = await api(
      emulator.dcs.us!.api,
      token,
      'GET',
      `/api/v3/portal/${emulator.portals[0]}`,
    );
    expect(hidden.status).toBe(404);
  });

  it('accepts page and per_page (1-200) and slices the array', async () => {
    const emulator = await testEmulator();
    const token = grantToken(emulator);
    const base = emulator.dcs.us!.api;
    const second = await api(base, token, 'GET', '/api/v3/portals?page=2&per_page=1');
    expect(second.status).toBe(200);
    expect(second.body.map((portal: { id: string }) => portal.id)).toEqual([emulator.portals[1]]);
    expect((await api(base, token, 'GET', '/api/v3/portals?page=3&per_page=1')).body).toEqual([]);
    expect((await api(base, token, 'GET', '/api/v3/portals?per_page=200')).body).toHaveLength(2);
    for (const bad of ['per_page=0', 'per_page=201', 'page=0', 'page=one']) {
      const reply = await api(base, token, 'GET', `/api/v3/portals?${bad}`);
      expect(reply.status, bad).toBe(400);
      expect(reply.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
    }
  });

  it('needs PMS.portals.READ', async () => {
    const emulator = await testEmulator();
    const token = grantToken(emulator, { scopes: ['PMS.custom_fields.ALL'] });
    const reply = await api(emulator.dcs.us!.api, token, 'GET', '/api/v3/portals');
    expect(reply.status).toBe(403);
    expect(reply.body.errorCode).toBe('INVALID_OAUTHSCOPE');
    const read = grantToken(emulator, { scopes: ['PMS.portals.READ'] });
    expect((await api(emulator.dcs.us!.api, read, 'GET', '/api/v3/portals')).status).toBe(200);
  });
});

describe('GET /api/v3/portal/{portal_id}', () => {
  it('returns portal_details with the fields of the spec', async () => {
    const emulator = await testEmulator();
    const token = grantToken(emulator);
    const portalId = emulator.portals[1]!;
    const reply = await api(emulator.dcs.us!.api, token, 'GET', `/api/v3/portal/${portalId}`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['portal_details']);
    const details = reply.body.portal_details;
    expect(Object.keys(details).sort()).toEqual(DETAILS_KEYS);
    expectOwner(details.owner, emulator.user.email);
    expect(details.id).toBe(Number(portalId));
    expect(details).toMatchObject({
      name: 'acme-engineering',
      org_name: 'Acme Engineering',
      timezone: 'America/New_York',
      logo_url: '/portal/acme-engineering/logo.png',
      plan_details: { projects_service_plan: 'Enterprise', bugtracker_service_plan: 'Premium' },
      is_customdomain_enabled: false,
    });
    expect(Object.keys(details.business_details).sort()).toEqual(BUSINESS_KEYS);
    expect(details.business_details).toMatchObject({
      data_format: 'MM-dd-yyyy',
      weekends: ['Saturday', 'Sunday'],
      working_days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      week_start_day: 0,
      week_start_year: 1,
    });
  });

  it('answers 404 for unknown portals and portals of another data center, 400 for a bad id', async () => {
    const emulator = await testEmulator({ dcs: ['us', 'eu'] });
    const token = grantToken(emulator);
    const base = emulator.dcs.us!.api;
    const euPortal = emulator.state.db.prepare("SELECT id FROM portals WHERE dc = 'eu'").get() as {
      id: number;
    };
    for (const id of ['999999', String(euPortal.id)]) {
      const reply = await api(base, token, 'GET', `/api/v3/portal/${id}`);
      expect(reply.status, id).toBe(404);
      expect(reply.body.errorCode).toBe('RESOURCE_NOT_FOUND');
    }
    const bad = await api(base, token, 'GET', '/api/v3/portal/northwind');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('portal_id must be a numeric id');
  });

  it('needs PMS.portals.READ', async () => {
    const emulator = await testEmulator();
    const token = grantToken(emulator, { scopes: ['PMSFiles.files.READ'] });
    const reply = await api(
      emulator.dcs.us!.api,
      token,
      'GET',
      `/api/v3/portal/${emulator.portals[0]}`,
    );
    expect(reply.status).toBe(403);
  });
});
