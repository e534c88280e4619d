/**
 * What the outbox's rules need to know about a module's fields, from the mirror's metadata: the
 * editable fields of a record's layout with their rules (EditableField, shared with the editors),
 * each field's type, the status transitions, and a record's server values in the API's shapes.
 */
import type { EditableField } from '../../shared/ipc/areas/outbox';
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import type { StoredRecord } from '../store/mirror/localEditsRepository';
import {
  configQueueOf,
  overlayCatalogFields,
  overlayCatalogStatuses,
  queuedStatusAdds,
  relabelled,
} from './catalogOverlay';
import type { CatalogStatus, OutboxRepository } from './outboxRepository';
import { SYSTEM_FIELD_TYPES } from './outboxTypes';

/** Ours, as the emulator's: a currency field that names no code is in US dollars, 2 decimals. */
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_PRECISION = 2;
/** Ours: a portal whose zone the mirror lacks edits time stamps in UTC. */
export const FALLBACK_TIME_ZONE = 'UTC';

const SYSTEM_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  status: 'Status',
  is_external: 'External',
};

export interface EditCatalog {
  portalId: string;
  moduleId: string;
  moduleKey: number;
  moduleApiName: string;
  moduleName: string;
  timeZone: string;
  layoutId: string | null;
  /** Editable fields in form order: the record's own first, then the layout's custom fields. */
  fields: EditableField[];
  types: Map<string, string>;
  statuses: CatalogStatus[];
  defaultStatusId: string | null;
  mayMoveStatus(fromId: string | null, toId: string | null): boolean;
  /**
   * Options renamed or removed by queued configuration changes, per field key: the name a
   * mirrored record holds → the name it will hold, null once removed (catalogOverlay.ts).
   */
  relabel: ReadonlyMap<string, ReadonlyMap<string, string | null>>;
}

function statusView(status: CatalogStatus) {
  return {
    id: status.id,
    name: status.name,
    color: status.color,
    isClosedType: status.isClosedType === 1,
  };
}

/**
 * The catalog of a module for a record on `layoutId` in status `statusId` (null: a new record,
 * which may start in any status). Undefined when the portal or module is not mirrored.
 */
export function loadEditCatalog(
  repo: OutboxRepository,
  portalId: string,
  moduleId: string,
  layoutId: string | null,
  statusId: string | null,
): EditCatalog | undefined {
  const portal = repo.portal(portalId);
  const module = repo.module(portalId, moduleId);
  if (!portal || !module) return undefined;
  const layout = layoutId ?? repo.defaultLayout(portalId, moduleId);
  const placed = layout === null ? new Set<string>() : repo.layoutFieldIds(portalId, layout);
  const allFields = repo.fields(portalId, moduleId);
  const options = repo.options(portalId, moduleId);
  // Record changes go after the module's queued configuration (recordsWaitFor.ts): statuses are
  // offered and named as it leaves them.
  const configOps = repo.opsOfRecord(portalId, configQueueOf(moduleId));
  const statuses = overlayCatalogStatuses(repo.statuses(portalId, moduleId), configOps);
  const transitions = repo.transitions(portalId, moduleId);
  const people = repo.users(portalId);
  const emails = new Map(people.map((p) => [p.zpuid, p.email]));
  const labels = new Map(
    allFields.filter((f) => f.isDefault === 1).map((f) => [f.apiName, f.displayName]),
  );

  const next = new Map<string, Set<string>>();
  for (const { fromId, toId } of transitions) {
    const set = next.get(fromId) ?? new Set<string>();
    set.add(toId);
    next.set(fromId, set);
  }
  const mayMoveStatus = (fromId: string | null, toId: string | null) =>
    fromId === toId || fromId === null || (toId !== null && (next.get(fromId)?.has(toId) ?? false));

  const current = statuses.find((s) => s.id === statusId);
  const reachable =
    statusId === null
      ? statuses
      : [
          ...(current ? [current] : []),
          ...statuses.filter((s) => s.id !== statusId && mayMoveStatus(statusId, s.id)),
        ];

  const base = {
    options: [] as EditableField['options'],
    users: [] as EditableField['users'],
    usersRestricted: false,
    statuses: [] as EditableField['statuses'],
    currencyCode: DEFAULT_CURRENCY,
    precision: DEFAULT_PRECISION,
  };
  const fields: EditableField[] = Object.keys(SYSTEM_FIELD_TYPES).map((key) => ({
    ...base,
    key,
    label: labels.get(key) ?? SYSTEM_LABELS[key] ?? key,
    type: SYSTEM_FIELD_TYPES[key] as string,
    mandatory: key === 'name' || key === 'status',
    statuses: key === 'status' ? reachable.map(statusView) : [],
    ...(key === 'status' ? { waitingStatuses: queuedStatusAdds(configOps) } : {}),
  }));
  const types = new Map<string, string>(Object.entries(SYSTEM_FIELD_TYPES));

  for (const field of allFields) {
    if (field.isDefault === 1 || !isCustomFieldType(field.fieldType)) continue;
    types.set(field.apiName, field.fieldType);
    // A layout whose placements the mirror lacks shows every field rather than none.
    if (placed.size > 0 && !placed.has(field.id)) continue;
    const property = parseJsonObject(field.fieldProperty);
    const typeProps = (property.field_type_properties ?? {}) as Record<string, unknown>;
    const precision = Number(typeProps.precision_value);
    const onLayout = (o: { layoutId: string | null }) =>
      o.layoutId === null || o.layoutId === layout;
    const own = options.filter((o) => o.fieldId === field.id && onLayout(o));
    const selectedUsers = own
      .filter((o) => o.kind === 'user')
      .map((o) => ({ zpuid: o.valueId, name: o.value, email: emails.get(o.valueId) ?? null }));
    const restricted = typeProps.userlist_type === 'selected_users' && selectedUsers.length > 0;
    fields.push({
      ...base,
      key: field.apiName,
      label: field.displayName,
      type: field.fieldType,
      mandatory: field.isMandatory === 1,
      options: own
        .filter((o) => o.kind === 'custom_option' && o.value !== null)
        .map((o) => ({ id: o.valueId, name: o.value as string })),
      users: restricted ? selectedUsers : people,
      usersRestricted: restricted,
      currencyCode:
        typeof typeProps.currency_value === 'string' && typeProps.currency_value !== ''
          ? typeProps.currency_value
          : DEFAULT_CURRENCY,
      precision:
        Number.isInteger(precision) && precision >= 0 && precision <= 10
          ? precision
          : DEFAULT_PRECISION,
    });
  }

  // The editor offers what the module's queued configuration changes leave: record changes go
  // after them (recordsWaitFor.ts), so they must name options as those changes leave them.
  const ids = new Map(allFields.map((field) => [field.apiName, field.id]));
  const overlay = overlayCatalogFields(fields, (key) => ids.get(key), configOps);

  return {
    portalId,
    moduleId,
    moduleKey: module.moduleKey,
    moduleApiName: module.apiName,
    moduleName: module.pluralName,
    timeZone: portal.timeZone || FALLBACK_TIME_ZONE,
    layoutId: layout,
    fields: overlay.fields,
    types,
    statuses,
    defaultStatusId: (statuses.find((s) => s.isDefault === 1) ?? statuses[0])?.id ?? null,
    mayMoveStatus,
    relabel: overlay.relabel,
  };
}

/**
 * A stored record's value of a field key, in the shape the API shows it, its options by the
 * names queued renames give them (what the service will hold when a change made now goes).
 */
export function storedValue(
  record: StoredRecord,
  catalog: Pick<EditCatalog, 'statuses' | 'relabel'>,
  field: string,
): unknown {
  const { statuses } = catalog;
  switch (field) {
    case 'name':
      return record.name;
    case 'description':
      return record.description;
    case 'status': {
      if (record.status_id === null) return null;
      const status = statuses.find((s) => s.id === record.status_id);
      return {
        id: record.status_id,
        name: status?.name ?? null,
        color: status?.color ?? null,
        is_closed_type: status ? status.isClosedType === 1 : record.is_closed === 1,
      };
    }
    case 'is_external':
      return record.is_external === 1;
    default: {
      const custom = parseJsonObject(record.custom);
      return relabelled(custom[field] ?? null, catalog.relabel.get(field));
    }
  }
}
