import type Database from 'better-sqlite3';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import { foldText } from '@portaldesk/portal-api/filter';
import { naturalSortKey } from '@portaldesk/portal-api/domain/naturalOrder';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import recordsSql from '../queries/mirrorRecords.sql?raw';
import type { FullTextIndex } from './fullTextIndex';
import type { MetadataRepository } from './metadataRepository';
import { writeChanges, type ChangeLog, type MirrorChanges } from './mirrorChanges';
import { MirrorWriteError } from './mirrorWriteError';
import { InsertedRows } from './insertedRows';

// Also importable from here, where it used to live (src/main/sync imports it so).
export { MirrorWriteError };
import { canonicalInstant } from '@portaldesk/portal-api/domain/instant';
import type { MirrorCursor, MirrorCursorUpdate, MirrorRecord, MirrorUser } from './mirrorTypes';

const queries = requireQueries(
  parseNamedQueries(recordsSql, 'mirrorRecords.sql'),
  [
    'storedIds',
    'insertRecord',
    'upsertRecord',
    'markEdited',
    'timestampFields',
    'createKeepTable',
    'clearKeepTable',
    'addKeepIds',
    'deleteNotKept',
    'deleteIn',
    'countServerCopies',
    'layoutUse',
    'fieldValueCount',
    'optionUse',
    'relabelPickList',
    'relabelMultiSelect',
    'clearFieldValues',
    'statusUse',
    'statusTimelineUse',
    'followStatusClosedType',
    'census',
    'serverCopy',
    'listedServerIds',
    'cursor',
    'writeCursor',
  ] as const,
  'mirrorRecords.sql',
);

/** Ids bound per json_each parameter when filling the reconciliation's temp table. */
const KEEP_IDS_CHUNK = 10_000;

export interface UpsertOptions {
  /** People the records mention (owners, users in custom fields), written in the same transaction. */
  users?: readonly MirrorUser[];
}

const flag = (value: boolean): number => (value ? 1 : 0);

/**
 * Records of custom modules: batch upserts (each batch one transaction, optionally with its pull
 * cursor), reconciliation of deletions, and the cursors. Every write reports what it changed.
 */
/** A record's server copy, as compared with a backup's (backups/archiveDiff.ts). */
export type ServerCopy = Pick<
  MirrorRecord,
  | 'id'
  | 'name'
  | 'description'
  | 'statusId'
  | 'layoutId'
  | 'projectId'
  | 'ownerZpuid'
  | 'isClosed'
  | 'isExternal'
  | 'custom'
> & { module: string };

export class RecordRepository {
  private readonly storedIds: Database.Statement;
  private readonly insertRecord: Database.Statement;
  private readonly upsertRecord: Database.Statement;
  private readonly markEdited: Database.Statement;
  private readonly timestampFields: Database.Statement;
  private readonly readCursor: Database.Statement;
  private readonly writeCursorRow: Database.Statement;
  private readonly insertedRows: InsertedRows;

  constructor(
    private readonly db: Database.Database,
    private readonly metadata: MetadataRepository,
    private readonly fullText: FullTextIndex,
    private readonly now: () => number = Date.now,
  ) {
    this.storedIds = db.prepare(queries.storedIds).pluck();
    this.insertRecord = db.prepare(queries.insertRecord);
    this.upsertRecord = db.prepare(queries.upsertRecord);
    this.markEdited = db.prepare(queries.markEdited);
    this.timestampFields = db.prepare(queries.timestampFields).pluck();
    this.readCursor = db.prepare(queries.cursor);
    this.writeCursorRow = db.prepare(queries.writeCursor);
    this.insertedRows = new InsertedRows(db);
  }

  /** Upserts a batch in one transaction. */
  upsertRecords(records: readonly MirrorRecord[], options: UpsertOptions = {}): MirrorChanges {
    return writeChanges(this.db, (log) => this.upsertIn(log, records, options));
  }

  /**
   * One page of a pull and its cursor in one transaction: after a crash or a kill either both
   * are stored or neither, so the pull resumes from the page after the last one stored.
   */
  upsertRecordPage(
    records: readonly MirrorRecord[],
    cursor: MirrorCursorUpdate,
    options: UpsertOptions = {},
  ): MirrorChanges {
    return writeChanges(this.db, (log) => {
      this.upsertIn(log, records, options);
      this.writeCursorIn(log, cursor);
    });
  }

  private moduleKeys(records: readonly MirrorRecord[]): Map<string, number> {
    const keys = new Map<string, number>();
    for (const record of records) {
      const scope = `${record.portalId}\u0000${record.moduleId}`;
      if (keys.has(scope)) continue;
      const key = this.metadata.moduleKey(record.portalId, record.moduleId);
      if (key === undefined) {
        throw new MirrorWriteError(
          `Record ${record.id} belongs to module ${record.moduleId} of portal ${record.portalId}, ` +
            'which is not in the local mirror yet. Nothing of this batch was stored; mirror the ' +
            "portal's modules first, then its records.",
        );
      }
      keys.set(scope, key);
    }
    return keys;
  }

  /**
   * A record's custom values as stored: time stamp fields' values written as canonical instants
   * (packages/portal-api/src/domain/instant.ts; their filters compare them as text), the other
   * values and the key order as the service sent them. `stamps`: each module's time stamp fields,
   * read once a batch.
   */
  private storedCustom(record: MirrorRecord, stamps: Map<string, readonly string[]>): string {
    const scope = `${record.portalId}\u0000${record.moduleId}`;
    let fields = stamps.get(scope);
    if (!fields) {
      fields = this.timestampFields.all(record.portalId, record.moduleId) as string[];
      stamps.set(scope, fields);
    }
    let custom = record.custom;
    for (const field of fields) {
      const value = custom[field];
      if (typeof value !== 'string') continue;
      const canonical = canonicalInstant(value);
      if (canonical !== value) custom = { ...custom, [field]: canonical };
    }
    return JSON.stringify(custom);
  }

  private upsertIn(log: ChangeLog, records: readonly MirrorRecord[], options: UpsertOptions): void {
    const keys = this.moduleKeys(records);
    const stamps = new Map<string, readonly string[]>();
    const byPortal = new Map<string, MirrorRecord[]>();
    for (const record of records) {
      const list = byPortal.get(record.portalId);
      if (list) list.push(record);
      else byPortal.set(record.portalId, [record]);
    }
    for (const [portalId, list] of byPortal) {
      const stored = new Set(
        this.storedIds.all(portalId, JSON.stringify(list.map((r) => r.id))) as string[],
      );
      const inserted: string[] = [];
      // Rows inserted whose additions (insertedRows.ts) are not made yet, and their ids.
      let insertedRows: (number | bigint)[] = [];
      const unadded = new Set<string>();
      const addInserted = () => {
        this.insertedRows.inserted(insertedRows);
        insertedRows = [];
        unadded.clear();
      };
      for (const record of list) {
        const row = [
          portalId,
          keys.get(`${portalId}\u0000${record.moduleId}`),
          record.id,
          record.name,
          foldText(record.name),
          naturalSortKey(record.name),
          record.description,
          record.statusId,
          record.layoutId,
          record.projectId,
          record.projectName,
          record.ownerZpuid,
          flag(record.isClosed),
          flag(record.isExternal),
          record.createdTime,
          record.lastUpdatedTime,
          record.trashedTime,
          this.storedCustom(record, stamps),
          // list_state: a new row has no edits yet (markEdited below sets them).
          record.trashedTime === null ? 0 : 2,
        ];
        if (!stored.has(record.id)) {
          insertedRows.push(this.insertRecord.run(row).lastInsertRowid);
          // A batch may hold a record twice (a list that shifted between two pages).
          stored.add(record.id);
          unadded.add(record.id);
          inserted.push(record.id);
          log.upserted('records', record.id, false, true);
        } else {
          // The triggers that keep the counts beside the rows move a row's count when the upsert
          // changes it: a row inserted in this batch must be counted first, or it is counted
          // twice (by the trigger, then by the batch's addition).
          if (unadded.has(record.id)) addInserted();
          if (this.upsertRecord.run(row).changes > 0)
            log.upserted('records', record.id, true, true);
        }
      }
      if (inserted.length > 0) this.markEdited.run(portalId, portalId, JSON.stringify(inserted));
      // After markEdited: a row with pending edits is no listed server copy (list_state 1).
      addInserted();
    }
    const users = options.users ?? [];
    if (users.length > 0) {
      const portals = new Set(records.map((r) => r.portalId));
      for (const portalId of portals) this.metadata.upsertUsersIn(log, portalId, users);
    }
    this.fullText.flushIfDue();
  }

  /**
   * Reconciliation: deletes the module's server copies whose ids are not in `keepIds` (the ids
   * the server lists), with their comments and timelines. Local-only records and local edits are
   * kept. The ids go through a temporary table, so 100,000 of them cost one indexed pass.
   */
  deleteRecordsNotIn(portalId: string, moduleId: string, keepIds: Iterable<string>): MirrorChanges {
    const key = this.metadata.moduleKey(portalId, moduleId);
    if (key === undefined) return {};
    this.db.prepare(queries.createKeepTable).run();
    const clear = this.db.prepare(queries.clearKeepTable);
    const add = this.db.prepare(queries.addKeepIds);
    return writeChanges(this.db, (log) => {
      clear.run();
      let chunk: string[] = [];
      for (const id of keepIds) {
        chunk.push(id);
        if (chunk.length === KEEP_IDS_CHUNK) {
          add.run(JSON.stringify(chunk));
          chunk = [];
        }
      }
      if (chunk.length > 0) add.run(JSON.stringify(chunk));
      const deleted = this.db.prepare(queries.deleteNotKept).pluck().all(key) as string[];
      log.add('records', 'deleted', deleted);
      clear.run();
      this.fullText.flushIfDue();
    });
  }

  /** Deletes server copies by id (records the server reported deleted). */
  deleteRecords(portalId: string, ids: readonly string[]): MirrorChanges {
    return writeChanges(this.db, (log) => {
      const deleted = this.db
        .prepare(queries.deleteIn)
        .pluck()
        .all(portalId, JSON.stringify(ids)) as string[];
      log.add('records', 'deleted', deleted);
      this.fullText.flushIfDue();
    });
  }

  /** Mirrored records of a module (trashed ones included) holding a value of a custom field. */
  fieldValueCount(portalId: string, moduleId: string, apiName: string): number {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined || !/^[A-Za-z0-9_]+$/.test(apiName)) return 0;
    return this.db
      .prepare(queries.fieldValueCount)
      .pluck()
      .get({ moduleKey, path: `$."${apiName}"` }) as number;
  }

  /** Per option name of a pick list or multi-select, the module's records holding it. */
  optionUse(portalId: string, moduleId: string, apiName: string): Map<string, number> {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined || !/^[A-Za-z0-9_]+$/.test(apiName)) return new Map();
    const rows = this.db.prepare(queries.optionUse).all({ moduleKey, path: `$."${apiName}"` }) as {
      name: string;
      records: number;
    }[];
    return new Map(rows.map((row) => [row.name, row.records]));
  }

  /**
   * Options renamed (`from` → name) or removed (→ null) on the service, which relabels or clears
   * their records' values without a new last_updated_time, so no pull would bring it: the server
   * copies here follow the same way, every pair at once (a swap or a cycle of names stays one).
   * Returns the records changed.
   */
  relabelOptions(
    portalId: string,
    moduleId: string,
    field: { apiName: string; multi: boolean },
    relabel: ReadonlyMap<string, string | null>,
  ): number {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined || relabel.size === 0 || !/^[A-Za-z0-9_]+$/.test(field.apiName))
      return 0;
    const statement = field.multi ? queries.relabelMultiSelect : queries.relabelPickList;
    return this.db.prepare(statement).run({
      moduleKey,
      path: `$."${field.apiName}"`,
      relabel: JSON.stringify([...relabel]),
    }).changes;
  }

  /**
   * A custom field deleted on the service, which clears its values from the module's records
   * without a new last_updated_time, so no pull would bring it: the server copies here follow (the
   * triggers keep record_multi_values in step). Returns the records changed.
   */
  clearFieldValues(portalId: string, moduleId: string, apiName: string): number {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined || !/^[A-Za-z0-9_]+$/.test(apiName)) return 0;
    return this.db.prepare(queries.clearFieldValues).run({ moduleKey, path: `$."${apiName}"` })
      .changes;
  }

  /**
   * Per status id of a module: its records (trashed and offline-created ones included) and the
   * entries of their mirrored status timelines naming it.
   */
  statusUse(
    portalId: string,
    moduleId: string,
  ): Map<string, { records: number; timeline: number }> {
    const use = new Map<string, { records: number; timeline: number }>();
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined) return use;
    const entry = (id: string) => use.get(id) ?? { records: 0, timeline: 0 };
    for (const row of this.db.prepare(queries.statusUse).all({ moduleKey }) as {
      id: string;
      records: number;
    }[]) {
      use.set(row.id, { ...entry(row.id), records: row.records });
    }
    for (const row of this.db.prepare(queries.statusTimelineUse).all({ moduleKey }) as {
      id: string;
      uses: number;
    }[]) {
      use.set(row.id, { ...entry(row.id), timeline: row.uses });
    }
    return use;
  }

  /**
   * A status made closed or open on the service, which closes or reopens its records there without
   * a new last_updated_time: the server copies here follow. Returns the records changed.
   */
  followStatusClosedType(
    portalId: string,
    moduleId: string,
    statusId: string,
    closed: boolean,
  ): number {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined) return 0;
    return this.db
      .prepare(queries.followStatusClosedType)
      .run({ moduleKey, statusId, closed: closed ? 1 : 0 }).changes;
  }

  /** Mirrored records (trashed ones included) whose layout is `layoutId`. */
  layoutUse(portalId: string, layoutId: string): number {
    return this.db.prepare(queries.layoutUse).pluck().get(portalId, layoutId) as number;
  }

  /** The stored records the server's count of the module should equal (0 if not mirrored). */
  countServerCopies(portalId: string, moduleId: string): number {
    const key = this.metadata.moduleKey(portalId, moduleId);
    if (key === undefined) return 0;
    return this.db.prepare(queries.countServerCopies).pluck().get(key, key) as number;
  }

  /**
   * Per module of a portal: its listed server records and how many were created after `since`
   * (ISO time); what a verified backup is compared with.
   */
  census(
    portalId: string,
    since: string,
  ): { apiName: string; pluralName: string; records: number; createdSince: number }[] {
    return this.db.prepare(queries.census).all({ portalId, since }) as {
      apiName: string;
      pluralName: string;
      records: number;
      createdSince: number;
    }[];
  }

  /** A listed record as the service last sent it, without local edits; undefined if not held. */
  serverCopy(portalId: string, id: string): ServerCopy | undefined {
    const row = this.db.prepare(queries.serverCopy).get(portalId, id) as
      | (Omit<ServerCopy, 'custom' | 'isClosed' | 'isExternal'> & {
          custom: string;
          isClosed: number;
          isExternal: number;
        })
      | undefined;
    if (!row) return undefined;
    return {
      ...row,
      isClosed: row.isClosed === 1,
      isExternal: row.isExternal === 1,
      custom: parseJsonObject(row.custom),
    };
  }

  /** Every listed server record of a portal: id, module api name and name. */
  listedServerIds(portalId: string): { id: string; module: string; name: string }[] {
    return this.db.prepare(queries.listedServerIds).all(portalId) as {
      id: string;
      module: string;
      name: string;
    }[];
  }

  cursor(portalId: string, moduleId: string): MirrorCursor | undefined {
    return this.readCursor.get(portalId, moduleId) as MirrorCursor | undefined;
  }

  /** Writes the given fields of a cursor; the others keep their stored value. */
  writeCursor(update: MirrorCursorUpdate): MirrorChanges {
    return writeChanges(this.db, (log) => this.writeCursorIn(log, update));
  }

  private writeCursorIn(log: ChangeLog, update: MirrorCursorUpdate): void {
    const stored = this.cursor(update.portalId, update.moduleId);
    const given = Object.fromEntries(
      Object.entries(update).filter(([, value]) => value !== undefined),
    ) as MirrorCursorUpdate;
    const next: MirrorCursor = {
      highWater: null,
      scanIndex: null,
      scanAfter: null,
      fullStartedAt: null,
      fullCompletedAt: null,
      lastReconciledAt: null,
      ...stored,
      ...given,
      updatedAt: new Date(this.now()).toISOString(),
    };
    this.writeCursorRow.run(next);
    log.add('sync_cursors', stored ? 'updated' : 'inserted', [update.moduleId]);
  }
}
