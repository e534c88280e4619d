import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_TYPE_NAMES } from '@portaldesk/portal-api/domain/customFieldTypes';
import { entityJson, type EntityRow } from '@portaldesk/emulator/records/entityJson';
import { entityText } from '@portaldesk/emulator/records/entityText';
import type {
  FieldMeta,
  LayoutMeta,
  ModuleMeta,
  PortalMeta,
  StatusMeta,
  UserMeta,
} from '@portaldesk/emulator/records/recordMeta';

/** The definition entityText must equal, byte for byte. */
const reference = (row: EntityRow, module: ModuleMeta, portal: PortalMeta) =>
  JSON.stringify(entityJson(row, module, portal));

// Api names, with the ones that need care: a system key's name, digits only (an object lists
// those first), `__proto__`, names on Object.prototype, and repeats.
const apiName = fc.oneof(
  fc.constantFrom(
    'cf_a',
    'cf_b',
    'name',
    'status',
    'trashed_time',
    '123',
    '0',
    '__proto__',
    'constructor',
    'toString',
    'toJSON',
    'hasOwnProperty',
  ),
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/),
  fc.string({ maxLength: 6 }),
);

// Text with what JSON escapes: quotes, controls, lone surrogates, astral characters.
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800', '\udc00x', 'é', '😀', ''),
);

const ids = [1, 2, 3, 4];
const zpuids = ['u1', 'u2', 'u3'];

const storedValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  text,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.array(fc.oneof(fc.constantFrom(...ids.map(String), ...zpuids, 7), fc.integer()), {
    maxLength: 4,
  }),
  fc.constantFrom(...zpuids),
  fc.record({ code: fc.constantFrom('USD', 'EUR'), amount: fc.double({ noNaN: true }) }),
  fc.jsonValue(),
);

const field = fc.record({
  apiName,
  type: fc.constantFrom(...CUSTOM_FIELD_TYPE_NAMES),
  options: fc.array(fc.tuple(fc.constantFrom(...ids.map(String)), text), { maxLength: 3 }),
});

const world = fc
  .record({
    fields: fc.array(field, { maxLength: 6 }),
    layouts: fc.array(
      fc.record({
        id: fc.constantFrom(...ids),
        name: text,
        picks: fc.array(fc.nat(), { maxLength: 6 }),
      }),
      { maxLength: 3 },
    ),
    statuses: fc.array(
      fc.record({ id: fc.constantFrom(...ids), name: text, color: text, closed: fc.boolean() }),
      { maxLength: 3 },
    ),
    users: fc.array(fc.record({ zpuid: fc.constantFrom(...zpuids), name: text, email: text }), {
      maxLength: 3,
    }),
    projects: fc.array(fc.record({ id: fc.constantFrom(...ids), name: text }), { maxLength: 3 }),
  })
  .map(({ fields, layouts, statuses, users, projects }) => {
    const metas: FieldMeta[] = fields.map((f, index) => ({
      id: index + 1,
      apiName: f.apiName,
      type: f.type,
      mandatory: false,
      currencyCode: 'USD',
      precision: 2,
      userList: 'all_users',
      options: [],
      users: [],
      roles: [],
      optionNames: new Map(f.options),
    }));
    const layoutMap = new Map<number, LayoutMeta>();
    for (const layout of layouts) {
      const chosen = metas.length === 0 ? [] : layout.picks.map((p) => metas[p % metas.length]!);
      layoutMap.set(layout.id, {
        id: layout.id,
        name: layout.name,
        fields: chosen,
        fieldNames: new Set(chosen.map((f) => f.apiName)),
      });
    }
    const statusMap = new Map<number, StatusMeta>();
    for (const s of statuses) {
      statusMap.set(s.id, { ...s, layoutId: null, isDefault: false, position: s.id });
    }
    const userMap = new Map<string, UserMeta>();
    for (const u of users) userMap.set(u.zpuid, { ...u, status: 'active', role: 'admin' });
    const module: ModuleMeta = {
      id: 1,
      apiName: 'assets',
      active: true,
      fields: new Map(metas.map((f) => [f.apiName, f])),
      layouts: layoutMap,
      defaultLayoutId: null,
      statuses: statusMap,
      transitions: new Map(),
    };
    const portal: PortalMeta = {
      id: 1,
      timeZone: 'UTC',
      weekStartDay: undefined,
      users: userMap,
      members: new Map(),
      projects: new Map(projects.map((p) => [p.id, { name: p.name, trashed: false }])),
      filterUsers: {
        deactivated: [],
        deleted: [],
        teamLeads: [],
        pending: [],
        accepted: [],
        directReports: {},
      },
    };
    return { module, portal, apiNames: metas.map((f) => f.apiName) };
  });

const row = (apiNames: readonly string[]) =>
  fc.record({
    id: fc.integer({ min: 1, max: 2 ** 53 - 1 }),
    module_id: fc.constant(1),
    project_id: fc.option(fc.constantFrom(...ids, 99), { nil: null }),
    layout_id: fc.constantFrom(...ids, 99),
    status_id: fc.constantFrom(...ids, 99),
    name: text,
    description: text,
    is_closed: fc.constantFrom(0, 1),
    is_external: fc.constantFrom(0, 1),
    owner_zpuid: fc.constantFrom(...zpuids, 'gone'),
    custom: fc.oneof(
      fc
        .array(
          fc.tuple(
            apiNames.length === 0 ? apiName : fc.oneof(fc.constantFrom(...apiNames), apiName),
            storedValue,
          ),
          { maxLength: 6 },
        )
        .map((pairs) => {
          const object: Record<string, unknown> = {};
          for (const [key, value] of pairs) {
            Object.defineProperty(object, key, { value, enumerable: true, configurable: true });
          }
          return JSON.stringify(object);
        }),
      fc.constantFrom('{}', '[]', 'null', 'not json', '{"__proto__":{"x":1}}'),
    ),
    created_time: text,
    last_updated_time: text,
    trashed_time: fc.option(text, { nil: null }),
  }) satisfies fc.Arbitrary<EntityRow>;

describe('entityText', () => {
  it('writes exactly JSON.stringify(entityJson(…)) for any row, module and portal', () => {
    fc.assert(
      fc.property(
        world.chain((w) => fc.tuple(fc.constant(w), fc.array(row(w.apiNames), { maxLength: 5 }))),
        ([{ module, portal }, rows]) => {
          // Several rows against the same metadata: the texts kept per module and portal too.
          for (const r of rows)
            expect(entityText(r, module, portal)).toBe(reference(r, module, portal));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('follows the metadata object it is given, not the one it saw first', () => {
    const status: StatusMeta = {
      id: 1,
      name: 'Open',
      color: '#fff',
      closed: false,
      layoutId: null,
      isDefault: true,
      position: 1,
    };
    const base: ModuleMeta = {
      id: 1,
      apiName: 'assets',
      active: true,
      fields: new Map(),
      layouts: new Map(),
      defaultLayoutId: null,
      statuses: new Map([[1, status]]),
      transitions: new Map(),
    };
    const portal: PortalMeta = {
      id: 1,
      timeZone: 'UTC',
      weekStartDay: undefined,
      users: new Map(),
      members: new Map(),
      projects: new Map(),
      filterUsers: {
        deactivated: [],
        deleted: [],
        teamLeads: [],
        pending: [],
        accepted: [],
        directReports: {},
      },
    };
    const r: EntityRow = {
      id: 5,
      module_id: 1,
      project_id: null,
      layout_id: 1,
      status_id: 1,
      name: 'n',
      description: '',
      is_closed: 0,
      is_external: 0,
      owner_zpuid: 'u1',
      custom: '{}',
      created_time: 't',
      last_updated_time: 't',
      trashed_time: null,
    };
    expect(entityText(r, base, portal)).toContain('"name":"Open"');
    // A rebuilt ModuleMeta (after a status was renamed) is a new object: its own texts.
    const renamed = { ...base, statuses: new Map([[1, { ...status, name: 'Renamed' }]]) };
    expect(entityText(r, renamed, portal)).toBe(reference(r, renamed, portal));
    expect(entityText(r, renamed, portal)).toContain('"name":"Renamed"');
  });
});
