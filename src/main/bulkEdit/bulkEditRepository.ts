/**
 * The bulk edits' own tables (`queries/bulkEdits.sql`, migration 0018): each bulk edit, and per
 * record the outbox operation it wrote or folded into with the field's entry before and after.
 * No decisions here. Writes run inside the caller's transaction (the outbox's, one connection).
 */
import type Database from 'better-sqlite3';
import { namedStatements } from '../store/namedStatements';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import type { FieldEntry, OpStatus } from '../outbox/outboxTypes';
import type { BulkAction } from './bulkPlan';
import bulkEditsSql from './queries/bulkEdits.sql?raw';

const NAMES = [
  'insertBulkEdit',
  'insertRecord',
  'bulkEdit',
  'recordsOf',
  'markUndone',
  'markFinished',
  'deleteBulkEdit',
  'followRequeuedOp',
  'groups',
  'entriesOfField',
  'setEntries',
  'valuesOfField',
  'setValue',
] as const;
const queries = requireQueries(
  parseNamedQueries(bulkEditsSql, 'bulkEdits.sql'),
  NAMES,
  'bulkEdits.sql',
);

export interface StoredBulkEdit {
  id: number;
  portalId: string;
  moduleId: string;
  field: string;
  label: string;
  action: BulkAction;
  value: unknown;
  createdAt: string;
  state: 'queued' | 'undone';
  /** Records the preview counted as changing (null: made before 0032). */
  planned: number | null;
  /** Its apply wrote its last batch (or an undo stopped it). */
  finished: boolean;
}

export interface BulkEditRecordRow {
  recordId: string;
  opSeq: number;
  coalesced: boolean;
  /** The field's entry in the operation before the bulk edit; null: it did not hold the field. */
  previous: FieldEntry | null;
  /** The field's entry the bulk edit wrote; null: it took the field out (a revert). */
  written: FieldEntry | null;
  /** The folded-into operation's status before the fold; null: the bulk edit made it (or pre-0024). */
  opBefore: OpStatus | null;
  /** Its status right after the fold; null: the fold dropped it (or as above). */
  opAfter: OpStatus | null;
}

export interface BulkEditGroupRow extends StoredBulkEdit {
  records: number;
  /** Of `records`, operations still in the outbox; `sending` and `stuck` (failed, conflict) of those. */
  queued: number;
  sending: number;
  stuck: number;
  /** Of `records`, the user's own queued edits the bulk edit dropped, which an undo queues again. */
  reverted: number;
}

interface BulkEditRow {
  id: number;
  portal_id: string;
  module_id: string;
  field: string;
  label: string;
  action: BulkAction;
  value: string | null;
  created_at: string;
  state: 'queued' | 'undone';
  planned: number | null;
  finished: number;
}

function parseBulkEdit(row: BulkEditRow): StoredBulkEdit {
  return {
    id: row.id,
    portalId: row.portal_id,
    moduleId: row.module_id,
    field: row.field,
    label: row.label,
    action: row.action,
    value: row.value === null ? null : (JSON.parse(row.value) as unknown),
    createdAt: row.created_at,
    state: row.state,
    planned: row.planned,
    finished: row.finished === 1,
  };
}

export class BulkEditRepository {
  private readonly statement: (name: (typeof NAMES)[number]) => Database.Statement;

  constructor(
    db: Database.Database,
    private readonly now: () => number,
  ) {
    this.statement = namedStatements(db, queries);
  }

  insertBulkEdit(edit: {
    portalId: string;
    moduleId: string;
    field: string;
    label: string;
    action: BulkAction;
    value: unknown;
    planned: number;
  }): number {
    return this.statement('insertBulkEdit')
      .pluck()
      .get({
        ...edit,
        value: edit.value === undefined ? null : JSON.stringify(edit.value),
        now: new Date(this.now()).toISOString(),
      }) as number;
  }

  insertRecord(bulkEditId: number, row: BulkEditRecordRow): void {
    this.statement('insertRecord').run({
      bulkEditId,
      recordId: row.recordId,
      opSeq: row.opSeq,
      coalesced: row.coalesced ? 1 : 0,
      previous: row.previous === null ? null : JSON.stringify(row.previous),
      written: row.written === null ? null : JSON.stringify(row.written),
      opBefore: row.opBefore === null ? null : JSON.stringify(row.opBefore),
      opAfter: row.opAfter === null ? null : JSON.stringify(row.opAfter),
    });
  }

  bulkEdit(id: number): StoredBulkEdit | undefined {
    const row = this.statement('bulkEdit').get(id) as BulkEditRow | undefined;
    return row ? parseBulkEdit(row) : undefined;
  }

  recordsOf(id: number): BulkEditRecordRow[] {
    const rows = this.statement('recordsOf').all(id) as {
      record_id: string;
      op_seq: number;
      coalesced: number;
      previous: string | null;
      written: string | null;
      op_before: string | null;
      op_after: string | null;
    }[];
    return rows.map((row) => ({
      recordId: row.record_id,
      opSeq: row.op_seq,
      coalesced: row.coalesced === 1,
      previous: row.previous === null ? null : (JSON.parse(row.previous) as FieldEntry),
      written: row.written === null ? null : (JSON.parse(row.written) as FieldEntry),
      opBefore: row.op_before === null ? null : (JSON.parse(row.op_before) as OpStatus),
      opAfter: row.op_after === null ? null : (JSON.parse(row.op_after) as OpStatus),
    }));
  }

  markUndone(id: number): void {
    this.statement('markUndone').run(id);
  }

  markFinished(id: number): void {
    this.statement('markFinished').run(id);
  }

  /** A bulk edit that queued nothing is not kept. */
  deleteBulkEdit(id: number): void {
    this.statement('deleteBulkEdit').run(id);
  }

  /** The records linked to operation `from` link to `to`, where the outbox moved it. */
  followRequeuedOp(from: number, to: number): void {
    this.statement('followRequeuedOp').run({ from, to });
  }

  /**
   * The entries (before and written) of a module's bulk edits of one field not undone, by row:
   * what follows an option rename.
   */
  entriesOfField(
    portalId: string,
    moduleId: string,
    field: string,
  ): { row: number; previous: FieldEntry | null; written: FieldEntry | null }[] {
    const rows = this.statement('entriesOfField').all({ portalId, moduleId, field }) as {
      row: number;
      previous: string | null;
      written: string | null;
    }[];
    return rows.map((row) => ({
      row: row.row,
      previous: row.previous === null ? null : (JSON.parse(row.previous) as FieldEntry),
      written: row.written === null ? null : (JSON.parse(row.written) as FieldEntry),
    }));
  }

  setEntries(row: number, previous: FieldEntry | null, written: FieldEntry | null): void {
    this.statement('setEntries').run({
      row,
      previous: previous === null ? null : JSON.stringify(previous),
      written: written === null ? null : JSON.stringify(written),
    });
  }

  /** The values the user gave a module's bulk edits of one field not undone (none: a clear). */
  valuesOfField(
    portalId: string,
    moduleId: string,
    field: string,
  ): { id: number; value: unknown }[] {
    const rows = this.statement('valuesOfField').all({ portalId, moduleId, field }) as {
      id: number;
      value: string;
    }[];
    return rows.map((row) => ({ id: row.id, value: JSON.parse(row.value) as unknown }));
  }

  setValue(id: number, value: unknown): void {
    this.statement('setValue').run({ id, value: JSON.stringify(value) });
  }

  /** Bulk edits not undone, newest first, with what is left of them in the outbox. */
  groups(limit: number): BulkEditGroupRow[] {
    const rows = this.statement('groups').all({ limit }) as (BulkEditRow & {
      records: number;
      queued: number;
      sending: number;
      stuck: number;
      reverted: number;
    })[];
    return rows.map((row) => ({
      ...parseBulkEdit(row),
      records: row.records,
      queued: row.queued,
      sending: row.sending,
      stuck: row.stuck,
      reverted: row.reverted,
    }));
  }
}
