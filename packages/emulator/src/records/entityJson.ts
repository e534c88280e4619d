/**
 * A record as the API shows it (our shape; the spec shows none). "Related data is grouped in
 * objects" and "All field structures are the same in requests and responses": status, layout and
 * project are `{id, ...}` objects a client can send back, and every custom field of the record's
 * layout sits at the top level under its api_name, null when empty.
 */
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import { idString } from '../api/common';
import { layoutFields, type FieldMeta, type ModuleMeta, type PortalMeta } from './recordMeta';
import type { StoredEntity } from './entityInput';

/** A row of the `entities` table. */
export interface EntityRow {
  id: number;
  module_id: number;
  project_id: number | null;
  layout_id: number;
  status_id: number;
  name: string;
  description: string;
  is_closed: number;
  is_external: number;
  owner_zpuid: string;
  custom: string;
  created_time: string;
  last_updated_time: string;
  trashed_time: string | null;
}

export function storedEntity(row: EntityRow): StoredEntity {
  return {
    name: row.name,
    description: row.description,
    layoutId: row.layout_id,
    statusId: row.status_id,
    projectId: row.project_id,
    isExternal: row.is_external === 1,
    custom: parseJsonObject(row.custom),
  };
}

function userRef(portal: PortalMeta, zpuid: unknown) {
  if (typeof zpuid !== 'string') return null;
  return { zpuid, name: portal.users.get(zpuid)?.name ?? null };
}

/** A stored custom value in the shape of the spec's "Custom field value types". */
export function shownValue(field: FieldMeta, stored: unknown, portal: PortalMeta): unknown {
  if (stored === undefined || stored === null) return null;
  switch (field.type) {
    case 'multi_select':
      // Stored as option ids, shown (and sent) as option names.
      return Array.isArray(stored)
        ? stored.flatMap((id) => {
            const name = field.optionNames.get(String(id));
            return name === undefined ? [] : [name];
          })
        : null;
    case 'user_pick_list':
      return userRef(portal, stored);
    case 'multi_user':
      return Array.isArray(stored) ? stored.flatMap((zpuid) => userRef(portal, zpuid) ?? []) : null;
    default:
      return stored;
  }
}

export function entityJson(
  row: EntityRow,
  module: ModuleMeta,
  portal: PortalMeta,
): Record<string, unknown> {
  const status = module.statuses.get(row.status_id);
  const project = row.project_id === null ? undefined : portal.projects.get(row.project_id);
  const owner = portal.users.get(row.owner_zpuid);
  const record: Record<string, unknown> = {
    id: idString(row.id),
    name: row.name,
    description: row.description,
    status: {
      id: idString(row.status_id),
      name: status?.name ?? null,
      color: status?.color ?? null,
      is_closed_type: status?.closed ?? false,
    },
    layout: { id: idString(row.layout_id), name: module.layouts.get(row.layout_id)?.name ?? null },
    project:
      row.project_id === null
        ? null
        : { id: idString(row.project_id), name: project?.name ?? null },
    owner: {
      zpuid: row.owner_zpuid,
      name: owner?.name ?? null,
      email: owner?.email ?? null,
    },
    // The status's closed type decides, so renaming a status's type shows at once.
    is_closed: status ? status.closed : row.is_closed === 1,
    is_external: row.is_external === 1,
    created_time: row.created_time,
    last_updated_time: row.last_updated_time,
    trashed_time: row.trashed_time,
  };
  const custom = parseJsonObject(row.custom);
  for (const field of layoutFields(module, row.layout_id)) {
    if (Object.hasOwn(record, field.apiName)) continue;
    record[field.apiName] = shownValue(field, custom[field.apiName], portal);
  }
  return record;
}
