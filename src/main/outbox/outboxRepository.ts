/**
 * The outbox's own tables on the store: the operation log and remapped ids, and the
 * reads of mirrored metadata its rules need. What a change does to the mirror's own tables (the
 * overlay, records created offline, replayed rows) is written by the mirror's LocalEdits
 * (src/main/store/mirror/localEditsRepository.ts). No decisions here; the rules are pure modules
 * beside it. Callers group writes with `transaction`, which both share (one connection).
 */
import type Database from 'better-sqlite3';
import type { OpConflict } from '../../shared/ipc/areas/outbox';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import { namedStatements } from '../store/namedStatements';
import type { OpFields, OpKind, OpState, OpStatus, OutboxOp } from './outboxTypes';
import type { OptionsRelabelled } from './relabelOptions';
import outboxSql from './queries/outbox.sql?raw';
import { RECORDS_WAIT_FOR } from './recordsWaitFor';

/** The actions a module's record changes wait for, as the queries bind them. */
const HOLDING = JSON.stringify(RECORDS_WAIT_FOR);

const NAMES = [
  'insertOp',
  'insertOpAt',
  'restoreOp',
  'rewriteOp',
  'deleteOp',
  'requeueOp',
  'op',
  'opsOfRecord',
  'allOps',
  'recordOpsOfModule',
  'valueOpsOfModule',
  'oldestOpsPerState',
  'opsOfPortal',
  'readyHeads',
  'recordsHeldBy',
  'nextAttemptAt',
  'counts',
  'claim',
  'markSending',
  'markWaiting',
  'markFailed',
  'markConflict',
  'setFields',
  'setComment',
  'retryOp',
  'retryWaiting',
  'remapRecordOps',
  'configOpsOfPortal',
  'remapConfigQueue',
  'rewriteTempId',
  'remapCommentOps',
  'insertRemap',
  'adoptedIds',
  'learnAuthor',
  'authorOf',
  'remapOf',
  'portal',
  'module',
  'fields',
  'layoutFieldIds',
  'defaultLayout',
  'options',
  'statuses',
  'transitions',
  'users',
] as const;

const queries = requireQueries(parseNamedQueries(outboxSql, 'outbox.sql'), NAMES, 'outbox.sql');
type Query = (typeof NAMES)[number];

interface OpRow {
  seq: number;
  portal_id: string;
  module_id: string;
  record_id: string;
  kind: OpKind;
  state: OpState;
  fields: string;
  comment_id: string | null;
  content: string | null;
  base_content: string | null;
  edits: number;
  queued_at: string;
  updated_at: string;
  attempts: number;
  next_attempt_at: number | null;
  sent_body: string | null;
  sent_at: string | null;
  error: string | null;
  conflict: string | null;
  action: string | null;
}

function parseOp(row: OpRow): OutboxOp {
  return {
    seq: row.seq,
    portalId: row.portal_id,
    moduleId: row.module_id,
    recordId: row.record_id,
    kind: row.kind,
    state: row.state,
    fields: JSON.parse(row.fields) as OpFields,
    commentId: row.comment_id,
    content: row.content,
    baseContent: row.base_content,
    edits: row.edits,
    queuedAt: row.queued_at,
    updatedAt: row.updated_at,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    sentBody: row.sent_body,
    sentAt: row.sent_at,
    error: row.error,
    conflict: row.conflict === null ? null : (JSON.parse(row.conflict) as OpConflict),
    action: row.action,
  };
}

export interface StoredModuleRef {
  moduleKey: number;
  id: string;
  apiName: string;
  pluralName: string;
  singularName: string;
}

export interface CatalogField {
  id: string;
  apiName: string;
  displayName: string;
  fieldType: string;
  isDefault: number;
  isMandatory: number;
  fieldProperty: string;
}

export interface CatalogOption {
  fieldId: string;
  kind: 'custom_option' | 'user' | 'role';
  valueId: string;
  value: string | null;
  layoutId: string | null;
}

export interface CatalogStatus {
  id: string;
  name: string;
  color: string | null;
  isClosedType: number;
  isDefault: number;
}

/** An operation that may go now: which one, and whose queue it heads. */
export interface ReadyHead {
  seq: number;
  portalId: string;
  recordId: string;
}

export class OutboxRepository {
  private readonly statement: (name: Query) => Database.Statement;

  constructor(
    readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.statement = namedStatements(db, queries);
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  // ---- operations ------------------------------------------------------------------------------

  insertOp(op: {
    portalId: string;
    moduleId: string;
    recordId: string;
    kind: OpKind;
    fields?: OpFields;
    commentId?: string | null;
    content?: string | null;
    baseContent?: string | null;
    action?: string | null;
  }): number {
    return this.statement('insertOp')
      .pluck()
      .get({
        portalId: op.portalId,
        moduleId: op.moduleId,
        recordId: op.recordId,
        kind: op.kind,
        fields: JSON.stringify(op.fields ?? {}),
        commentId: op.commentId ?? null,
        content: op.content ?? null,
        baseContent: op.baseContent ?? null,
        action: op.action ?? null,
        now: this.iso(),
      }) as number;
  }

  /**
   * An update at the place `seq` it had before it was dropped (not reused: AUTOINCREMENT), with
   * the status it had then (default: a fresh pending update).
   */
  insertUpdateAt(
    seq: number,
    op: { portalId: string; moduleId: string; recordId: string; fields: OpFields },
    status: OpStatus | null = null,
  ): void {
    const now = this.iso();
    this.statement('insertOpAt').run({
      seq,
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId: op.recordId,
      fields: JSON.stringify(op.fields),
      ...(status ?? {
        state: 'pending',
        error: null,
        attempts: 0,
        nextAttemptAt: null,
        edits: 1,
        queuedAt: now,
        updatedAt: now,
      }),
    });
  }

  /** An unsent operation's fields and status put back (queued_at is never changed). */
  restoreOp(seq: number, fields: OpFields, status: OpStatus): void {
    const { state, error, attempts, nextAttemptAt, edits, updatedAt } = status;
    this.statement('restoreOp').run({
      seq,
      fields: JSON.stringify(fields),
      state,
      error,
      attempts,
      nextAttemptAt,
      edits,
      updatedAt,
    });
  }

  rewriteOp(seq: number, fields: OpFields, content: string | null = null): void {
    this.statement('rewriteOp').run({
      seq,
      fields: JSON.stringify(fields),
      content,
      now: this.iso(),
    });
  }

  deleteOp(seq: number): void {
    this.statement('deleteOp').run(seq);
  }

  /**
   * Told, inside the same transaction, when an operation moves to a new seq: what links to
   * operations by seq in a table another area owns (a bulk edit's records, bulkEdit/) follows it
   * there. Set by that area's service.
   */
  requeued: ((from: number, to: number) => void) | undefined;

  /**
   * Told, inside the same transaction, when a module's queued record values follow an option
   * rename or its discard (src/main/configure/queuedRecordOptions.ts): what keeps copies of those
   * values in a table another area owns (a bulk edit's entries to give back) follows them. Set by
   * that area's service.
   */
  optionsRelabelled: ((change: OptionsRelabelled) => void) | undefined;

  /** Moves an operation to the end of the queue as it is; its new seq. */
  requeueOp(seq: number): number {
    const to = this.statement('requeueOp').pluck().get(seq) as number;
    this.requeued?.(seq, to);
    this.deleteOp(seq);
    return to;
  }

  op(seq: number): OutboxOp | undefined {
    const row = this.statement('op').get(seq) as OpRow | undefined;
    return row ? parseOp(row) : undefined;
  }

  opsOfRecord(portalId: string, recordId: string): OutboxOp[] {
    return (this.statement('opsOfRecord').all(portalId, recordId) as OpRow[]).map(parseOp);
  }

  /** How many changes of a module's records are queued (its configuration's not counted). */
  recordOpsOfModule(portalId: string, moduleId: string): number {
    return this.statement('recordOpsOfModule').pluck().get(portalId, moduleId) as number;
  }

  /** A module's queued creates and updates, in queue order. */
  valueOpsOfModule(portalId: string, moduleId: string): OutboxOp[] {
    return (this.statement('valueOpsOfModule').all(portalId, moduleId) as OpRow[]).map(parseOp);
  }

  allOps(portalId?: string): OutboxOp[] {
    const rows =
      portalId === undefined
        ? (this.statement('allOps').all() as OpRow[])
        : (this.statement('opsOfPortal').all(portalId) as OpRow[]);
    return rows.map(parseOp);
  }

  /**
   * The first `perState` operations of each state, in queue order: of one record (both ids),
   * one portal, or all.
   */
  oldestOpsPerState(
    filter: { portalId?: string | undefined; recordId?: string | undefined },
    perState: number,
  ): OutboxOp[] {
    const rows = this.statement('oldestOpsPerState').all({
      portalId: filter.portalId ?? null,
      recordId: filter.portalId === undefined ? null : (filter.recordId ?? null),
      perState,
    }) as OpRow[];
    return rows.map(parseOp);
  }

  /**
   * Up to `limit` heads (every one by default) that may go at `now`, oldest first, other than the
   * `running` operations (keys only; `op` reads one).
   */
  readyHeads(now: number, limit = -1, running: Iterable<number> = []): ReadyHead[] {
    return this.statement('readyHeads').all({
      now,
      limit,
      running: JSON.stringify([...running]),
      holding: HOLDING,
    }) as ReadyHead[];
  }

  /** The configuration change a module's record changes wait for (recordsWaitFor.ts), if any. */
  recordsHeldBy(portalId: string, moduleId: string): OutboxOp | undefined {
    const row = this.statement('recordsHeldBy').get({ portalId, moduleId, holding: HOLDING }) as
      OpRow | undefined;
    return row ? parseOp(row) : undefined;
  }

  /** When the earliest head waiting out a backoff may go; null if none waits. */
  nextAttemptAt(now: number): number | null {
    return (this.statement('nextAttemptAt').pluck().get({ now }) as number | null) ?? null;
  }

  counts(): Record<OpState, number> {
    const counts: Record<OpState, number> = { pending: 0, sending: 0, failed: 0, conflict: 0 };
    for (const row of this.statement('counts').all() as { state: OpState; n: number }[]) {
      counts[row.state] = row.n;
    }
    return counts;
  }

  /** False when the operation is gone or in no state to go out. */
  claim(seq: number): boolean {
    return this.statement('claim').run({ seq, now: this.iso() }).changes === 1;
  }

  markSending(seq: number, sentBody: string): void {
    this.statement('markSending').run({ seq, sentBody, now: this.iso() });
  }

  markWaiting(
    seq: number,
    options: {
      nextAttemptAt: number | null;
      error: string | null;
      keepSent: boolean;
      countAttempt?: boolean;
    },
  ): void {
    this.statement('markWaiting').run({
      seq,
      nextAttemptAt: options.nextAttemptAt,
      error: options.error,
      keepSent: options.keepSent ? 1 : 0,
      countAttempt: options.countAttempt ? 1 : 0,
      now: this.iso(),
    });
  }

  /** `keepSent`: the service may hold what was sent (a retry checks before sending again). */
  markFailed(seq: number, error: string, keepSent = false): void {
    this.statement('markFailed').run({ seq, error, keepSent: keepSent ? 1 : 0, now: this.iso() });
  }

  markConflict(seq: number, fields: OpFields, conflict: OpConflict): void {
    this.statement('markConflict').run({
      seq,
      fields: JSON.stringify(fields),
      conflict: JSON.stringify(conflict),
      now: this.iso(),
    });
  }

  setFields(seq: number, fields: OpFields, state: OpState, conflict: OpConflict | null): void {
    this.statement('setFields').run({
      seq,
      fields: JSON.stringify(fields),
      state,
      conflict: conflict === null ? null : JSON.stringify(conflict),
      now: this.iso(),
    });
  }

  setComment(
    seq: number,
    content: string | null,
    baseContent: string | null,
    state: OpState,
    conflict: OpConflict | null,
  ): void {
    this.statement('setComment').run({
      seq,
      content,
      baseContent,
      state,
      conflict: conflict === null ? null : JSON.stringify(conflict),
      now: this.iso(),
    });
  }

  retryOp(seq: number): void {
    this.statement('retryOp').run({ seq, now: this.iso() });
  }

  retryWaiting(): void {
    this.statement('retryWaiting').run();
  }

  // ---- remapped ids ----------------------------------------------------------------------------

  /** The queue of a record created offline follows its server id (its overlay moves too: LocalEdits). */
  remapRecord(portalId: string, from: string, to: string): void {
    this.statement('remapRecordOps').run({ portalId, from, to });
    this.statement('insertRemap').run(portalId, 'record', from, to, this.iso());
  }

  /** A record's queue given to another record of this machine (no remap: neither is the other). */
  moveRecordOps(portalId: string, from: string, to: string): void {
    this.statement('remapRecordOps').run({ portalId, from, to });
  }

  /** A portal's configuration operations, in queue order. */
  configOps(portalId: string): OutboxOp[] {
    return (this.statement('configOpsOfPortal').all(portalId) as OpRow[]).map(parseOp);
  }

  /**
   * A module created here got its server id: its queue follows (config ops only), and the remap is
   * kept so a lost create's lookup never adopts a module another operation already owns.
   */
  remapModule(portalId: string, from: string, to: string): void {
    this.statement('remapConfigQueue').run({ portalId, from, toModuleId: to });
    this.statement('insertRemap').run(portalId, 'module', from, to, this.iso());
  }

  /** A layout or section created here got its server id: later operations name that instead. */
  rewriteTempId(portalId: string, from: string, to: string): void {
    this.statement('rewriteTempId').run({
      portalId,
      quotedFrom: JSON.stringify(from),
      quotedTo: JSON.stringify(to),
    });
  }

  remapComment(portalId: string, from: string, to: string): void {
    this.statement('remapCommentOps').run({ portalId, from, to });
    this.statement('insertRemap').run(portalId, 'comment', from, to, this.iso());
  }

  /**
   * Who the service names as the creator of our creates in the portal (the signed-in user's
   * zpuid there), as one of its answers just said; kept for the lookups of lost creates.
   */
  learnAuthor(portalId: string, zpuid: string, at: string): void {
    this.statement('learnAuthor').run(portalId, zpuid, at);
  }

  /** The creator of our creates in the portal as last learnt, or null before any was answered. */
  authorOf(portalId: string): string | null {
    return (this.statement('authorOf').pluck().get(portalId) as string | undefined) ?? null;
  }

  adoptedIds(portalId: string, kind: 'record' | 'comment' | 'module'): Set<string> {
    return new Set(this.statement('adoptedIds').pluck().all(portalId, kind) as string[]);
  }

  remapOf(
    portalId: string,
    kind: 'record' | 'comment' | 'module',
    tempId: string,
  ): string | undefined {
    return this.statement('remapOf').pluck().get(portalId, kind, tempId) as string | undefined;
  }

  // ---- metadata ----------------------------------------------------------------------------------

  portal(portalId: string): { id: string; accountId: string; timeZone: string } | undefined {
    return this.statement('portal').get(portalId) as
      { id: string; accountId: string; timeZone: string } | undefined;
  }

  module(portalId: string, moduleId: string): StoredModuleRef | undefined {
    return this.statement('module').get(portalId, moduleId) as StoredModuleRef | undefined;
  }

  fields(portalId: string, moduleId: string): CatalogField[] {
    return this.statement('fields').all(portalId, moduleId) as CatalogField[];
  }

  layoutFieldIds(portalId: string, layoutId: string): Set<string> {
    return new Set(this.statement('layoutFieldIds').pluck().all(portalId, layoutId) as string[]);
  }

  defaultLayout(portalId: string, moduleId: string): string | null {
    return (
      (this.statement('defaultLayout').pluck().get(portalId, moduleId) as string | undefined) ??
      null
    );
  }

  options(portalId: string, moduleId: string): CatalogOption[] {
    return this.statement('options').all(portalId, moduleId) as CatalogOption[];
  }

  statuses(portalId: string, moduleId: string): CatalogStatus[] {
    return this.statement('statuses').all(portalId, moduleId) as CatalogStatus[];
  }

  transitions(portalId: string, moduleId: string): { fromId: string; toId: string }[] {
    return this.statement('transitions').all(portalId, moduleId) as {
      fromId: string;
      toId: string;
    }[];
  }

  users(portalId: string): { zpuid: string; name: string | null; email: string | null }[] {
    return this.statement('users').all(portalId) as {
      zpuid: string;
      name: string | null;
      email: string | null;
    }[];
  }
}
