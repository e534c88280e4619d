/**
 * What the record routes need to know about a custom module (its custom fields, layouts, statuses
 * and transitions) and about its portal (users, projects, time zone), read once per data version
 * (see recordCache.ts) instead of once per record.
 */
import type Database from 'better-sqlite3';
import {
  isCustomFieldType,
  type CustomFieldType,
} from '@portaldesk/portal-api/domain/customFieldTypes';
import type { FilterUsers } from '@portaldesk/portal-api/filter';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import type { RecordCaches } from './recordCache';

export type UserListType = 'all_users' | 'selected_users' | 'selected_roles';

export interface FieldOption {
  id: string;
  value: string;
  /** null: the option is offered on every layout. */
  layoutId: number | null;
}

export interface FieldMeta {
  id: number;
  apiName: string;
  type: CustomFieldType;
  mandatory: boolean;
  currencyCode: string;
  precision: number;
  userList: UserListType;
  /** Pick list and multi-select options. */
  options: FieldOption[];
  /** `users` / `roles` options of user fields (zpuids, role ids). */
  users: FieldOption[];
  roles: FieldOption[];
  /** Option id → display name, over every layout (multi-select values are stored as ids). */
  optionNames: ReadonlyMap<string, string>;
}

export interface LayoutMeta {
  id: number;
  name: string;
  /** The layout's custom fields in display order (section, then position). */
  fields: FieldMeta[];
  fieldNames: ReadonlySet<string>;
}

export interface StatusMeta {
  id: number;
  name: string;
  color: string;
  closed: boolean;
  /** null: the status is used by every layout. */
  layoutId: number | null;
  isDefault: boolean;
  position: number;
}

export interface ModuleMeta {
  id: number;
  apiName: string;
  active: boolean;
  /** Custom fields of the module by api_name (system fields such as name and status are not here). */
  fields: ReadonlyMap<string, FieldMeta>;
  layouts: ReadonlyMap<number, LayoutMeta>;
  defaultLayoutId: number | null;
  statuses: ReadonlyMap<number, StatusMeta>;
  /** From status id → the statuses it may change to. */
  transitions: ReadonlyMap<number, ReadonlySet<number>>;
}

export interface UserMeta {
  zpuid: string;
  name: string;
  email: string;
  status: string;
  role: string;
}

export interface PortalMeta {
  id: number;
  timeZone: string;
  weekStartDay: number | undefined;
  /** Every user, for names in responses (a former member still shows by name). */
  users: ReadonlyMap<string, UserMeta>;
  /** Members of the portal and their invitation status. */
  members: ReadonlyMap<string, 'pending' | 'accepted'>;
  /** Projects of the portal, trashed ones included (records keep showing them). */
  projects: ReadonlyMap<number, { name: string; trashed: boolean }>;
  filterUsers: FilterUsers;
}

interface FieldRow {
  id: number;
  api_name: string;
  field_type: string;
  is_mandatory: number;
  field_property: string;
}

interface OptionRow {
  id: number;
  field_id: number;
  layout_id: number | null;
  kind: 'custom_option' | 'role' | 'user';
  value: string;
}

function fieldMeta(row: FieldRow, type: CustomFieldType, options: OptionRow[]): FieldMeta {
  const property = parseJsonObject(row.field_property);
  const typeProps = (property.field_type_properties ?? {}) as Record<string, unknown>;
  const precision = Number(typeProps.precision_value);
  const userList = typeProps.userlist_type;
  const pick = (kind: OptionRow['kind']): FieldOption[] =>
    options
      .filter((option) => option.kind === kind)
      .map((option) => ({
        id: String(option.id),
        value: option.value,
        layoutId: option.layout_id,
      }));
  const custom = pick('custom_option');
  return {
    id: row.id,
    apiName: row.api_name,
    type,
    mandatory: row.is_mandatory === 1,
    currencyCode:
      typeof typeProps.currency_value === 'string' && typeProps.currency_value !== ''
        ? typeProps.currency_value
        : 'USD',
    precision: Number.isInteger(precision) && precision >= 0 && precision <= 10 ? precision : 2,
    userList:
      userList === 'selected_users' || userList === 'selected_roles' ? userList : 'all_users',
    options: custom,
    users: pick('user'),
    roles: pick('role'),
    optionNames: new Map(custom.map((option) => [option.id, option.value])),
  };
}

function loadModule(db: Database.Database, moduleId: number): ModuleMeta | null {
  const module = db
    .prepare('SELECT id, api_name, state FROM modules WHERE id = ?')
    .get(moduleId) as { id: number; api_name: string; state: string } | undefined;
  if (!module) return null;

  const optionRows = db
    .prepare(
      `SELECT o.id, o.field_id, o.layout_id, o.kind, o.value FROM field_options o
       JOIN fields f ON f.id = o.field_id WHERE f.module_id = ? ORDER BY o.position, o.id`,
    )
    .all(moduleId) as OptionRow[];
  const optionsByField = new Map<number, OptionRow[]>();
  for (const option of optionRows) {
    const list = optionsByField.get(option.field_id) ?? [];
    list.push(option);
    optionsByField.set(option.field_id, list);
  }

  const fields = new Map<string, FieldMeta>();
  const fieldsById = new Map<number, FieldMeta>();
  const fieldRows = db
    .prepare(
      `SELECT id, api_name, field_type, is_mandatory, field_property FROM fields
       WHERE module_id = ? AND is_default = 0 ORDER BY id`,
    )
    .all(moduleId) as FieldRow[];
  for (const row of fieldRows) {
    if (!isCustomFieldType(row.field_type)) continue;
    const field = fieldMeta(row, row.field_type, optionsByField.get(row.id) ?? []);
    fields.set(field.apiName, field);
    fieldsById.set(field.id, field);
  }

  const layouts = new Map<number, LayoutMeta>();
  let defaultLayoutId: number | null = null;
  const layoutRows = db
    .prepare('SELECT id, name, is_default FROM layouts WHERE module_id = ? ORDER BY id')
    .all(moduleId) as { id: number; name: string; is_default: number }[];
  const placements = db
    .prepare(
      `SELECT lf.layout_id, lf.field_id FROM layout_fields lf
       JOIN layouts l ON l.id = lf.layout_id
       LEFT JOIN sections s ON s.id = lf.section_id
       WHERE l.module_id = ? ORDER BY lf.layout_id, s.position, lf.position, lf.field_id`,
    )
    .all(moduleId) as { layout_id: number; field_id: number }[];
  for (const row of layoutRows) {
    const layoutFields = placements
      .filter((placement) => placement.layout_id === row.id)
      .flatMap((placement) => fieldsById.get(placement.field_id) ?? []);
    layouts.set(row.id, {
      id: row.id,
      name: row.name,
      fields: layoutFields,
      fieldNames: new Set(layoutFields.map((field) => field.apiName)),
    });
    if (row.is_default === 1 && defaultLayoutId === null) defaultLayoutId = row.id;
  }
  defaultLayoutId ??= layoutRows[0]?.id ?? null;

  const statuses = new Map<number, StatusMeta>();
  const statusRows = db
    .prepare(
      `SELECT id, name, color, is_closed_type, layout_id, is_default, position FROM statuses
       WHERE module_id = ? ORDER BY position, id`,
    )
    .all(moduleId) as {
    id: number;
    name: string;
    color: string;
    is_closed_type: number;
    layout_id: number | null;
    is_default: number;
    position: number;
  }[];
  for (const row of statusRows) {
    statuses.set(row.id, {
      id: row.id,
      name: row.name,
      color: row.color,
      closed: row.is_closed_type === 1,
      layoutId: row.layout_id,
      isDefault: row.is_default === 1,
      position: row.position,
    });
  }
  const transitions = new Map<number, Set<number>>();
  const transitionRows = db
    .prepare(
      `SELECT t.from_status_id AS "from", t.to_status_id AS "to" FROM status_transitions t
       JOIN statuses s ON s.id = t.from_status_id WHERE s.module_id = ?`,
    )
    .all(moduleId) as { from: number; to: number }[];
  for (const row of transitionRows) {
    const targets = transitions.get(row.from) ?? new Set<number>();
    targets.add(row.to);
    transitions.set(row.from, targets);
  }

  return {
    id: module.id,
    apiName: module.api_name,
    active: module.state === 'active',
    fields,
    layouts,
    defaultLayoutId,
    statuses,
    transitions,
  };
}

function loadPortal(db: Database.Database, portalId: number): PortalMeta | null {
  const portal = db
    .prepare('SELECT id, timezone, business_details FROM portals WHERE id = ?')
    .get(portalId) as { id: number; timezone: string; business_details: string } | undefined;
  if (!portal) return null;
  const weekStart = parseJsonObject(portal.business_details).week_start_day;

  const users = new Map<string, UserMeta>();
  const reportsTo = new Map<string, string>();
  const userRows = db
    .prepare(
      'SELECT zpuid, first_name, last_name, email, status, role, is_team_lead, reports_to FROM users',
    )
    .all() as {
    zpuid: string;
    first_name: string;
    last_name: string;
    email: string;
    status: string;
    role: string;
    is_team_lead: number;
    reports_to: string | null;
  }[];
  for (const row of userRows) {
    users.set(row.zpuid, {
      zpuid: row.zpuid,
      name: `${row.first_name} ${row.last_name}`,
      email: row.email,
      status: row.status,
      role: row.role,
    });
    if (row.reports_to) reportsTo.set(row.zpuid, row.reports_to);
  }

  const members = new Map<string, 'pending' | 'accepted'>();
  const memberRows = db
    .prepare('SELECT zpuid, invite_status FROM portal_users WHERE portal_id = ?')
    .all(portalId) as { zpuid: string; invite_status: 'pending' | 'accepted' }[];
  for (const row of memberRows) members.set(row.zpuid, row.invite_status);

  const projects = new Map<number, { name: string; trashed: boolean }>();
  const projectRows = db
    .prepare(
      `SELECT id, name, trashed_time FROM work_items WHERE portal_id = ? AND module = 'projects'`,
    )
    .all(portalId) as { id: number; name: string; trashed_time: string | null }[];
  for (const row of projectRows) {
    projects.set(row.id, { name: row.name, trashed: row.trashed_time !== null });
  }

  // The user presets of the filter guide, over the portal's members.
  const memberIds = [...members.keys()];
  const withStatus = (status: string) =>
    memberIds.filter((zpuid) => users.get(zpuid)?.status === status);
  const directReports: Record<string, string[]> = {};
  for (const zpuid of memberIds) {
    const manager = reportsTo.get(zpuid);
    if (manager === undefined) continue;
    (directReports[manager] ??= []).push(zpuid);
  }
  const filterUsers: FilterUsers = {
    deactivated: withStatus('deactivated'),
    deleted: withStatus('deleted'),
    teamLeads: memberIds.filter(
      (zpuid) => userRows.find((row) => row.zpuid === zpuid)?.is_team_lead === 1,
    ),
    pending: memberIds.filter((zpuid) => members.get(zpuid) === 'pending'),
    accepted: memberIds.filter((zpuid) => members.get(zpuid) === 'accepted'),
    directReports,
  };

  return {
    id: portal.id,
    timeZone: portal.timezone,
    weekStartDay:
      Number.isInteger(weekStart) && (weekStart as number) >= 0 && (weekStart as number) <= 7
        ? (weekStart as number)
        : undefined,
    users,
    members,
    projects,
    filterUsers,
  };
}

export function moduleMeta(
  caches: RecordCaches,
  db: Database.Database,
  moduleId: number,
): ModuleMeta | null {
  return caches.memo(`module:${moduleId}`, () => loadModule(db, moduleId));
}

export function portalMeta(
  caches: RecordCaches,
  db: Database.Database,
  portalId: number,
): PortalMeta | null {
  return caches.memo(`portal:${portalId}`, () => loadPortal(db, portalId));
}

/** The custom fields on a layout, or every custom field of the module when the layout is gone. */
export function layoutFields(module: ModuleMeta, layoutId: number): readonly FieldMeta[] {
  return module.layouts.get(layoutId)?.fields ?? [...module.fields.values()];
}

/** Options of a field offered on a layout. */
export function optionsOn<T extends { layoutId: number | null }>(
  options: readonly T[],
  layoutId: number,
): T[] {
  return options.filter((option) => option.layoutId === null || option.layoutId === layoutId);
}
