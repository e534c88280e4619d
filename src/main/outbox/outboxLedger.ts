/**
 * The outbox's local side: every change a user makes offline is validated, then written in ONE
 * transaction together with what the lists show (the overlay, a local record, a trash mark) and
 * the operation that will replay it. Also the user's actions on queued operations: discard,
 * retry, resolve a conflict. Nothing here reaches the network (OutboxReplayer does).
 *
 * Every refusal is a LedgerError written for the user; a refused call changes nothing. The
 * decisions are pure modules (planEdit, planComment, validateChanges, resolveFields); this class
 * reads, asks them, and writes what they planned.
 */
import type {
  CommentArgs,
  EditForm,
  EditResult,
  OutboxEntry,
  PendingComment,
} from '../../shared/ipc/areas/outbox';
import type { LocalEditsRepository, StoredRecord } from '../store/mirror/localEditsRepository';
import { storedValue, type EditCatalog } from './editCatalog';
import { newRecordForm, recordForm, shownValues } from './editForm';
import { LedgerError, TrashedRecordError } from './ledgerError';
import {
  catalogFor,
  newRecordCatalog,
  requireOp,
  requireRecord,
  statusIdOf,
  type LedgerStores,
} from './ledgerReads';
import { overlayOf } from './overlayOf';
import {
  dropQueue,
  insertLocalRecord,
  isoNow,
  rebaseLater,
  refreshOverlay,
  updateLocalRecord,
} from './ledgerWrites';
import {
  outboxEntries,
  pendingComments,
  type ConfigDescriber,
  type GoneModuleLookup,
  type OutboxListFilter,
} from './outboxEntries';
import type { OutboxRepository } from './outboxRepository';
import {
  COMMENT_KINDS,
  isOpen,
  opStatus,
  type FieldEntry,
  type OpFields,
  type OpStatus,
  type OutboxOp,
  type Touched,
} from './outboxTypes';
import { planComment, commentContent } from './planComment';
import { planEdit, type EditPlan, type FieldChange } from './planEdit';
import { resolveConfigConflict, resolveConflict, type FieldResolution } from './resolveConflict';
import { TEMP_COMMENT_PREFIX, TEMP_RECORD_PREFIX, tempId } from './tempIds';
import { createFields, validateChanges } from './validateChanges';

/** The newest operation on the record's fields or trash mark, if it may still change. */
function lastOpen(ops: readonly OutboxOp[]): OutboxOp | undefined {
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i] as OutboxOp;
    if (COMMENT_KINDS.has(op.kind)) continue;
    return op.sentBody === null && op.state === 'pending' ? op : undefined;
  }
  return undefined;
}

/** A record about to be edited: see OutboxLedger.editFrom. */
export interface EditSource {
  record: StoredRecord;
  ops: OutboxOp[];
  catalog: EditCatalog;
  current: (field: string) => unknown;
}

export class OutboxLedger {
  private readonly stores: LedgerStores;

  /** `edits` writes what a change does to the mirror's tables; `repo` the outbox's own. */
  constructor(
    private readonly repo: OutboxRepository,
    private readonly edits: LocalEditsRepository,
    now: () => number,
    /** A module a sync found gone, by the names it kept (the mirror's metadata, modules_gone). */
    private readonly goneModule: GoneModuleLookup = () => undefined,
  ) {
    this.stores = { repo, edits, now };
  }

  // ---- reading -----------------------------------------------------------------------------------

  form(portalId: string, moduleId: string, recordId?: string): EditForm {
    if (recordId === undefined)
      return newRecordForm(portalId, moduleId, newRecordCatalog(this.repo, portalId, moduleId));
    const record = requireRecord(this.stores, portalId, recordId);
    const ops = this.repo.opsOfRecord(portalId, recordId);
    return recordForm(record, catalogFor(this.repo, record, ops), ops);
  }

  /**
   * Reads the forms of many records one after another (an import's rows): a record's catalog
   * (its layout's fields and the statuses its status may move to) is read once per layout and
   * status and reused, where `form` reads it for every record (about 0.7 ms of a row's 0.8).
   */
  formReader(): (portalId: string, recordId: string) => EditForm {
    const catalogs = new Map<string, EditCatalog>();
    return (portalId, recordId) => {
      const record = requireRecord(this.stores, portalId, recordId);
      // Refused as an edit of it would be: a form read to change a trashed record misleads.
      refuseTrashed(record);
      const ops = this.repo.opsOfRecord(portalId, recordId);
      const statusId = statusIdOf(overlayOf(ops).get('status')?.value) ?? record.status_id;
      const key = JSON.stringify([portalId, record.module_id, record.layout_id, statusId]);
      let catalog = catalogs.get(key);
      if (!catalog) {
        catalog = catalogFor(this.repo, record, ops);
        catalogs.set(key, catalog);
      }
      return recordForm(record, catalog, ops);
    };
  }

  /** How configuration operations are shown; set by their owner (OutboxService.useConfig). */
  describeConfig: ConfigDescriber | undefined;

  /**
   * What else a configuration operation's discard undoes (record changes that followed an option
   * rename), inside the discard's transaction; set by its owner (OutboxService.useConfig).
   */
  configDiscarded: ((op: OutboxOp) => void) | undefined;

  list(filter: OutboxListFilter = {}): OutboxEntry[] {
    return outboxEntries(this.repo, this.edits, filter, this.describeConfig, this.goneModule);
  }

  pendingComments(portalId: string, recordId: string): PendingComment[] {
    return pendingComments(this.repo.opsOfRecord(portalId, recordId));
  }

  // ---- field changes -----------------------------------------------------------------------------

  /**
   * `catalogs`: a caller queuing many edits one after another (an import's rows) passes one map
   * to read each catalog once (see editFrom).
   */
  edit(
    portalId: string,
    recordId: string,
    changes: Record<string, unknown>,
    catalogs?: Map<string, EditCatalog>,
  ): { result: EditResult; touched: Touched } {
    const source = this.editFrom(portalId, recordId, catalogs);
    const valid = validateChanges(source.catalog, changes, source.current);
    const { seq, plan } = this.repo.transaction(() => this.writeEdit(source, valid));
    return {
      result: { portalId, recordId, opId: seq, reverted: plan.reverted },
      touched: { portalId, moduleId: source.record.module_id },
    };
  }

  /**
   * What an edit of the record starts from: the record, its queue, its catalog and the values it
   * shows now. Refused in words (LedgerError) when the record is missing or in the trash. A caller
   * editing many records passes `catalogs` to read each catalog once.
   */
  editFrom(portalId: string, recordId: string, catalogs?: Map<string, EditCatalog>): EditSource {
    const record = requireRecord(this.stores, portalId, recordId);
    refuseTrashed(record);
    const ops = this.repo.opsOfRecord(portalId, recordId);
    const catalog = catalogFor(this.repo, record, ops, catalogs);
    return { record, ops, catalog, current: shownValues(record, catalog, ops) };
  }

  /**
   * Where validated changes of the record would go in its queue (planEdit), nothing written.
   * `keepRefused`: someone else's change (a bulk edit) leaves an edit the service refused as it is.
   */
  planOf(
    source: EditSource,
    valid: readonly FieldChange[],
    options: { keepRefused?: boolean } = {},
  ): EditPlan {
    const { record, ops, catalog } = source;
    return planEdit(ops, valid, {
      serverValue: (field) => storedValue(record, catalog, field),
      mayMoveStatus: catalog.mayMoveStatus,
      keepRefused: options.keepRefused === true,
    });
  }

  /**
   * Writes validated changes of one record as planEdit plans them (folded into its queued edit,
   * or a new operation), inside the caller's transaction, and the overlay the lists show.
   */
  writeEdit(
    source: EditSource,
    valid: readonly FieldChange[],
    options: { keepRefused?: boolean } = {},
  ): { seq: number | null; plan: EditPlan } {
    const { record } = source;
    const portalId = record.portal_id;
    const { catalog } = source;
    const plan = this.planOf(source, valid, options);
    let seq: number | null;
    if (plan.action === 'append') {
      seq =
        Object.keys(plan.fields).length === 0
          ? null
          : this.repo.insertOp({
              portalId,
              moduleId: record.module_id,
              recordId: record.id,
              kind: 'update',
              fields: plan.fields,
            });
    } else if (Object.keys(plan.fields).length === 0) {
      this.repo.deleteOp(plan.seq);
      seq = null;
    } else {
      this.repo.rewriteOp(plan.seq, plan.fields);
      seq = plan.seq;
    }
    if (plan.action === 'merge' && plan.kind === 'create')
      updateLocalRecord(this.stores, record, catalog, plan.fields);
    this.refreshOverlay(portalId, record.id);
    return { seq, plan };
  }

  /**
   * Puts `field` of a queued create or update back to `previous` (null: the operation no longer
   * holds it; an operation left without fields is dropped), inside the caller's transaction: the
   * undo of a change folded in by someone else (a bulk edit). `status`: what the operation's state,
   * error, attempts, backoff and edit count were before that change (null: they stay as they are,
   * a refusal or a backoff included). Later updates that based the field on the operation's value
   * are based on what it holds now; the lists follow.
   */
  restoreField(
    seq: number,
    field: string,
    previous: FieldEntry | null,
    status: OpStatus | null = null,
  ): void {
    const op = requireOp(this.repo, seq);
    if (!isOpen(op) || (op.kind !== 'update' && op.kind !== 'create')) {
      throw new LedgerError(
        'This change has been sent (or is being sent), so it can no longer be taken back. Nothing was changed.',
      );
    }
    const fields: OpFields = { ...op.fields };
    const removed = fields[field];
    if (previous === null) delete fields[field];
    else fields[field] = previous;
    if (Object.keys(fields).length === 0 && op.kind === 'update') this.repo.deleteOp(op.seq);
    else
      this.repo.restoreOp(
        op.seq,
        fields,
        status ?? { ...opStatus(op), updatedAt: isoNow(this.stores) },
      );
    if (removed && previous === null) rebaseLater(this.stores, op, field, removed.base);
    else if (previous) rebaseLater(this.stores, op, field, previous.value);
    if (op.kind === 'create') {
      const record = requireRecord(this.stores, op.portalId, op.recordId);
      const catalog = catalogFor(
        this.repo,
        record,
        this.repo.opsOfRecord(op.portalId, op.recordId),
      );
      updateLocalRecord(this.stores, record, catalog, fields);
    }
    this.refreshOverlay(op.portalId, op.recordId);
  }

  /**
   * Queues again, at its old place `seq`, an update of one field that someone else's change
   * dropped (a bulk edit setting the field back to its base), inside the caller's transaction,
   * with the `status` it had (null: as a fresh update).
   */
  requeueField(
    record: { portalId: string; moduleId: string; recordId: string },
    seq: number,
    field: string,
    entry: FieldEntry,
    status: OpStatus | null = null,
  ): void {
    this.repo.insertUpdateAt(seq, { ...record, fields: { [field]: entry } }, status);
    this.refreshOverlay(record.portalId, record.recordId);
  }

  /**
   * `catalogs`: as for `edit`; an import's new rows then read the module's catalog once, where
   * each create read it again (about half of a created row's 0.5–0.7 ms).
   */
  create(
    portalId: string,
    moduleId: string,
    values: Record<string, unknown>,
    catalogs?: Map<string, EditCatalog>,
  ): { result: EditResult; touched: Touched } {
    const catalog = newRecordCatalog(this.repo, portalId, moduleId, catalogs);
    const withStatus =
      values.status === undefined && catalog.defaultStatusId !== null
        ? { ...values, status: catalog.defaultStatusId }
        : values;
    const fields = createFields(catalog, validateChanges(catalog, withStatus));
    const recordId = tempId(TEMP_RECORD_PREFIX);
    const opId = this.repo.transaction(() => {
      insertLocalRecord(this.stores, portalId, catalog, recordId, fields);
      return this.repo.insertOp({ portalId, moduleId, recordId, kind: 'create', fields });
    });
    return { result: { portalId, recordId, opId, reverted: [] }, touched: { portalId, moduleId } };
  }

  /** record_edits of one record, from its queued updates (the lists' view of them). */
  refreshOverlay(portalId: string, recordId: string): void {
    refreshOverlay(this.stores, portalId, recordId);
  }

  // ---- trash and restore -------------------------------------------------------------------------

  trash(
    portalId: string,
    recordId: string,
    restore: boolean,
  ): { result: EditResult; touched: Touched } {
    const record = requireRecord(this.stores, portalId, recordId);
    const trashed = record.trashed_time !== null;
    if (trashed !== restore) {
      throw new LedgerError(
        restore
          ? `Record "${record.name}" is not in the trash; nothing was queued.`
          : `Record "${record.name}" is already in the trash; nothing was queued.`,
      );
    }
    const ops = this.repo.opsOfRecord(portalId, recordId);
    const last = lastOpen(ops);
    const opposite = restore ? 'trash' : 'restore';
    const opId = this.repo.transaction(() => {
      if (last?.kind === opposite) {
        // Trash then restore (or back) before either went out: neither needs to.
        this.repo.deleteOp(last.seq);
        this.edits.setTrashed(
          portalId,
          recordId,
          (last.fields.trashed_time?.base as string | null) ?? null,
        );
        return null;
      }
      const value = restore ? null : isoNow(this.stores);
      this.edits.setTrashed(portalId, recordId, value);
      return this.repo.insertOp({
        portalId,
        moduleId: record.module_id,
        recordId,
        kind: restore ? 'restore' : 'trash',
        fields: { trashed_time: { value, base: record.trashed_time } },
      });
    });
    return {
      result: { portalId, recordId, opId, reverted: [] },
      touched: { portalId, moduleId: record.module_id },
    };
  }

  /**
   * Deletes a record in the recycle bin for good (queued). Only a record the lists show as
   * trashed (by the service, or by a trash queued here, which goes first); refused while a restore
   * of it waits, and when a delete is already queued.
   */
  deleteForever(portalId: string, recordId: string): { result: EditResult; touched: Touched } {
    const record = requireRecord(this.stores, portalId, recordId);
    if (record.trashed_time === null) {
      throw new LedgerError(
        `Record "${record.name}" is not in the recycle bin; move it there first. Nothing was queued.`,
      );
    }
    const ops = this.repo.opsOfRecord(portalId, recordId);
    if (ops.some((op) => op.kind === 'delete')) {
      throw new LedgerError(`Record "${record.name}" is already queued to be deleted for good.`);
    }
    if (record.local_only === 1) {
      throw new LedgerError(
        `Record "${record.name}" was created here and never sent; discard its creation in the Outbox instead.`,
      );
    }
    const opId = this.repo.insertOp({
      portalId,
      moduleId: record.module_id,
      recordId,
      kind: 'delete',
      fields: { trashed_time: { value: record.trashed_time, base: record.trashed_time } },
    });
    return {
      result: { portalId, recordId, opId, reverted: [] },
      touched: { portalId, moduleId: record.module_id },
    };
  }

  // ---- comments ----------------------------------------------------------------------------------

  comment(args: CommentArgs): { opId: number | null; commentId: string; touched: Touched } {
    const record = requireRecord(this.stores, args.portalId, args.recordId);
    const touched = { portalId: args.portalId, moduleId: record.module_id };
    const content = args.action === 'delete' ? null : commentContent(args.content);
    const ops = this.repo.opsOfRecord(args.portalId, args.recordId);
    const queue = { portalId: args.portalId, moduleId: record.module_id, recordId: args.recordId };
    if (args.action === 'add') {
      const commentId = tempId(TEMP_COMMENT_PREFIX);
      const opId = this.repo.insertOp({ ...queue, kind: 'comment_add', commentId, content });
      return { opId, commentId, touched };
    }
    const { commentId } = args;
    const plan = planComment(ops, commentId, content, this.edits.comment(args.portalId, commentId));
    return this.repo.transaction(() => {
      for (const seq of plan.drop) this.repo.deleteOp(seq);
      let opId: number | null = null;
      if (plan.rewrite) {
        this.repo.rewriteOp(plan.rewrite.seq, plan.rewrite.fields, content);
        opId = plan.rewrite.seq;
      } else if (plan.append) {
        opId = this.repo.insertOp({ ...queue, ...plan.append, commentId });
      }
      return { opId, commentId, touched };
    });
  }

  // ---- the user's actions on operations ----------------------------------------------------------

  discard(id: number): Touched {
    const op = requireOp(this.repo, id);
    if (op.state === 'sending') {
      throw new LedgerError(
        'This change is being sent right now, so it cannot be discarded. Nothing was changed; wait for the answer and try again.',
      );
    }
    this.repo.transaction(() => {
      const ops = this.repo.opsOfRecord(op.portalId, op.recordId);
      if (op.kind === 'config') {
        // Configuration is shown from the queue itself: dropping the op is the whole undo. A
        // module's creation takes its queue with it (nothing else can go without the module).
        const dropAll = op.action === 'module.create' && op.sentBody === null;
        for (const other of dropAll ? ops : [op]) this.repo.deleteOp(other.seq);
        this.configDiscarded?.(op);
        return;
      }
      if (op.kind === 'create') {
        dropQueue(this.stores, op.portalId, op.recordId, ops);
        this.edits.deleteLocalRecord(op.portalId, op.recordId);
        return;
      }
      this.repo.deleteOp(op.seq);
      if (op.kind === 'update') {
        for (const [field, entry] of Object.entries(op.fields))
          rebaseLater(this.stores, op, field, entry.base);
      } else if (op.kind === 'trash' || op.kind === 'restore') {
        const remaining = ops.filter(
          (o) => o.seq !== op.seq && (o.kind === 'trash' || o.kind === 'restore'),
        );
        const last = remaining.at(-1);
        this.edits.setTrashed(
          op.portalId,
          op.recordId,
          last
            ? ((last.fields.trashed_time?.value as string | null) ?? null)
            : ((op.fields.trashed_time?.base as string | null) ?? null),
        );
      } else if (op.kind === 'comment_add') {
        for (const other of ops) {
          if (other.seq !== op.seq && other.commentId === op.commentId)
            this.repo.deleteOp(other.seq);
        }
      }
      this.refreshOverlay(op.portalId, op.recordId);
    });
    return { portalId: op.portalId, moduleId: op.moduleId };
  }

  retry(id?: number): void {
    if (id === undefined) {
      this.repo.transaction(() => {
        this.repo.retryWaiting();
        for (const op of this.repo.allOps()) if (op.state === 'failed') this.repo.retryOp(op.seq);
      });
      return;
    }
    const op = requireOp(this.repo, id);
    if (op.state === 'conflict') {
      throw new LedgerError(
        'This change conflicts with a change made on the service; resolve it field by field first. Nothing was changed.',
      );
    }
    this.repo.retryOp(op.seq);
  }

  /** See resolveConflict.ts: field by field, or the whole record when it is gone or trashed. */
  resolve(
    id: number,
    resolutions: readonly FieldResolution[],
    recordChoice?: 'mine' | 'theirs',
  ): Touched {
    const op = requireOp(this.repo, id);
    if (op.kind === 'config') return resolveConfigConflict(this.repo, op, resolutions);
    return resolveConflict(this.stores, id, resolutions, recordChoice);
  }
}

/** Changes to a trashed record are refused in words before anything is read or written. */
function refuseTrashed(record: StoredRecord): void {
  if (record.trashed_time !== null) {
    throw new TrashedRecordError(
      `Record "${record.name}" is in the trash, and the service refuses changes to trashed records. Nothing was queued; restore it first.`,
    );
  }
}
