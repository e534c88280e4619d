import { describe, expect, it } from 'vitest';
import { Entity, ENTITY_FIXED_FIELDS } from '@portaldesk/portal-api/domain/entity';
import { EntityCreate } from '@portaldesk/portal-api/domain/entityInput';
import { parseEach } from '@portaldesk/portal-api/domain/parseEach';
import { Portal } from '@portaldesk/portal-api/domain/portal';
import { PortalDetails } from '@portaldesk/portal-api/domain/portalDetails';
import { PageInfo } from '@portaldesk/portal-api/domain/pageInfo';
import { Id } from '@portaldesk/portal-api/domain/refs';
import { entityJson } from './fakes';

describe('records', () => {
  it('split into fixed fields and custom fields by api_name', () => {
    const record = Entity.parse(
      entityJson('1000000000001', { cf_tags: ['Critical'], cf_cost: { amount: 5 } }),
    );
    expect(record).toMatchObject({
      id: '1000000000001',
      status: { id: '11', name: 'Open', is_closed_type: false },
      layout: { id: '21' },
      project: null,
      trashed_time: null,
    });
    expect(record.custom).toEqual({
      cf_serial_number: 'SN-1000000000001',
      cf_tags: ['Critical'],
      cf_cost: { amount: 5 },
    });
    for (const key of Object.keys(record.custom)) expect(ENTITY_FIXED_FIELDS.has(key)).toBe(false);
  });

  it('fill what the server may leave out, and refuse what the mirror cannot do without', () => {
    const minimal = Entity.parse({
      id: 7,
      name: 'n',
      status: { id: '1' },
      layout: { id: '2' },
      last_updated_time: '2024-05-02T09:30:00+05:30',
    });
    expect(minimal).toMatchObject({
      id: '7',
      description: '',
      owner: null,
      is_closed: false,
      created_time: null,
      custom: {},
    });
    for (const broken of [
      { ...entityJson('1'), last_updated_time: undefined },
      { ...entityJson('1'), last_updated_time: 'yesterday' },
      { ...entityJson('1'), status: null },
      { ...entityJson('1'), id: 'abc' },
      { ...entityJson('1'), is_closed: 'no' },
    ]) {
      expect(Entity.safeParse(broken).success, JSON.stringify(broken)).toBe(false);
    }
  });

  it('accept bodies with custom fields but check the fixed ones against the spec limits', () => {
    expect(EntityCreate.safeParse({ name: 'ok', cf_notes: 'x', cf_tags: ['a'] }).success).toBe(
      true,
    );
    expect(EntityCreate.safeParse({ name: 'x'.repeat(201) }).success).toBe(false);
    expect(EntityCreate.safeParse({ description: 'no name' }).success).toBe(false);
  });
});

describe('parseEach', () => {
  it('keeps good items, and names the index, id and problem of each bad one', () => {
    const result = parseEach(Portal, [
      { id: '1', portal_name: 'One', new_field: true },
      { id: 2, portal_name: 42 },
      'not an object',
      { id: '3', portal_name: 'Three', owner: null, timezone: 'Europe/Paris' },
    ]);
    expect(result.items.map((p) => p.id)).toEqual(['1', '3']);
    expect(result.items[0]).toMatchObject({ new_field: true, owner: null, timezone: null });
    expect(result.skipped).toEqual([
      {
        index: 1,
        id: '2',
        problems: ['portal_name: Invalid input: expected string, received number'],
      },
      { index: 2, id: null, problems: [expect.stringContaining('expected object')] },
    ]);
  });
});

describe('portals and pages', () => {
  it('keep ids as strings whether the server sends strings or integers', () => {
    expect(Id.parse(1000000000001)).toBe('1000000000001');
    expect(Id.parse('90071992547409930')).toBe('90071992547409930');
    expect(
      PortalDetails.parse({ id: 5, name: 'p', business_details: { week_start_day: 1 } }),
    ).toMatchObject({
      id: '5',
      business_details: { week_start_day: 1 },
      plan_details: null,
    });
  });

  it('read page_count as the total of records and require has_next_page', () => {
    expect(
      PageInfo.parse({ page: 2, per_page: 200, page_count: 450, has_next_page: true }),
    ).toEqual({
      page: 2,
      per_page: 200,
      page_count: 450,
      has_next_page: true,
    });
    expect(PageInfo.safeParse({ page: 1, per_page: 200, page_count: 3 }).success).toBe(false);
  });
});
