/**
 * A record as lists see it: the server copy with its pending local edits laid over it (the
 * outbox's `record_edits`, one value per field in the shape the API shows). Pure.
 */
import { foldText } from '@portaldesk/portal-api/filter';
import { naturalSortKey } from '@portaldesk/portal-api/domain/naturalOrder';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';

/** A `records` row, as the lists read and filter it. */
export interface StoredRecordRow {
  row_key: number;
  portal_id: string;
  module_key: number;
  id: string;
  name: string;
  name_fold: string;
  /** naturalSortKey(name): the name order (migration 0017). */
  name_sort: string;
  description: string;
  status_id: string | null;
  layout_id: string | null;
  project_id: string | null;
  project_name: string | null;
  owner_zpuid: string | null;
  is_closed: number;
  is_external: number;
  created_time: string;
  last_updated_time: string;
  trashed_time: string | null;
  /** JSON text of the custom values by api_name. */
  custom: string;
  local_only: number;
}

export interface RecordEdit {
  /** An API body key (name, description, status, layout, project, is_external) or an api_name. */
  field: string;
  /** The new value, parsed from its JSON. */
  value: unknown;
}

/** The id of a status, layout or project as an edit holds it (an object with an id, or the id). */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'id' in value) {
    const id = (value as { id: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  }
  return null;
}

function nameOf(value: unknown): string | null {
  if (typeof value === 'object' && value !== null && 'name' in value) {
    const name = (value as { name: unknown }).name;
    return typeof name === 'string' ? name : null;
  }
  return null;
}

/**
 * The row with `edits` applied. A status edit also sets is_closed from `closedStatusIds` (the
 * module's statuses of a closed type), as the server would.
 */
export function mergeRecordEdits<T extends StoredRecordRow>(
  row: T,
  edits: readonly RecordEdit[],
  closedStatusIds: ReadonlySet<string>,
): T {
  if (edits.length === 0) return row;
  const merged: T = { ...row };
  let custom: Record<string, unknown> | undefined;
  for (const { field, value } of edits) {
    switch (field) {
      case 'name':
        if (typeof value === 'string') {
          merged.name = value;
          merged.name_fold = foldText(value);
          merged.name_sort = naturalSortKey(value);
        }
        break;
      case 'description':
        merged.description = typeof value === 'string' ? value : '';
        break;
      case 'status':
        merged.status_id = idOf(value);
        merged.is_closed =
          merged.status_id !== null && closedStatusIds.has(merged.status_id) ? 1 : 0;
        break;
      case 'layout':
        merged.layout_id = idOf(value);
        break;
      case 'project':
        merged.project_id = idOf(value);
        merged.project_name = nameOf(value);
        break;
      case 'is_external':
        merged.is_external = value === true ? 1 : 0;
        break;
      default:
        custom ??= parseJsonObject(row.custom);
        custom[field] = value;
    }
  }
  if (custom) merged.custom = JSON.stringify(custom);
  return merged;
}
