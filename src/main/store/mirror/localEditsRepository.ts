/**
 * The user's local changes to the mirror's tables, the only writer of them besides the pulls: the
 * overlay of pending edits (record_edits, whose triggers keep records.edited and list_state),
 * records created offline (local_only rows), trash and restore shown at once, and the rows a
 * replay writes back (a deleted server copy, comments added, changed or deleted). The outbox
 * decides what to write and groups the writes with its own in one transaction (same connection).
 */
import type Database from 'better-sqlite3';
import { foldText } from '@portaldesk/portal-api/filter';
import { naturalSortKey } from '@portaldesk/portal-api/domain/naturalOrder';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import { namedStatements } from '../namedStatements';
import localEditsSql from '../queries/mirrorLocalEdits.sql?raw';
import type { StoredRecordRow } from './mergeRecordEdits';
import { InsertedRows } from './insertedRows';

const NAMES = [
  'editsOfRecord',
  'upsertEdit',
  'deleteEdit',
  'moveEdits',
  'record',
  'insertLocalRecord',
  'updateLocalRecord',
  'deleteLocalRecord',
  'setTrashed',
  'deleteServerCopy',
  'upsertComment',
  'deleteComment',
  'comment',
] as const;

const queries = requireQueries(
  parseNamedQueries(localEditsSql, 'mirrorLocalEdits.sql'),
  NAMES,
  'mirrorLocalEdits.sql',
);

/** A `records` row with its module (the server copy, or a record created offline). */
export interface StoredRecord extends Omit<
  StoredRecordRow,
  'row_key' | 'name_fold' | 'name_sort' | 'project_id' | 'project_name'
> {
  module_id: string;
  module_api_name: string;
  module_name: string;
}

export interface LocalRecordValues {
  name: string;
  description: string;
  statusId: string | null;
  isClosed: boolean;
  isExternal: boolean;
  custom: Record<string, unknown>;
}

/** One field's pending edit as the lists show it (a record_edits row). */
export interface OverlayValue {
  value: unknown;
  base: unknown;
  /** When the newest change of the field was queued (ISO). */
  editedAt: string;
}

export class LocalEditsRepository {
  private readonly statement: (name: (typeof NAMES)[number]) => Database.Statement;
  private readonly insertedRows: InsertedRows;

  constructor(db: Database.Database) {
    this.statement = namedStatements(db, queries);
    this.insertedRows = new InsertedRows(db);
  }

  // ---- overlay ---------------------------------------------------------------------------------

  /** Makes the record's record_edits rows equal `overlay` (only differing rows are written). */
  writeOverlay(
    portalId: string,
    recordId: string,
    overlay: ReadonlyMap<string, OverlayValue>,
  ): void {
    const existing = this.statement('editsOfRecord').all(portalId, recordId) as {
      field: string;
      value: string;
      base: string | null;
      editedAt: string;
    }[];
    const stored = new Map(existing.map((row) => [row.field, row]));
    for (const row of existing) {
      if (!overlay.has(row.field)) this.statement('deleteEdit').run(portalId, recordId, row.field);
    }
    for (const [field, entry] of overlay) {
      const value = JSON.stringify(entry.value ?? null);
      const base = JSON.stringify(entry.base ?? null);
      const row = stored.get(field);
      if (row && row.value === value && row.base === base && row.editedAt === entry.editedAt) {
        continue;
      }
      this.statement('upsertEdit').run(portalId, recordId, field, value, base, entry.editedAt);
    }
  }

  /** A record created offline got its server id: its overlay follows it. */
  moveEdits(portalId: string, from: string, to: string): void {
    this.statement('moveEdits').run({ portalId, from, to });
  }

  // ---- records -----------------------------------------------------------------------------------

  record(portalId: string, recordId: string): StoredRecord | undefined {
    return this.statement('record').get(portalId, recordId) as StoredRecord | undefined;
  }

  insertLocalRecord(
    portalId: string,
    moduleKey: number,
    id: string,
    layoutId: string | null,
    values: LocalRecordValues,
    at: string,
  ): void {
    const { lastInsertRowid } = this.statement('insertLocalRecord').run({
      portalId,
      moduleKey,
      id,
      layoutId,
      ownerZpuid: null,
      now: at,
      ...this.localColumns(values),
    });
    this.insertedRows.inserted([lastInsertRowid]);
  }

  updateLocalRecord(portalId: string, id: string, values: LocalRecordValues, at: string): void {
    this.statement('updateLocalRecord').run({
      portalId,
      id,
      now: at,
      ...this.localColumns(values),
    });
  }

  private localColumns(values: LocalRecordValues) {
    return {
      name: values.name,
      nameFold: foldText(values.name),
      nameSort: naturalSortKey(values.name),
      description: values.description,
      statusId: values.statusId,
      isClosed: values.isClosed ? 1 : 0,
      isExternal: values.isExternal ? 1 : 0,
      custom: JSON.stringify(values.custom),
    };
  }

  deleteLocalRecord(portalId: string, id: string): void {
    this.statement('deleteLocalRecord').run(portalId, id);
  }

  setTrashed(portalId: string, id: string, trashedTime: string | null): void {
    this.statement('setTrashed').run({ portalId, id, trashedTime });
  }

  deleteServerCopy(portalId: string, id: string): void {
    this.statement('deleteServerCopy').run(portalId, id);
  }

  // ---- comments ----------------------------------------------------------------------------------

  upsertComment(comment: {
    portalId: string;
    recordId: string;
    id: string;
    content: string;
    attachments: string[];
    createdBy: string | null;
    createdTime: string;
    lastUpdatedTime: string;
  }): void {
    this.statement('upsertComment').run({
      ...comment,
      attachments: JSON.stringify(comment.attachments),
    });
  }

  deleteComment(portalId: string, id: string): void {
    this.statement('deleteComment').run(portalId, id);
  }

  comment(
    portalId: string,
    id: string,
  ): { id: string; recordId: string; content: string } | undefined {
    return this.statement('comment').get(portalId, id) as
      { id: string; recordId: string; content: string } | undefined;
  }
}
