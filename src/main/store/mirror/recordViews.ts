/**
 * A window's rows as the lists show them (MirrorRecordView): each stored row with its pending
 * edits merged, its status's name and colour, its owner's name and whether its comments are
 * mirrored, in the window's order.
 */
import { editsByRecord, type EditRow } from './editedRows';
import { listQueries as queries, type StatementCache } from './listStatements';
import { mergeRecordEdits, type StoredRecordRow } from './mergeRecordEdits';
import type { MirrorRecordView } from './mirrorTypes';
import type { ModuleContext } from './moduleContext';
import { recordRowOf } from './recordRowOf';

interface RowWithJoins extends StoredRecordRow {
  owner_name: string | null;
  owner_email: string | null;
  comments_mirrored: number;
}

export function recordViews(
  statements: StatementCache,
  context: ModuleContext,
  moduleId: string,
  keys: number[],
): MirrorRecordView[] {
  if (keys.length === 0) return [];
  const rows = statements.get(queries.rowsByKeys).all(JSON.stringify(keys)) as RowWithJoins[];
  const byKey = new Map(rows.map((row) => [row.row_key, row]));
  const portalId = rows[0]?.portal_id ?? '';
  const byRecord = editsByRecord(
    statements
      .get(queries.editsOf)
      .all(portalId, JSON.stringify(rows.map((r) => r.id))) as EditRow[],
  );
  return keys.flatMap((key) => {
    const stored = byKey.get(key);
    if (!stored) return [];
    const recordEdits = byRecord.get(stored.id) ?? [];
    const row = mergeRecordEdits(stored, recordEdits, context.closedStatusIds);
    const status = row.status_id === null ? undefined : context.statuses.get(row.status_id);
    const view: MirrorRecordView = recordRowOf(
      stored,
      moduleId,
      row,
      recordEdits,
      status && {
        name: status.name,
        color: status.color,
        isClosedType: status.isClosedType === 1,
      },
      { name: stored.owner_name, email: stored.owner_email },
    );
    return [view];
  });
}
