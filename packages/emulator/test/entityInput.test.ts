import { describe, expect, it } from 'vitest';
import { ApiError } from '@portaldesk/emulator/http/apiError';
import {
  planEntity,
  type PlanContext,
  type StoredEntity,
} from '@portaldesk/emulator/records/entityInput';
import type {
  FieldMeta,
  ModuleMeta,
  PortalMeta,
  StatusMeta,
} from '@portaldesk/emulator/records/recordMeta';
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';

function fieldMeta(
  apiName: string,
  type: CustomFieldType,
  extra: Partial<FieldMeta> = {},
): FieldMeta {
  return {
    id: apiName.length,
    apiName,
    type,
    mandatory: false,
    currencyCode: 'USD',
    precision: 2,
    userList: 'all_users',
    options: [],
    users: [],
    roles: [],
    optionNames: new Map(),
    ...extra,
  };
}

const serial = fieldMeta('cf_serial', 'single_line', { mandatory: true });
const tags = fieldMeta('cf_tags', 'multi_select', {
  options: [
    { id: '51', value: 'Red', layoutId: null },
    { id: '52', value: 'Blue', layoutId: 2 },
  ],
});
const owner = fieldMeta('cf_owner', 'user_pick_list', {
  userList: 'selected_users',
  users: [{ id: '61', value: 'u1', layoutId: null }],
});
const note = fieldMeta('cf_note', 'multi_line');

const status = (id: number, name: string, closed: boolean, extra: Partial<StatusMeta> = {}) =>
  [
    id,
    { id, name, color: '#000', closed, layoutId: null, isDefault: false, position: id, ...extra },
  ] as const;

const MODULE: ModuleMeta = {
  id: 1,
  apiName: 'assets',
  active: true,
  fields: new Map([serial, tags, owner, note].map((f) => [f.apiName, f])),
  layouts: new Map([
    [
      1,
      {
        id: 1,
        name: 'Standard',
        fields: [serial, tags, owner],
        fieldNames: new Set(['cf_serial', 'cf_tags', 'cf_owner']),
      },
    ],
    [2, { id: 2, name: 'Kit', fields: [tags, note], fieldNames: new Set(['cf_tags', 'cf_note']) }],
  ]),
  defaultLayoutId: 1,
  statuses: new Map([
    status(10, 'Open', false, { isDefault: true }),
    status(11, 'Review', false),
    status(12, 'Done', true),
    status(13, 'Kit only', false, { layoutId: 2 }),
  ]),
  transitions: new Map([
    [10, new Set([11])],
    [11, new Set([10, 12])],
    [12, new Set([10])],
  ]),
};

const PORTAL: PortalMeta = {
  id: 7,
  timeZone: 'UTC',
  weekStartDay: 1,
  users: new Map(
    (['u1', 'u2', 'gone'] as const).map((zpuid) => [
      zpuid,
      {
        zpuid,
        name: zpuid,
        email: `${zpuid}@x.test`,
        status: zpuid === 'gone' ? 'deleted' : 'active',
        role: 'user',
      },
    ]),
  ),
  members: new Map([
    ['u1', 'accepted'],
    ['u2', 'accepted'],
    ['gone', 'accepted'],
  ]),
  projects: new Map([
    [100, { name: 'P', trashed: false }],
    [101, { name: 'Old', trashed: true }],
  ]),
  filterUsers: {},
};

const context: PlanContext = { module: MODULE, portal: PORTAL, scopeProjectId: null };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errorCode).toBe('INVALID_PARAMETER_VALUE');
    return (error as ApiError).message;
  }
  throw new Error('accepted');
}

const stored: StoredEntity = {
  name: 'A',
  description: '',
  layoutId: 1,
  statusId: 10,
  projectId: null,
  isExternal: false,
  custom: { cf_serial: 'S1', cf_tags: ['51'] },
};

describe('planEntity on create', () => {
  it('fills defaults: default layout, its default status, no project', () => {
    const plan = planEntity({ name: 'Laptop', cf_serial: 'X1' }, context);
    expect(plan).toMatchObject({
      name: 'Laptop',
      description: '',
      layoutId: 1,
      statusId: 10,
      projectId: null,
      isClosed: false,
      isExternal: false,
      custom: { cf_serial: 'X1' },
      statusChanged: true,
    });
  });

  it('needs a name of at most 200 characters', () => {
    expect(refusal(() => planEntity({ cf_serial: 'X' }, context))).toBe('name is required.');
    expect(refusal(() => planEntity({ name: ' ', cf_serial: 'X' }, context))).toBe(
      'name must not be empty.',
    );
    expect(planEntity({ name: 'n'.repeat(200), cf_serial: 'X' }, context).name).toHaveLength(200);
    expect(refusal(() => planEntity({ name: 'n'.repeat(201), cf_serial: 'X' }, context))).toBe(
      'name is longer than 200 characters.',
    );
  });

  it('limits the description to 80000 characters', () => {
    const base = { name: 'A', cf_serial: 'X' };
    expect(
      planEntity({ ...base, description: 'd'.repeat(80_000) }, context).description,
    ).toHaveLength(80_000);
    expect(refusal(() => planEntity({ ...base, description: 'd'.repeat(80_001) }, context))).toBe(
      'description is longer than 80000 characters.',
    );
  });

  it('requires the mandatory fields of the chosen layout only', () => {
    expect(refusal(() => planEntity({ name: 'A' }, context))).toBe(
      'cf_serial is mandatory on layout "Standard".',
    );
    expect(planEntity({ name: 'A', layout: { id: '2' } }, context).layoutId).toBe(2);
  });

  it('refuses unknown, read-only and off-layout keys', () => {
    expect(
      refusal(() => planEntity({ name: 'A', cf_serial: 'X', colour: 'red' }, context)),
    ).toMatch(/^colour is not a field of module assets; fields: name, description, status/);
    expect(refusal(() => planEntity({ name: 'A', cf_serial: 'X', id: '1' }, context))).toBe(
      'id is read-only.',
    );
    expect(refusal(() => planEntity({ name: 'A', cf_serial: 'X', cf_note: 'n' }, context))).toBe(
      'cf_note is not a field of layout "Standard".',
    );
  });

  it('checks status, layout and project references', () => {
    const base = { name: 'A', cf_serial: 'X' };
    expect(planEntity({ ...base, status: { id: 12 } }, context)).toMatchObject({
      statusId: 12,
      isClosed: true,
    });
    expect(refusal(() => planEntity({ ...base, status: { id: 99 } }, context))).toBe(
      'status 99 is not a status of module assets.',
    );
    expect(refusal(() => planEntity({ ...base, status: { id: 13 } }, context))).toBe(
      'status "Kit only" is not used on layout 1.',
    );
    expect(refusal(() => planEntity({ ...base, status: 12 }, context))).toMatch(
      /status must be an object/,
    );
    expect(refusal(() => planEntity({ ...base, layout: { id: 3 } }, context))).toBe(
      'layout 3 is not a layout of module assets.',
    );
    expect(planEntity({ ...base, project: { id: '100' } }, context).projectId).toBe(100);
    expect(refusal(() => planEntity({ ...base, project: { id: 101 } }, context))).toBe(
      'project 101 is not a project of this portal.',
    );
  });

  it('makes is_closed follow the status', () => {
    const base = { name: 'A', cf_serial: 'X' };
    expect(planEntity({ ...base, status: { id: 12 }, is_closed: true }, context).isClosed).toBe(
      true,
    );
    expect(refusal(() => planEntity({ ...base, is_closed: true }, context))).toMatch(
      /^is_closed is true but status "Open" is an open status/,
    );
    expect(refusal(() => planEntity({ ...base, is_external: 'yes' }, context))).toBe(
      'is_external must be true or false.',
    );
  });

  it('puts records of a numeric scope in that project', () => {
    const scoped = { ...context, scopeProjectId: 100 };
    expect(planEntity({ name: 'A', cf_serial: 'X' }, scoped).projectId).toBe(100);
    expect(refusal(() => planEntity({ name: 'A', cf_serial: 'X', project: null }, scoped))).toMatch(
      /project must stay 100/,
    );
  });

  it('offers only the options and users of the layout', () => {
    expect(planEntity({ name: 'A', layout: { id: 2 }, cf_tags: ['Blue'] }, context).custom).toEqual(
      {
        cf_tags: ['52'],
      },
    );
    expect(
      refusal(() => planEntity({ name: 'A', cf_serial: 'X', cf_tags: ['Blue'] }, context)),
    ).toMatch(/"Blue" is not an option/);
    expect(
      planEntity({ name: 'A', cf_serial: 'X', cf_owner: { zpuid: 'u1' } }, context).custom.cf_owner,
    ).toBe('u1');
    expect(
      refusal(() => planEntity({ name: 'A', cf_serial: 'X', cf_owner: { zpuid: 'u2' } }, context)),
    ).toBe("cf_owner: user u2 is not one of the field's selected users.");
    const anyone = {
      ...context,
      module: {
        ...MODULE,
        fields: new Map([
          ...MODULE.fields,
          ['cf_owner', { ...owner, userList: 'all_users' as const }],
        ]),
      },
    };
    expect(
      refusal(() => planEntity({ name: 'A', cf_serial: 'X', cf_owner: { zpuid: 'gone' } }, anyone)),
    ).toBe('cf_owner: user gone is deleted.');
    expect(
      refusal(() =>
        planEntity({ name: 'A', cf_serial: 'X', cf_owner: { zpuid: 'stranger' } }, anyone),
      ),
    ).toBe('cf_owner: stranger is not a user of this portal.');
  });
});

describe('planEntity on update', () => {
  it('keeps what the body does not name', () => {
    const plan = planEntity({ description: 'more' }, context, stored);
    expect(plan).toMatchObject({ ...stored, description: 'more', statusChanged: false });
  });

  it('allows only the transitions of the current status', () => {
    expect(planEntity({ status: { id: 11 } }, context, stored)).toMatchObject({
      statusId: 11,
      statusChanged: true,
    });
    expect(refusal(() => planEntity({ status: { id: 12 } }, context, stored))).toBe(
      'status cannot change from "Open" to "Done"; allowed next statuses: "Review".',
    );
    // Naming the current status is not a change.
    expect(planEntity({ status: { id: 10 } }, context, stored).statusChanged).toBe(false);
  });

  it('refuses emptying a mandatory field and an empty name', () => {
    expect(refusal(() => planEntity({ cf_serial: null }, context, stored))).toBe(
      'cf_serial is mandatory and cannot be emptied.',
    );
    expect(refusal(() => planEntity({ name: '' }, context, stored))).toBe(
      'name must not be empty.',
    );
  });

  it('applies multi-select changes to the stored value', () => {
    const plan = planEntity({ cf_tags: [{ remove: ['Red'] }] }, context, stored);
    expect(plan.custom).toEqual({ cf_serial: 'S1' });
  });

  it('drops values the new layout does not show', () => {
    const plan = planEntity({ layout: { id: 2 }, cf_note: 'n' }, context, stored);
    expect(plan.custom).toEqual({ cf_tags: ['51'], cf_note: 'n' });
  });

  it('does not modify the stored record', () => {
    const before = JSON.stringify(stored);
    planEntity({ cf_tags: [{ add: ['Red'] }], name: 'B' }, context, stored);
    expect(JSON.stringify(stored)).toBe(before);
  });
});
