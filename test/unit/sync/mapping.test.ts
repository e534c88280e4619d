import { describe, expect, it } from 'vitest';
import { Comment } from '@portaldesk/portal-api/domain/comment';
import { Entity } from '@portaldesk/portal-api/domain/entity';
import { FieldsConfiguration } from '@portaldesk/portal-api/domain/fieldsConfiguration';
import { CustomOption, RoleOption, UserOption } from '@portaldesk/portal-api/domain/fieldOption';
import { Module } from '@portaldesk/portal-api/domain/module';
import { Portal } from '@portaldesk/portal-api/domain/portal';
import { PortalDetails } from '@portaldesk/portal-api/domain/portalDetails';
import { mapComment, UNKNOWN_COMMENT_TIME } from '../../../src/main/sync/mapComment';
import { mapFieldOptions } from '../../../src/main/sync/mapFieldOptions';
import { mapFieldsConfiguration } from '../../../src/main/sync/mapFieldsConfiguration';
import { hasRecords, mapModule } from '../../../src/main/sync/mapModule';
import { FALLBACK_TIME_ZONE, mapPortal } from '../../../src/main/sync/mapPortal';
import { mapRecord } from '../../../src/main/sync/mapRecord';
import { MentionedUsers } from '../../../src/main/sync/mentionedUsers';

const owner = {
  zpuid: '4001',
  full_name: 'Alex Admin',
  name: 'Alex',
  first_name: 'Alex',
  last_name: 'Admin',
  id: 77,
  is_client_user: false,
  email: 'admin@portaldesk.demo',
};

const portalItem = Portal.parse({
  id: '1000000000001',
  portal_name: 'northwind',
  owner,
  is_default_portal: true,
  timezone: 'Asia/Kolkata',
  org_name: 'Northwind Traders',
  zsoid: 'z1',
});

const details = PortalDetails.parse({
  id: 1000000000001,
  name: 'northwind',
  owner,
  timezone: 'Asia/Kolkata',
  org_name: 'Northwind Traders Ltd',
  business_details: { week_start_day: 1, working_days: ['Monday'] },
});

/** A record as the emulator lists it: fixed members, then custom fields by api_name. */
const recordJson = {
  id: '1000000000500',
  name: 'Dell laptop #1',
  description: 'Checked.',
  status: { id: '2001', name: 'Open', color: '#2a64d6', is_closed_type: false },
  layout: { id: '3001', name: 'Standard' },
  project: { id: '5001', name: 'ERP Migration' },
  owner: { zpuid: '4002', name: 'Maya Raman', email: 'maya@portaldesk.demo' },
  is_closed: false,
  is_external: true,
  created_time: '2025-01-02T03:04:05.000Z',
  last_updated_time: '2026-03-01T10:00:00.000Z',
  trashed_time: null,
  cf_serial_number: 'SN-1',
  cf_tags: ['Critical', 'Leased'],
  cf_custodian: { zpuid: '4003', name: 'Jonas Weber' },
  cf_watchers: [
    { zpuid: '4002', name: null },
    { zpuid: 4004, name: 'Aisha Khan' },
  ],
  cf_cost: { currency_code: 'USD', formatted_amount: '$12.00', amount: 12 },
  cf_notes: null,
};

describe('mapping API payloads to mirror inputs', () => {
  it('maps a portal from its list item and details, the details winning', () => {
    const mapped = mapPortal(portalItem, details, { accountId: 'acc-1', dc: 'eu' });
    expect(mapped).toMatchObject({
      id: '1000000000001',
      accountId: 'acc-1',
      dc: 'eu',
      name: 'northwind',
      orgName: 'Northwind Traders Ltd',
      timeZone: 'Asia/Kolkata',
      weekStartDay: 1,
      isDefault: true,
    });
    expect(mapped.details).toMatchObject({
      list: { zsoid: 'z1' },
      portal_details: { id: '1000000000001' },
    });

    const bare = Portal.parse({ id: '9', portal_name: 'bare' });
    expect(mapPortal(bare, null, { accountId: 'a', dc: 'us' })).toMatchObject({
      name: 'bare',
      orgName: null,
      timeZone: FALLBACK_TIME_ZONE,
      weekStartDay: null,
      isDefault: false,
    });
  });

  it('maps a module, keeping unmapped members as details, and tells which have records', () => {
    const custom = Module.parse({
      id: '6001',
      api_name: 'assets',
      singular_name: 'Asset',
      plural_name: 'Assets',
      icon_class: 'icon-box',
      is_default: false,
      is_active: false,
      projects: [{ project: { id: '5001' }, is_selected: true }],
      module_property: { default_layout_type: 'public' },
    });
    expect(mapModule(custom)).toMatchObject({
      id: '6001',
      apiName: 'assets',
      singularName: 'Asset',
      pluralName: 'Assets',
      iconClass: 'icon-box',
      isActive: false,
      isDefault: false,
      details: {
        module_property: { default_layout_type: 'public' },
        projects: [{ is_selected: true }],
      },
    });
    expect(mapModule(custom)?.details).not.toHaveProperty('api_name');
    expect(hasRecords(custom)).toBe(true);
    const builtIn = Module.parse({ ...custom, api_name: 'tasks', is_default: true });
    expect(hasRecords(builtIn)).toBe(false);
    expect(mapModule(Module.parse({ ...custom, id: null }))).toBeNull();
  });

  it('maps a fields configuration: fields, layouts, sections with placements, statuses', () => {
    const config = FieldsConfiguration.parse({
      module: { id: '6001', api_name: 'assets' },
      fields: [
        {
          id: '7001',
          api_name: 'name',
          display_name: 'Name',
          field_type: 'single_line',
          data_type: 'string',
          is_default: true,
          is_mandatory: true,
        },
        {
          id: '7002',
          api_name: 'cf_tags',
          display_name: 'Tags',
          field_type: 'multi_select',
          field_property: { is_pii: false },
        },
      ],
      layouts: [
        {
          id: '3001',
          name: 'Standard',
          type: 'public',
          is_default: true,
          reference: null,
          sections: [
            {
              id: '8001',
              name: 'Overview',
              position: 1,
              fields: [{ id: '7001', api_name: 'name', position: 1 }],
            },
            // A placement of a field the module does not list is left out.
            {
              id: '8002',
              name: 'Details',
              fields: [
                { id: '7002', api_name: 'cf_tags' },
                { id: '7999', api_name: 'cf_gone' },
              ],
            },
          ],
        },
        { id: '3002', name: 'Private', type: null, reference: { id: '3001' } },
      ],
      statuses: [
        {
          id: '2001',
          name: 'Open',
          color: '#2a64d6',
          is_default: true,
          transitions: [{ id: '2002' }],
        },
        { id: '2002', name: 'Closed', is_closed_type: true, position: 5 },
      ],
    });
    const mapped = mapFieldsConfiguration(config);
    expect(mapped.fields).toEqual([
      expect.objectContaining({
        id: '7001',
        apiName: 'name',
        dataType: 'string',
        isDefault: true,
        isMandatory: true,
      }),
      // No data_type: the field type stands in for it.
      expect.objectContaining({
        id: '7002',
        dataType: 'multi_select',
        fieldProperty: { is_pii: false },
      }),
    ]);
    expect(mapped.layouts).toEqual([
      {
        id: '3001',
        name: 'Standard',
        type: 'public',
        isDefault: true,
        referenceId: null,
        createdTime: null,
      },
      {
        id: '3002',
        name: 'Private',
        type: 'public',
        isDefault: false,
        referenceId: '3001',
        createdTime: null,
      },
    ]);
    expect(mapped.sections.get('3001')).toEqual([
      { id: '8001', name: 'Overview', position: 1, fields: [{ fieldId: '7001', position: 1 }] },
      { id: '8002', name: 'Details', position: 2, fields: [{ fieldId: '7002', position: 1 }] },
    ]);
    expect(mapped.sections.get('3002')).toEqual([]);
    expect(mapped.statuses).toEqual([
      {
        id: '2001',
        name: 'Open',
        color: '#2a64d6',
        isClosedType: false,
        isDefault: true,
        position: 1,
        transitions: ['2002'],
      },
      {
        id: '2002',
        name: 'Closed',
        color: null,
        isClosedType: true,
        isDefault: false,
        position: 5,
        transitions: [],
      },
    ]);
  });

  it('maps option lists to rows by kind, in order', () => {
    const rows = mapFieldOptions({
      custom_options: [
        CustomOption.parse({ id: '9001', value: 'Hardware', position: 1 }),
        CustomOption.parse({ id: '9002', value: 'Network', layout: { id: '3002' } }),
      ],
      users: [UserOption.parse({ zpuid: '4002', name: 'Maya Raman', email: 'maya@x' })],
      roles: [RoleOption.parse({ id: '1', name: 'Administrator' })],
      statuses: [],
    });
    expect(rows).toEqual([
      { kind: 'custom_option', valueId: '9001', value: 'Hardware', layoutId: null, position: 1 },
      { kind: 'custom_option', valueId: '9002', value: 'Network', layoutId: '3002', position: 1 },
      { kind: 'user', valueId: '4002', value: 'Maya Raman', layoutId: null, position: 0 },
      { kind: 'role', valueId: '1', value: 'Administrator', layoutId: null, position: 0 },
    ]);
  });

  it('maps a record: fixed fields to columns, every other member to custom as sent', () => {
    const mapped = mapRecord('p1', '6001', Entity.parse(recordJson));
    expect(mapped).toEqual({
      portalId: 'p1',
      moduleId: '6001',
      id: '1000000000500',
      name: 'Dell laptop #1',
      description: 'Checked.',
      statusId: '2001',
      layoutId: '3001',
      projectId: '5001',
      projectName: 'ERP Migration',
      ownerZpuid: '4002',
      isClosed: false,
      isExternal: true,
      createdTime: '2025-01-02T03:04:05.000Z',
      lastUpdatedTime: '2026-03-01T10:00:00.000Z',
      trashedTime: null,
      custom: {
        cf_serial_number: 'SN-1',
        cf_tags: ['Critical', 'Leased'],
        cf_custodian: { zpuid: '4003', name: 'Jonas Weber' },
        cf_watchers: [
          { zpuid: '4002', name: null },
          { zpuid: 4004, name: 'Aisha Khan' },
        ],
        cf_cost: { currency_code: 'USD', formatted_amount: '$12.00', amount: 12 },
        cf_notes: null,
      },
    });
    const sparse = mapRecord(
      'p1',
      '6001',
      Entity.parse({
        ...recordJson,
        project: null,
        owner: null,
        created_time: null,
        description: null,
        trashed_time: '2026-03-02T00:00:00.000Z',
      }),
    );
    expect(sparse).toMatchObject({
      projectId: null,
      projectName: null,
      ownerZpuid: null,
      description: '',
      createdTime: '2026-03-01T10:00:00.000Z',
      trashedTime: '2026-03-02T00:00:00.000Z',
    });
  });

  it('maps a comment, falling back on the times it has', () => {
    const comment = Comment.parse({
      id: '11',
      content: 'Looks good',
      attachments: [{ attachment_id: '12' }],
      created_by: { zpuid: '4002', name: 'Maya Raman' },
      created_time: '2026-01-01T00:00:00.000Z',
      last_updated_time: '2026-01-02T00:00:00.000Z',
    });
    expect(mapComment(comment)).toEqual({
      id: '11',
      content: 'Looks good',
      attachmentIds: ['12'],
      createdBy: '4002',
      createdTime: '2026-01-01T00:00:00.000Z',
      lastUpdatedTime: '2026-01-02T00:00:00.000Z',
    });
    expect(mapComment(Comment.parse({ id: '13', content: 'x' }))).toMatchObject({
      createdBy: null,
      createdTime: UNKNOWN_COMMENT_TIME,
      lastUpdatedTime: UNKNOWN_COMMENT_TIME,
    });
  });

  it('gathers the people records, comments, options and portal owners mention, merging facts', () => {
    const users = new MentionedUsers();
    users.addPortalOwner(portalItem.owner);
    users.addRecords([Entity.parse(recordJson)]);
    users.addComments([
      Comment.parse({ id: '1', content: 'x', created_by: { zpuid: '4005', name: 'Lucas Moreau' } }),
    ]);
    users.addOptions({
      custom_options: [],
      users: [UserOption.parse({ zpuid: '4003', email: 'jonas@portaldesk.demo' })],
      roles: [],
      statuses: [],
    });
    const byId = Object.fromEntries(users.list().map((user) => [user.zpuid, user]));
    expect(Object.keys(byId).sort()).toEqual(['4001', '4002', '4003', '4004', '4005']);
    expect(byId['4001']).toEqual({
      zpuid: '4001',
      name: 'Alex Admin',
      email: 'admin@portaldesk.demo',
    });
    // The owner's name and email are not erased by the watcher entry that has neither.
    expect(byId['4002']).toEqual({
      zpuid: '4002',
      name: 'Maya Raman',
      email: 'maya@portaldesk.demo',
    });
    // The custodian's name from the record and email from the options.
    expect(byId['4003']).toEqual({
      zpuid: '4003',
      name: 'Jonas Weber',
      email: 'jonas@portaldesk.demo',
    });
    expect(byId['4004']).toEqual({ zpuid: '4004', name: 'Aisha Khan', email: null });
  });
});
