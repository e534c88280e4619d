/**
 * A module's rows with pending local edits (list_state 1), their options as queued option changes
 * leave them (storedRowAsQueued) and merged with their edits, as the lists show them: kept per module until anything is written (RecordQuery clears them), and as the JSON
 * the `edited_rows` CTE of mirrorQuery.sql reads, so the same filter and sort SQL reads both.
 */
import { listQueries as queries, type StatementCache } from './listStatements';
import { mergeRecordEdits, type RecordEdit, type StoredRecordRow } from './mergeRecordEdits';
import type { ModuleContext } from './moduleContext';
import { storedRowAsQueued } from './storedRowAsQueued';

/** A stored edit: its record, its field, its value as JSON. */
export interface EditRow {
  recordId: string;
  field: string;
  value: string;
}

/** Stored edits (JSON values) grouped by record id, in the order they were made. Pure. */
export function editsByRecord(rows: readonly EditRow[]): Map<string, RecordEdit[]> {
  const byRecord = new Map<string, RecordEdit[]>();
  for (const row of rows) {
    const list = byRecord.get(row.recordId) ?? [];
    list.push({ field: row.field, value: JSON.parse(row.value) as unknown });
    byRecord.set(row.recordId, list);
  }
  return byRecord;
}

export class EditedRows {
  private readonly byModule = new Map<number, { rows: StoredRecordRow[]; json: string }>();

  constructor(private readonly statements: StatementCache) {}

  clear(): void {
    this.byModule.clear();
  }

  /** The module's edited rows, merged, and their JSON. */
  of(context: ModuleContext): { rows: StoredRecordRow[]; json: string } {
    const known = this.byModule.get(context.moduleKey);
    if (known) return known;
    const rows = this.statements
      .get(queries.editedRows)
      .all(context.moduleKey) as StoredRecordRow[];
    const byRecord = editsByRecord(
      this.statements.get(queries.editsOfModule).all(context.moduleKey) as EditRow[],
    );
    const merged = rows.map((row) =>
      mergeRecordEdits(
        storedRowAsQueued(row, context.relabel),
        byRecord.get(row.id) ?? [],
        context.closedStatusIds,
      ),
    );
    const result = { rows: merged, json: JSON.stringify(merged) };
    this.byModule.set(context.moduleKey, result);
    return result;
  }
}
