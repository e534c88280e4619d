/**
 * The records import's journal (`queries/importRuns.sql`, migration 0032): an import being queued,
 * and per row the outbox operation it wrote or folded into. No decisions here. Writes run inside
 * the caller's transaction (the outbox's: one connection), so a row's operation and its journal
 * entry are written together or not at all.
 */
import type Database from 'better-sqlite3';
import type { BulkEditRecordRow } from '../bulkEdit/bulkEditRepository';
import { namedStatements } from '../store/namedStatements';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import importRunsSql from './queries/importRuns.sql?raw';

const NAMES = [
  'insertRun',
  'runs',
  'insertRow',
  'rowRecords',
  'lastRows',
  'deleteRow',
  'deleteRun',
] as const;
const queries = requireQueries(
  parseNamedQueries(importRunsSql, 'importRuns.sql'),
  NAMES,
  'importRuns.sql',
);

/** An update's field as the row changed it: what taking it back compares and restores. */
export type JournaledField = Pick<
  BulkEditRecordRow,
  'previous' | 'written' | 'opBefore' | 'opAfter'
>;

export interface ImportRunRow {
  row: number;
  recordId: string;
  opSeq: number;
  created: boolean;
  fields: Record<string, JournaledField>;
}

export interface StoredImportRun {
  id: string;
  portalId: string;
  moduleId: string;
  fileName: string;
  /** Rows the check found ready when the user confirmed. */
  confirmed: number;
  /** Rows queued (journaled) so far. */
  queued: number;
  /** What a restart needs to finish it (RecordsImports' own shape). */
  import: unknown;
  startedAt: string;
}

export class ImportRunsRepository {
  private readonly statement: (name: (typeof NAMES)[number]) => Database.Statement;

  constructor(
    db: Database.Database,
    private readonly now: () => number,
  ) {
    this.statement = namedStatements(db, queries);
  }

  insertRun(run: Omit<StoredImportRun, 'queued' | 'startedAt'>): void {
    this.statement('insertRun').run({
      id: run.id,
      portalId: run.portalId,
      moduleId: run.moduleId,
      fileName: run.fileName,
      confirmed: run.confirmed,
      import: JSON.stringify(run.import),
      now: new Date(this.now()).toISOString(),
    });
  }

  runs(): StoredImportRun[] {
    const rows = this.statement('runs').all() as {
      id: string;
      portal_id: string;
      module_id: string;
      file_name: string;
      confirmed: number;
      queued: number;
      import: string;
      started_at: string;
    }[];
    return rows.map((row) => ({
      id: row.id,
      portalId: row.portal_id,
      moduleId: row.module_id,
      fileName: row.file_name,
      confirmed: row.confirmed,
      queued: row.queued,
      import: JSON.parse(row.import) as unknown,
      startedAt: row.started_at,
    }));
  }

  insertRow(importId: string, row: ImportRunRow): void {
    this.statement('insertRow').run({
      importId,
      row: row.row,
      recordId: row.recordId,
      opSeq: row.opSeq,
      created: row.created ? 1 : 0,
      fields: JSON.stringify(row.fields),
    });
  }

  /** The file's rows queued so far, with their records: a finish skips them. */
  rowRecords(importId: string): Map<number, string> {
    const rows = this.statement('rowRecords').raw().all(importId) as [number, string][];
    return new Map(rows);
  }

  /** The rows queued last, at most `limit`, last first. */
  lastRows(importId: string, limit: number): ImportRunRow[] {
    const rows = this.statement('lastRows').all({ importId, limit }) as {
      row: number;
      record_id: string;
      op_seq: number;
      created: number;
      fields: string;
    }[];
    return rows.map((row) => ({
      row: row.row,
      recordId: row.record_id,
      opSeq: row.op_seq,
      created: row.created === 1,
      fields: JSON.parse(row.fields) as Record<string, JournaledField>,
    }));
  }

  deleteRow(importId: string, row: number): void {
    this.statement('deleteRow').run({ importId, row });
  }

  /** The run ends: its operations are no longer held. */
  deleteRun(importId: string): void {
    this.statement('deleteRun').run(importId);
  }
}
