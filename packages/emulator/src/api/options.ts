/**
 * Field options (spec "Fields and options"): read, bulk create, bulk update, bulk remove. What a
 * field's options are depends on its type: pick lists and multi-selects have `custom_options`,
 * user fields have `users` and `roles` (whom they may pick), and the status field has the
 * module's `statuses` with their transitions. Options made with a `layout_id` exist in that layout
 * only; without, in every layout. Statuses are shared by every layout.
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import {
  CUSTOM_OPTIONS_MAX_ITEMS,
  MULTI_SELECT_MAX_OPTIONS,
  OPTION_VALUE_MAX,
  PICK_LIST_MAX_OPTIONS,
  STATUS_NAME_MAX,
} from '../settings/limits';
import {
  bodyModule,
  filterBool,
  idObjects,
  moduleInProject,
  portalProjects,
  queryModule,
  readIndexRange,
  renumber,
  requireField,
  requireLayout,
  statusesOf,
  type FieldRow,
  type LayoutRow,
  type StatusRow,
} from '../settings/lookups';
import { arrange, parsePosition, type Position } from '../settings/position';
import { PORTAL_ROLES, roleName } from '../settings/roles';
import { statusView } from '../settings/views';
import {
  bodyObject,
  idString,
  paginate,
  parseId,
  queryJson,
  readPage,
  requirePortal,
  userSummary,
  type ModuleRow,
  type PortalRow,
} from './common';

const PATH = '/api/v3/portal/{portal_id}/settings/options';
const scope = (op: 'READ' | 'CREATE' | 'UPDATE' | 'DELETE') => [`PMS.custom_fields.${op}`];

/** Ours: a status colour is `#rrggbb`. */
const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
const DEFAULT_STATUS_COLOR = '#718096';

type FieldKind = 'choice' | 'people' | 'status';
type ListKey = 'custom_options' | 'users' | 'roles' | 'statuses';
const LISTS_OF: Record<FieldKind, readonly ListKey[]> = {
  choice: ['custom_options'],
  people: ['users', 'roles'],
  status: ['statuses'],
};

interface OptionRow {
  id: number;
  field_id: number;
  layout_id: number | null;
  kind: 'custom_option' | 'user' | 'role';
  value: string;
  position: number;
}

function fieldKind(field: FieldRow): FieldKind {
  if (field.field_type === 'pick_list' || field.field_type === 'multi_select') return 'choice';
  if (field.field_type === 'user_pick_list' || field.field_type === 'multi_user') return 'people';
  if (field.field_type === 'status') return 'status';
  throw apiErrors.invalidParameter(
    `${field.api_name} is a ${field.field_type} field; it has no options.`,
  );
}

function optionsOf(state: EmulatorState, fieldId: number, kind: OptionRow['kind']): OptionRow[] {
  return state.db
    .prepare('SELECT * FROM field_options WHERE field_id = ? AND kind = ? ORDER BY position, id')
    .all(fieldId, kind) as OptionRow[];
}

const layoutRef = (id: number | null) => (id === null ? null : { id: idString(id) });

function customOptionView(row: OptionRow, rank: number) {
  return {
    id: idString(row.id),
    value: row.value,
    layout: layoutRef(row.layout_id),
    position: rank,
  };
}

function userView(state: EmulatorState, row: OptionRow) {
  const user = userSummary(state, row.value);
  return {
    zpuid: row.value,
    name: user?.name ?? null,
    email: user?.email ?? null,
    layout: layoutRef(row.layout_id),
  };
}

function roleView(row: OptionRow) {
  return { id: row.value, name: roleName(row.value) ?? null, layout: layoutRef(row.layout_id) };
}

/** The options of the body's kind, limited to `only` (created or updated ones) when given. */
function replyBody(
  state: EmulatorState,
  field: FieldRow,
  lists: readonly ListKey[],
  only?: Set<string>,
) {
  const keep = (key: string) => only === undefined || only.has(key);
  const body: Record<string, unknown> = {};
  if (lists.includes('custom_options')) {
    body.custom_options = optionsOf(state, field.id, 'custom_option')
      .map((row, index) => customOptionView(row, index + 1))
      .filter((view) => keep(`o${view.id}`));
  }
  if (lists.includes('users')) {
    body.users = optionsOf(state, field.id, 'user')
      .filter((row) => keep(`u${row.value}`))
      .map((row) => userView(state, row));
  }
  if (lists.includes('roles')) {
    body.roles = optionsOf(state, field.id, 'role')
      .filter((row) => keep(`r${row.value}`))
      .map(roleView);
  }
  if (lists.includes('statuses')) {
    body.statuses = statusesOf(state, field.module_id)
      .filter((row) => keep(`s${row.id}`))
      .map((row) => statusView(state, row));
  }
  return body;
}

// ---- reads ---------------------------------------------------------------------------------

const listOptions: Route = {
  method: 'GET',
  template: PATH,
  kind: 'api',
  scopes: scope('READ'),
  handle: (request, state) => {
    const portal = requirePortal(state, request);
    const module = queryModule(state, portal, request);
    const field = requireField(state, module, request.query.get('field'));
    const page = readPage(request.query, true);
    readIndexRange(request.query, true);
    const kind = fieldKind(field);
    const filter = queryJson(request.query, 'filter') ?? {};
    const layout =
      filter.layout_id === undefined || filter.layout_id === null
        ? undefined
        : requireLayout(state, module, filter.layout_id, 'filter.layout_id');
    const unassociated = filterBool(filter, 'is_unassociated');
    if (unassociated !== undefined && !layout) {
      throw apiErrors.invalidParameter('filter.is_unassociated needs filter.layout_id.');
    }
    let inProject = true;
    if (filter.project_id !== undefined && filter.project_id !== null) {
      const projectId = parseId(filter.project_id, 'filter.project_id');
      if (!portalProjects(state, portal.id).has(projectId))
        throw apiErrors.notFound(`Project ${projectId}`);
      inProject = moduleInProject(module, projectId);
    }
    // In a layout: shared options and the layout's own; unassociated: other layouts' own.
    const visible = (layoutId: number | null) => {
      if (!inProject) return false;
      if (!layout) return true;
      const associated = layoutId === null || layoutId === layout.id;
      return unassociated === true ? !associated : associated;
    };

    if (kind === 'status') {
      const rows = statusesOf(state, module.id).filter(() => inProject && unassociated !== true);
      const { items, page_info } = paginate(rows, page);
      return { body: { statuses: items.map((row) => statusView(state, row)), page_info } };
    }
    if (kind === 'choice') {
      const rows = optionsOf(state, field.id, 'custom_option')
        .map((row, index) => ({ row, rank: index + 1 }))
        .filter(({ row }) => visible(row.layout_id));
      const { items, page_info } = paginate(rows, page);
      return {
        body: {
          custom_options: items.map(({ row, rank }) => customOptionView(row, rank)),
          page_info,
        },
      };
    }
    // Users first, then roles, paged as one list.
    const rows = [
      ...optionsOf(state, field.id, 'user'),
      ...optionsOf(state, field.id, 'role'),
    ].filter((row) => visible(row.layout_id));
    const { items, page_info } = paginate(rows, page);
    return {
      body: {
        users: items.filter((row) => row.kind === 'user').map((row) => userView(state, row)),
        roles: items.filter((row) => row.kind === 'role').map(roleView),
        available_roles: PORTAL_ROLES,
        page_info,
      },
    };
  },
};

// ---- the shared body -----------------------------------------------------------------------

interface OptionsBody {
  portal: PortalRow;
  module: ModuleRow;
  field: FieldRow;
  kind: FieldKind;
  layout: LayoutRow | undefined;
  position: Position | undefined;
  lists: Partial<Record<ListKey, Record<string, unknown>[]>>;
}

/**
 * `{module, field, layout_id, position, roles, users, statuses, custom_options}`: the lists that
 * do not fit the field's type are refused, and at least one list must have items.
 */
function readOptionsBody(state: EmulatorState, request: ApiRequest): OptionsBody {
  const portal = requirePortal(state, request);
  const body = bodyObject(request);
  const module = bodyModule(state, portal, body);
  if (body.field === undefined || body.field === null)
    throw apiErrors.invalidParameter('field is required.');
  const field = requireField(state, module, body.field);
  const kind = fieldKind(field);
  const layout =
    body.layout_id === undefined || body.layout_id === null
      ? undefined
      : requireLayout(state, module, body.layout_id);
  const position = parsePosition(body.position);
  const lists: OptionsBody['lists'] = {};
  for (const key of ['custom_options', 'users', 'roles', 'statuses'] as const) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) throw apiErrors.invalidParameter(`${key} must be an array.`);
    if (key === 'custom_options' && value.length > CUSTOM_OPTIONS_MAX_ITEMS) {
      throw apiErrors.invalidParameter(
        `custom_options has ${value.length} items; at most ${CUSTOM_OPTIONS_MAX_ITEMS} are allowed.`,
      );
    }
    value.forEach((item: unknown, index) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw apiErrors.invalidParameter(`${key}[${index}] must be an object.`);
      }
    });
    if (value.length === 0) continue;
    if (!LISTS_OF[kind].includes(key)) {
      throw apiErrors.invalidParameter(
        `${key} do not apply to ${field.api_name} (a ${field.field_type} field); it takes ${LISTS_OF[kind].join(' and ')}.`,
      );
    }
    lists[key] = value as Record<string, unknown>[];
  }
  if (Object.keys(lists).length === 0) {
    throw apiErrors.invalidParameter(
      `Nothing to do: give ${LISTS_OF[kind].join(' or ')} with at least one item.`,
    );
  }
  if (lists.statuses && layout) {
    throw apiErrors.invalidParameter(
      'Statuses are shared by every layout of a module; send them without layout_id.',
    );
  }
  return { portal, module, field, kind, layout, position, lists };
}

function textAt(
  item: Record<string, unknown>,
  key: string,
  where: string,
  max: number,
  required: boolean,
) {
  const value = item[key];
  if (value === undefined || value === null) {
    if (required) throw apiErrors.invalidParameter(`${where}.${key} is required.`);
    return undefined;
  }
  if (typeof value !== 'string')
    throw apiErrors.invalidParameter(`${where}.${key} must be a string.`);
  const trimmed = value.trim();
  if (trimmed === '') throw apiErrors.invalidParameter(`${where}.${key} must not be empty.`);
  if ([...trimmed].length > max)
    throw apiErrors.invalidParameter(`${where}.${key} is longer than ${max} characters.`);
  return trimmed;
}

function boolAt(item: Record<string, unknown>, key: string, where: string): boolean | undefined {
  const value = item[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw apiErrors.invalidParameter(`${where}.${key} must be true or false.`);
  return value;
}

function colorAt(item: Record<string, unknown>, where: string): string | undefined {
  const value = item.color;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !COLOR_PATTERN.test(value)) {
    throw apiErrors.invalidParameter(`${where}.color must be a colour like #2a64d6.`);
  }
  return value;
}

function zpuidAt(item: Record<string, unknown>, where: string): string {
  const value = item.zpuid;
  if ((typeof value !== 'string' && typeof value !== 'number') || !/^\d+$/.test(String(value))) {
    throw apiErrors.invalidParameter(`${where}.zpuid must be a user id.`);
  }
  return String(value);
}

function roleAt(item: Record<string, unknown>, where: string): string {
  const id = String(parseId(item.id, `${where}.id`));
  if (!roleName(id)) {
    throw apiErrors.notFound(
      `Role ${id} (${where}); roles are ${PORTAL_ROLES.map((r) => `${r.id} ${r.name}`).join(', ')}`,
    );
  }
  return id;
}

function refuseDuplicates(keys: string[], what: string): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key.toLowerCase()))
      throw apiErrors.invalidParameter(`${what} ${key} is listed twice.`);
    seen.add(key.toLowerCase());
  }
}

function maxOptions(field: FieldRow): number {
  return field.field_type === 'pick_list' ? PICK_LIST_MAX_OPTIONS : MULTI_SELECT_MAX_OPTIONS;
}

/** Transition targets: statuses of the module, never the status itself. */
function transitionsAt(
  item: Record<string, unknown>,
  where: string,
  statuses: ReadonlyMap<number, StatusRow>,
  self: number | undefined,
): number[] | undefined {
  if (item.transitions === undefined || item.transitions === null) return undefined;
  const ids = idObjects(item.transitions, `${where}.transitions`);
  for (const id of ids) {
    if (!statuses.has(id)) throw apiErrors.notFound(`Status ${id} (${where}.transitions)`);
    if (id === self)
      throw apiErrors.invalidParameter(`${where}.transitions: a status cannot lead to itself.`);
  }
  refuseDuplicates(ids.map(String), `${where}.transitions: status`);
  return ids;
}

function requireMember(
  state: EmulatorState,
  portal: PortalRow,
  zpuid: string,
  where: string,
): void {
  const member = state.db
    .prepare('SELECT 1 FROM portal_users WHERE portal_id = ? AND zpuid = ?')
    .get(portal.id, zpuid);
  if (!member) throw apiErrors.notFound(`User ${zpuid} in this portal (${where})`);
}

function insertOptions(
  state: EmulatorState,
  input: OptionsBody,
  kind: OptionRow['kind'],
  values: string[],
): number[] {
  const insert = state.db.prepare(
    'INSERT INTO field_options (id, field_id, layout_id, kind, value, position) VALUES (?, ?, ?, ?, ?, 0)',
  );
  return values.map((value) => {
    const id = state.nextId();
    insert.run(id, input.field.id, input.layout?.id ?? null, kind, value);
    return id;
  });
}

// ---- bulk create ---------------------------------------------------------------------------

const createOptions: Route = {
  method: 'POST',
  template: PATH,
  kind: 'api',
  scopes: scope('CREATE'),
  handle: (request, state) => {
    const input = readOptionsBody(state, request);
    const { field, lists, portal, position } = input;
    const writes: (() => void)[] = [];
    const created = new Set<string>();

    if (lists.custom_options) {
      const existing = optionsOf(state, field.id, 'custom_option');
      const values = lists.custom_options.map((item, index) => {
        if (item.id !== undefined) {
          throw apiErrors.invalidParameter(
            `custom_options[${index}].id: new options get their id here; PATCH changes one.`,
          );
        }
        return textAt(item, 'value', `custom_options[${index}]`, OPTION_VALUE_MAX, true) as string;
      });
      refuseDuplicates([...existing.map((row) => row.value), ...values], 'custom option');
      const max = maxOptions(field);
      if (existing.length + values.length > max) {
        throw apiErrors.invalidParameter(
          `${field.api_name} would have ${existing.length + values.length} options; a ${field.field_type} field holds at most ${max}.`,
        );
      }
      const existingIds = existing.map((row) => row.id);
      arrange(existingIds, [], position, 'position'); // checks before_id/after_id before writing
      writes.push(() => {
        const ids = insertOptions(state, input, 'custom_option', values);
        ids.forEach((id) => created.add(`o${id}`));
        renumber(
          state,
          'UPDATE field_options SET position = ? WHERE id = ?',
          arrange(existingIds, ids, position),
        );
      });
    }
    for (const [key, kind] of [
      ['users', 'user'],
      ['roles', 'role'],
    ] as const) {
      const list = lists[key];
      if (!list) continue;
      const existing = optionsOf(state, field.id, kind);
      const values = list.map((item, index) => {
        const where = `${key}[${index}]`;
        if (kind === 'role') return roleAt(item, where);
        const zpuid = zpuidAt(item, where);
        requireMember(state, portal, zpuid, where);
        return zpuid;
      });
      refuseDuplicates(
        [...existing.map((row) => row.value), ...values],
        kind === 'user' ? 'user' : 'role',
      );
      writes.push(() => {
        const ids = insertOptions(state, input, kind, values);
        values.forEach((value) => created.add(`${kind[0]}${value}`));
        renumber(
          state,
          'UPDATE field_options SET position = ? WHERE id = ?',
          arrange(
            existing.map((row) => row.id),
            ids,
            undefined,
          ),
        );
      });
    }
    if (lists.statuses) {
      const existing = statusesOf(state, input.module.id);
      const byId = new Map(existing.map((row) => [row.id, row]));
      const items = lists.statuses.map((item, index) => {
        const where = `statuses[${index}]`;
        if (item.id !== undefined)
          throw apiErrors.invalidParameter(
            `${where}.id: new statuses get their id here; PATCH changes one.`,
          );
        return {
          name: textAt(item, 'name', where, STATUS_NAME_MAX, true) as string,
          color: colorAt(item, where) ?? DEFAULT_STATUS_COLOR,
          closed: boolAt(item, 'is_closed_type', where) ?? false,
          transitions: transitionsAt(item, where, byId, undefined) ?? [],
        };
      });
      refuseDuplicates(
        [...existing.map((row) => row.name), ...items.map((item) => item.name)],
        'status',
      );
      const existingIds = existing.map((row) => row.id);
      arrange(existingIds, [], position);
      writes.push(() => {
        const insert = state.db.prepare(
          `INSERT INTO statuses (id, module_id, layout_id, name, color, is_closed_type, is_default, position)
           VALUES (?, ?, NULL, ?, ?, ?, 0, 0)`,
        );
        const link = state.db.prepare(
          'INSERT INTO status_transitions (from_status_id, to_status_id) VALUES (?, ?)',
        );
        const ids = items.map((item) => {
          const id = state.nextId();
          insert.run(id, input.module.id, item.name, item.color, item.closed ? 1 : 0);
          for (const to of item.transitions) link.run(id, to);
          created.add(`s${id}`);
          return id;
        });
        renumber(
          state,
          'UPDATE statuses SET position = ? WHERE id = ?',
          arrange(existingIds, ids, position),
        );
      });
    }
    state.db.transaction(() => writes.forEach((write) => write()))();
    return { status: 201, body: replyBody(state, field, Object.keys(lists) as ListKey[], created) };
  },
};

// ---- bulk update ---------------------------------------------------------------------------

const updateOptions: Route = {
  method: 'PATCH',
  template: PATH,
  kind: 'api',
  scopes: scope('UPDATE'),
  handle: (request, state) => {
    const input = readOptionsBody(state, request);
    const { field, lists, layout, position, module } = input;
    const writes: (() => void)[] = [];
    const touched = new Set<string>();
    const path = `$."${field.api_name}"`;

    if (lists.custom_options) {
      const existing = optionsOf(state, field.id, 'custom_option');
      const byId = new Map(existing.map((row) => [row.id, row]));
      const items = lists.custom_options.map((item, index) => {
        const where = `custom_options[${index}]`;
        const id = parseId(item.id, `${where}.id`);
        const row = byId.get(id);
        if (!row) throw apiErrors.notFound(`Option ${id} of ${field.api_name} (${where})`);
        return { row, value: textAt(item, 'value', where, OPTION_VALUE_MAX, false) };
      });
      refuseDuplicates(
        items.map((item) => String(item.row.id)),
        'option',
      );
      const renamed = new Map(
        items.filter((i) => i.value !== undefined).map((i) => [i.row.id, i.value as string]),
      );
      refuseDuplicates(
        existing.map((row) => renamed.get(row.id) ?? row.value),
        'custom option',
      );
      const moving = items.map((item) => item.row.id);
      const order = position
        ? arrange(
            existing.map((row) => row.id),
            moving,
            position,
          )
        : undefined;
      writes.push(() => {
        const update = state.db.prepare(
          'UPDATE field_options SET value = ?, layout_id = ? WHERE id = ?',
        );
        const relabels: [string, string][] = [];
        for (const { row, value } of items) {
          update.run(value ?? row.value, layout ? layout.id : row.layout_id, row.id);
          // Pick lists store the option's name in records; multi-selects store its id.
          if (value !== undefined && value !== row.value && field.field_type === 'pick_list') {
            relabels.push([row.value, value]);
          }
          touched.add(`o${row.id}`);
        }
        // All names at once, each record by the value it held before: the service keeps option
        // ids, so a swap (A→B, B→A) or a cycle of names moves every record with its option.
        if (relabels.length > 0) {
          state.db
            .prepare(
              `UPDATE entities SET custom = json_set(custom, @path, (
                 SELECT pair.value ->> 1 FROM json_each(@relabels) pair
                 WHERE pair.value ->> 0 = json_extract(entities.custom, @path)))
               WHERE module_id = @module
                 AND json_extract(custom, @path) IN (SELECT value ->> 0 FROM json_each(@relabels))`,
            )
            .run({ path, module: module.id, relabels: JSON.stringify(relabels) });
        }
        if (order) renumber(state, 'UPDATE field_options SET position = ? WHERE id = ?', order);
      });
    }
    for (const [key, kind] of [
      ['users', 'user'],
      ['roles', 'role'],
    ] as const) {
      const list = lists[key];
      if (!list) continue;
      const existing = optionsOf(state, field.id, kind);
      const rows = list.map((item, index) => {
        const where = `${key}[${index}]`;
        const value = kind === 'role' ? roleAt(item, where) : zpuidAt(item, where);
        const row = existing.find((candidate) => candidate.value === value);
        if (!row)
          throw apiErrors.notFound(
            `${kind === 'role' ? 'Role' : 'User'} ${value} among the options of ${field.api_name}`,
          );
        return row;
      });
      refuseDuplicates(
        rows.map((row) => row.value),
        kind,
      );
      writes.push(() => {
        const update = state.db.prepare('UPDATE field_options SET layout_id = ? WHERE id = ?');
        for (const row of rows) {
          update.run(layout ? layout.id : row.layout_id, row.id);
          touched.add(`${kind[0]}${row.value}`);
        }
      });
    }
    if (lists.statuses) {
      const existing = statusesOf(state, module.id);
      const byId = new Map(existing.map((row) => [row.id, row]));
      const items = lists.statuses.map((item, index) => {
        const where = `statuses[${index}]`;
        const id = parseId(item.id, `${where}.id`);
        const row = byId.get(id);
        if (!row) throw apiErrors.notFound(`Status ${id} of ${module.api_name} (${where})`);
        return {
          row,
          name: textAt(item, 'name', where, STATUS_NAME_MAX, false),
          color: colorAt(item, where),
          closed: boolAt(item, 'is_closed_type', where),
          transitions: transitionsAt(item, where, byId, id),
        };
      });
      refuseDuplicates(
        items.map((item) => String(item.row.id)),
        'status',
      );
      const names = new Map(
        items.filter((i) => i.name !== undefined).map((i) => [i.row.id, i.name as string]),
      );
      refuseDuplicates(
        existing.map((row) => names.get(row.id) ?? row.name),
        'status',
      );
      const order = position
        ? arrange(
            existing.map((row) => row.id),
            items.map((i) => i.row.id),
            position,
          )
        : undefined;
      writes.push(() => {
        const update = state.db.prepare(
          'UPDATE statuses SET name = ?, color = ?, is_closed_type = ? WHERE id = ?',
        );
        const closeRecords = state.db.prepare(
          'UPDATE entities SET is_closed = ? WHERE status_id = ?',
        );
        const unlink = state.db.prepare('DELETE FROM status_transitions WHERE from_status_id = ?');
        const link = state.db.prepare(
          'INSERT INTO status_transitions (from_status_id, to_status_id) VALUES (?, ?)',
        );
        for (const item of items) {
          const closed = item.closed === undefined ? item.row.is_closed_type : item.closed ? 1 : 0;
          update.run(item.name ?? item.row.name, item.color ?? item.row.color, closed, item.row.id);
          // Records follow their status's open/closed type.
          if (closed !== item.row.is_closed_type) closeRecords.run(closed, item.row.id);
          if (item.transitions) {
            unlink.run(item.row.id);
            for (const to of item.transitions) link.run(item.row.id, to);
          }
          touched.add(`s${item.row.id}`);
        }
        if (order) renumber(state, 'UPDATE statuses SET position = ? WHERE id = ?', order);
      });
    }
    state.db.transaction(() => writes.forEach((write) => write()))();
    return { body: replyBody(state, field, Object.keys(lists) as ListKey[], touched) };
  },
};

// ---- bulk remove ---------------------------------------------------------------------------

/**
 * Removes options. With `layout_id` only options made for that layout may be named (they exist
 * nowhere else, so they go); an option shared by every layout must be removed without layout_id.
 * Records lose removed custom options; user and role removals leave record values alone.
 */
const deleteOptions: Route = {
  method: 'DELETE',
  template: PATH,
  kind: 'api',
  scopes: scope('DELETE'),
  handle: (request, state) => {
    const input = readOptionsBody(state, request);
    const { field, lists, layout, module } = input;
    const scoped = (row: OptionRow, what: string) => {
      if (layout && row.layout_id !== layout.id) {
        throw apiErrors.invalidParameter(
          `${what} is ${row.layout_id === null ? 'shared by every layout' : `made for layout ${row.layout_id}`}, not made for layout ${layout.id}; remove it without layout_id.`,
        );
      }
    };
    const removeIds: number[] = [];
    const removedOptions: OptionRow[] = [];

    if (lists.custom_options) {
      const byId = new Map(optionsOf(state, field.id, 'custom_option').map((row) => [row.id, row]));
      const ids = lists.custom_options.map((item, index) =>
        parseId(item.id, `custom_options[${index}].id`),
      );
      refuseDuplicates(ids.map(String), 'option');
      for (const id of ids) {
        const row = byId.get(id);
        if (!row) throw apiErrors.notFound(`Option ${id} of ${field.api_name}`);
        scoped(row, `Option ${id}`);
        removeIds.push(id);
        removedOptions.push(row);
      }
    }
    for (const [key, kind] of [
      ['users', 'user'],
      ['roles', 'role'],
    ] as const) {
      const list = lists[key];
      if (!list) continue;
      const existing = optionsOf(state, field.id, kind);
      const values = list.map((item, index) =>
        kind === 'role' ? roleAt(item, `${key}[${index}]`) : zpuidAt(item, `${key}[${index}]`),
      );
      refuseDuplicates(values, kind);
      for (const value of values) {
        const row = existing.find((candidate) => candidate.value === value);
        if (!row)
          throw apiErrors.notFound(
            `${kind === 'role' ? 'Role' : 'User'} ${value} among the options of ${field.api_name}`,
          );
        scoped(row, `${kind === 'role' ? 'Role' : 'User'} ${value}`);
        removeIds.push(row.id);
      }
    }
    let statusIds: number[] = [];
    if (lists.statuses) {
      const existing = statusesOf(state, module.id);
      statusIds = idObjects(lists.statuses, 'statuses');
      refuseDuplicates(statusIds.map(String), 'status');
      for (const id of statusIds) {
        const row = existing.find((status) => status.id === id);
        if (!row) throw apiErrors.notFound(`Status ${id} of ${module.api_name}`);
        if (row.is_default === 1) {
          throw apiErrors.invalidParameter(
            `Status ${id} (${row.name}) is the default status new records start in.`,
          );
        }
        const used = state.db
          .prepare(
            `SELECT (SELECT COUNT(*) FROM entities WHERE status_id = ?) +
               (SELECT COUNT(*) FROM status_timeline WHERE from_status_id = ? OR to_status_id = ?) AS n`,
          )
          .get(id, id, id) as { n: number };
        if (used.n > 0) {
          throw apiErrors.invalidParameter(
            `Status ${id} (${row.name}) is in use by records or their status timelines; it cannot be removed.`,
          );
        }
      }
      if (statusIds.length >= existing.length) {
        throw apiErrors.invalidParameter(`${module.api_name} must keep at least one status.`);
      }
    }

    state.db.transaction(() => {
      const remove = state.db.prepare('DELETE FROM field_options WHERE id = ?');
      for (const id of removeIds) remove.run(id);
      const removeStatus = state.db.prepare('DELETE FROM statuses WHERE id = ?');
      for (const id of statusIds) removeStatus.run(id);
      clearRecordValues(state, module, field, removedOptions);
    })();
    return { status: 204 };
  },
};

/** Records lose removed options: a pick list's name, or the id from a multi-select's array. */
function clearRecordValues(
  state: EmulatorState,
  module: ModuleRow,
  field: FieldRow,
  removed: OptionRow[],
): void {
  if (removed.length === 0) return;
  const path = `$."${field.api_name}"`;
  if (field.field_type === 'pick_list') {
    const clear = state.db.prepare(
      'UPDATE entities SET custom = json_remove(custom, ?) WHERE module_id = ? AND json_extract(custom, ?) = ?',
    );
    for (const row of removed) clear.run(path, module.id, path, row.value);
    return;
  }
  const gone = new Set(removed.map((row) => String(row.id)));
  const rows = state.db
    .prepare(
      `SELECT id, json_extract(custom, ?) AS value FROM entities WHERE module_id = ? AND json_type(custom, ?) = 'array'`,
    )
    .all(path, module.id, path) as { id: number; value: string }[];
  const update = state.db.prepare(
    'UPDATE entities SET custom = json_set(custom, ?, json(?)) WHERE id = ?',
  );
  for (const row of rows) {
    const values = JSON.parse(row.value) as string[];
    const kept = values.filter((value) => !gone.has(String(value)));
    if (kept.length !== values.length) update.run(path, JSON.stringify(kept), row.id);
  }
}

export const optionRoutes: Route[] = [listOptions, createOptions, updateOptions, deleteOptions];
