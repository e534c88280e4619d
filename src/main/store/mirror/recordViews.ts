/**
 * A window's rows as the lists show them (MirrorRecordView): each stored row's options as queued
 * option changes leave them (storedRowAsQueued), its pending edits merged, its status's name and colour, its owner's name and whether its comments are
 * mirrored, in the window's order.
 */
import type Database from 'better-sqlite3';
import { editsByRecord, type EditRow } from './editedRows';
import { listQueries as queries, type StatementCache } from './listStatements';
import { mergeRecordEdits, type StoredRecordRow } from './mergeRecordEdits';
import type { MirrorRecordView } from './mirrorTypes';
import type { ModuleContext } from './moduleContext';
import { recordRowOf } from './recordRowOf';
import { storedRowAsQueued } from './storedRowAsQueued';

interface RowWithJoins extends StoredRecordRow {
  owner_name: string | null;
  owner_email: string | null;
  comments_mirrored: number;
}

/**
 * rowsByKeys' columns, in its SELECT's order. The statement is read raw (an array a row) and each
 * array made an object here: better-sqlite3 building 23-key objects itself cost about 3 µs a row
 * more (bench/README.md, "the export's row read"), the larger part of a list window's and an
 * export batch's read.
 */
const ROW_COLUMNS = [
  'row_key',
  'portal_id',
  'module_key',
  'id',
  'name',
  'name_fold',
  'name_sort',
  'description',
  'status_id',
  'layout_id',
  'project_id',
  'project_name',
  'owner_zpuid',
  'is_closed',
  'is_external',
  'created_time',
  'last_updated_time',
  'trashed_time',
  'custom',
  'local_only',
  'owner_name',
  'owner_email',
  'comments_mirrored',
] as const satisfies readonly (keyof RowWithJoins)[];

/** The row a raw rowsByKeys array holds (columns in ROW_COLUMNS' order). */
function rowOf(a: unknown[]): RowWithJoins {
  return {
    row_key: a[0] as number,
    portal_id: a[1] as string,
    module_key: a[2] as number,
    id: a[3] as string,
    name: a[4] as string,
    name_fold: a[5] as string,
    name_sort: a[6] as string,
    description: a[7] as string,
    status_id: a[8] as string | null,
    layout_id: a[9] as string | null,
    project_id: a[10] as string | null,
    project_name: a[11] as string | null,
    owner_zpuid: a[12] as string | null,
    is_closed: a[13] as number,
    is_external: a[14] as number,
    created_time: a[15] as string,
    last_updated_time: a[16] as string,
    trashed_time: a[17] as string | null,
    custom: a[18] as string,
    local_only: a[19] as number,
    owner_name: a[20] as string | null,
    owner_email: a[21] as string | null,
    comments_mirrored: a[22] as number,
  };
}

/** Statements whose columns were checked (once each: a window's read is a hot path). */
const checked = new WeakSet<Database.Statement>();

/** rowsByKeys, raw, after checking its columns are ROW_COLUMNS (a changed SELECT fails loudly). */
function rowsStatement(statements: StatementCache): Database.Statement {
  const statement = statements.get(queries.rowsByKeys);
  if (checked.has(statement)) return statement;
  const names = statement.columns().map((column) => column.name);
  if (names.length !== ROW_COLUMNS.length || names.some((name, i) => name !== ROW_COLUMNS[i])) {
    throw new Error(
      `rowsByKeys selects ${names.join(', ')}; recordViews reads ${ROW_COLUMNS.join(', ')}`,
    );
  }
  statement.raw(true);
  checked.add(statement);
  return statement;
}

export function recordViews(
  statements: StatementCache,
  context: ModuleContext,
  moduleId: string,
  keys: number[],
): MirrorRecordView[] {
  if (keys.length === 0) return [];
  const raw = rowsStatement(statements).all(JSON.stringify(keys)) as unknown[][];
  const byKey = new Map<number, RowWithJoins>();
  for (const a of raw) byKey.set(a[0] as number, rowOf(a));
  const portalId = (raw[0]?.[1] as string | undefined) ?? '';
  const byRecord = editsByRecord(
    statements
      .get(queries.editsOf)
      .all(portalId, JSON.stringify(raw.map((a) => a[3]))) as EditRow[],
  );
  const views: MirrorRecordView[] = [];
  for (const key of keys) {
    const stored = byKey.get(key);
    if (!stored) continue;
    const recordEdits = byRecord.get(stored.id) ?? NO_EDITS;
    const row = mergeRecordEdits(
      storedRowAsQueued(stored, context.relabel),
      recordEdits,
      context.closedStatusIds,
    );
    const status = row.status_id === null ? undefined : context.statuses.get(row.status_id);
    views.push(
      recordRowOf(
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
      ),
    );
  }
  return views;
}

const NO_EDITS: readonly never[] = [];
