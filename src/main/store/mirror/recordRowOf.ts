import type { RecordRow } from '../../../shared/ipc/areas/records';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import type { RecordEdit, StoredRecordRow } from './mergeRecordEdits';

/**
 * The row for `row` (`stored` with `edits` already merged), its status and owner as the caller
 * resolved them (undefined when unknown): the same for the mirror's list pages (recordQuery) and one
 * record's detail (src/main/records/recordRow.ts). Pure.
 */
export function recordRowOf(
  stored: { comments_mirrored: number },
  moduleId: string,
  row: StoredRecordRow,
  edits: readonly RecordEdit[],
  status: { name: string | null; color: string | null; isClosedType: boolean } | undefined,
  owner: { name: string | null; email: string | null } | undefined,
): RecordRow {
  return {
    id: row.id,
    portalId: row.portal_id,
    moduleId,
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
    custom: parseJsonObject(row.custom),
    localOnly: row.local_only === 1,
    pendingFields: edits.length === 0 ? [] : [...new Set(edits.map((e) => e.field))],
    commentsMirrored: stored.comments_mirrored === 1,
  };
}
