/**
 * One stored record as the workspace shows it: the server copy with its pending local edits laid
 * over it (mergeRecordEdits, as lists do), statuses and the owner resolved to names. Pure.
 */
import type { RecordRow, RecordsStatus, RecordsUser } from '../../shared/ipc/areas/records';
import {
  mergeRecordEdits,
  type RecordEdit,
  type StoredRecordRow,
} from '../store/mirror/mergeRecordEdits';
import { recordRowOf } from '../store/mirror/recordRowOf';

export interface StoredRecordWithModule extends StoredRecordRow {
  module_id: string;
  comments_mirrored: number;
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
  return recordRowOf(stored, stored.module_id, row, edits, status, owner);
}
