/**
 * One stored record as the workspace shows it: the server copy with its pending local edits laid
 * over it (mergeRecordEdits, as lists do), statuses and the owner resolved to names. Pure.
 */
import type { RecordRow, RecordsStatus, RecordsUser } from '../../shared/contracts/records';
import {
  mergeRecordEdits,
  type RecordEdit,
  type StoredRecordRow,
} from '../store/mirror/mergeRecordEdits';

export interface StoredRecordWithModule extends StoredRecordRow {
  module_id: string;
  comments_mirrored: number;
}

function parseCustom(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    // Only the mirror writes `custom`, always as JSON; a damaged value shows as empty.
    return {};
  }
}

export function recordRow(
  stored: StoredRecordWithModule,
  edits: readonly RecordEdit[],
  statuses: ReadonlyMap<string, RecordsStatus>,
  users: ReadonlyMap<string, RecordsUser>,
): RecordRow {
  const closed = new Set([...statuses.values()].filter((s) => s.isClosedType).map((s) => s.id));
  const row = mergeRecordEdits(stored, edits, closed);
  const status = row.status_id === null ? undefined : statuses.get(row.status_id);
  const owner = row.owner_zpuid === null ? undefined : users.get(row.owner_zpuid);
  return {
    id: row.id,
    portalId: row.portal_id,
    moduleId: stored.module_id,
    name: row.name,
    description: row.description,
    status:
      row.status_id === null
        ? null
        : {
            id: row.status_id,
            name: status?.name ?? null,
            color: status?.color ?? null,
            isClosedType: status?.isClosedType ?? false,
          },
    layoutId: row.layout_id,
    project: row.project_id === null ? null : { id: row.project_id, name: row.project_name },
    owner:
      row.owner_zpuid === null
        ? null
        : { zpuid: row.owner_zpuid, name: owner?.name ?? null, email: owner?.email ?? null },
    isClosed: row.is_closed === 1,
    isExternal: row.is_external === 1,
    createdTime: row.created_time,
    lastUpdatedTime: row.last_updated_time,
    custom: parseCustom(row.custom),
    localOnly: row.local_only === 1,
    pendingFields: [...new Set(edits.map((e) => e.field))],
    commentsMirrored: stored.comments_mirrored === 1,
  };
}
