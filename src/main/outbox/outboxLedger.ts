/**
 * The outbox's local side: every change a user makes offline is validated, then written in ONE
 * transaction together with what the lists show (the overlay, a local record, a trash mark) and
 * the operation that will replay it. Also the user's actions on queued operations: discard,
 * retry, resolve a conflict. Nothing here reaches the network (OutboxReplayer does).
 *
 * Every refusal is a LedgerError written for the user; a refused call changes nothing.
 */
import { randomBytes } from 'node:crypto';
import type {
  CommentArgs,
  ConflictField,
  EditForm,
  EditResult,
  OutboxEntry,
  PendingComment,
  PendingValue,
} from '../../shared/contracts/outbox';
import { COMMENT_CONTENT_MAX } from '../../shared/domain/customFieldTypes';
import { sameFieldValue } from '../../shared/outbox/sameFieldValue';
import { validateFieldValue } from '../../shared/outbox/validateFieldValue';
import { loadEditCatalog, storedValue, type EditCatalog } from './editCatalog';
import type { LocalEditsRepository, StoredRecord } from '../store/mirror/localEditsRepository';
import type { OutboxRepository } from './outboxRepository';
import { overlayOf } from './overlayOf';
import { typeOf, type OpFields, type OutboxOp } from './outboxTypes';
import { planEdit, type FieldChange } from './planEdit';

/** A refusal written for the user: what happened, what was kept, what to do. */
export class LedgerError extends Error {
  override name = 'LedgerError';
}

/** Prefixes of ids made offline: never digits, so never a server id. */
export const TEMP_RECORD_PREFIX = 'tmp-';
export const TEMP_COMMENT_PREFIX = 'tmp-c-';

export const isTempId = (id: string) => id.startsWith(TEMP_RECORD_PREFIX);

const tempId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

const COMMENT_KINDS = new Set(['comment_add', 'comment_edit', 'comment_delete']);

/** What a change touched, for the events the caller sends. */
export interface Touched {
  portalId: string;
  moduleId: string;
}

export class OutboxLedger {
  /** `edits` writes what a change does to the mirror's tables; `repo` the outbox's own. */
  constructor(
    private readonly repo: OutboxRepository,
    private readonly edits: LocalEditsRepository,
    private readonly now: () => number,
  ) {}

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  // ---- reading -----------------------------------------------------------------------------------

  private requireRecord(portalId: string, recordId: string): StoredRecord {
    const record = this.edits.record(portalId, recordId);
    if (!record) {
      const moved = this.repo.remapOf(portalId, 'record', recordId);
      throw new LedgerError(
        moved
          ? `Record ${recordId} has been created on the service as ${moved}; nothing was changed. Open it again and repeat the change.`
          : `Record ${recordId} is not in the local mirror of portal ${portalId}, so it cannot be changed. Nothing was queued; sync the portal and try again.`,
      );
    }
    return record;
  }

  /** The catalog for a record as the user sees it (its pending status, its layout). */
  private catalogFor(record: StoredRecord, ops: readonly OutboxOp[]): EditCatalog {
    const overlay = overlayOf(ops);
    const pendingStatus = overlay.get('status')?.value;
    const statusId =
      pendingStatus && typeof pendingStatus === 'object' && 'id' in pendingStatus
        ? String((pendingStatus as { id: unknown }).id)
        : record.status_id;
    const catalog = loadEditCatalog(
      this.repo,
      record.portal_id,
      record.module_id,
      record.layout_id,
      statusId,
    );
    if (!catalog) {
      throw new LedgerError(
        `The fields of module ${record.module_name} are not in the local mirror, so record ${record.id} cannot be changed. Nothing was queued; sync the portal and try again.`,
      );
    }
    return catalog;
  }

  form(portalId: string, moduleId: string, recordId?: string): EditForm {
    if (recordId === undefined) {
      const catalog = loadEditCatalog(this.repo, portalId, moduleId, null, null);
      if (!catalog) throw this.notMirrored(portalId, moduleId);
      const values: Record<string, unknown> = {};
      if (catalog.defaultStatusId !== null) {
        const status = catalog.statuses.find((s) => s.id === catalog.defaultStatusId);
        if (status)
          values.status = {
            id: status.id,
            name: status.name,
            color: status.color,
            is_closed_type: status.isClosedType === 1,
          };
      }
      return {
        portalId,
        moduleId,
        recordId: null,
        timeZone: catalog.timeZone,
        fields: catalog.fields,
        values,
        pending: {},
      };
    }
    const record = this.requireRecord(portalId, recordId);
    const ops = this.repo.opsOfRecord(portalId, recordId);
    const catalog = this.catalogFor(record, ops);
    const overlay = overlayOf(ops);
    const values: Record<string, unknown> = {};
    const pending: Record<string, PendingValue> = {};
    const stateOf = (field: string) =>
      [...ops].reverse().find((op) => op.kind === 'update' && Object.hasOwn(op.fields, field))
        ?.state ?? 'pending';
    const create = ops.find((op) => op.kind === 'create');
    const valueOf = this.shownValues(record, catalog, ops);
    for (const field of catalog.fields) {
      const shown = overlay.get(field.key);
      values[field.key] = valueOf(field.key);
      if (shown)
        pending[field.key] = {
          queuedAt: shown.editedAt,
          base: shown.base,
          state: stateOf(field.key),
        };
      else if (create && Object.hasOwn(create.fields, field.key)) {
        pending[field.key] = { queuedAt: create.updatedAt, base: null, state: create.state };
      }
    }
    return {
      portalId,
      moduleId: record.module_id,
      recordId,
      timeZone: catalog.timeZone,
      fields: catalog.fields,
      values,
      pending,
    };
  }

  /** A field's value as the editor shows it: the newest queued value, else the server copy's. */
  private shownValues(record: StoredRecord, catalog: EditCatalog, ops: readonly OutboxOp[]) {
    const overlay = overlayOf(ops);
    return (key: string): unknown => {
      const shown = overlay.get(key);
      return shown ? shown.value : storedValue(record, catalog.statuses, key);
    };
  }

  private notMirrored(portalId: string, moduleId: string): LedgerError {
    return new LedgerError(
      `Module ${moduleId} of portal ${portalId} is not in the local mirror, so nothing can be created in it. Nothing was queued; sync the portal first.`,
    );
  }

  // ---- field changes -----------------------------------------------------------------------------

  /**
   * Validates every change first: one bad value refuses the whole edit. `current` gives what a
   * record's fields hold now, so parts of a value a change does not name are kept (issue 14).
   */
  private validate(
    catalog: EditCatalog,
    changes: Record<string, unknown>,
    current?: (key: string) => unknown,
  ): FieldChange[] {
    const problems: string[] = [];
    const valid: FieldChange[] = [];
    for (const [key, input] of Object.entries(changes)) {
      const field = catalog.fields.find((f) => f.key === key);
      if (!field) {
        problems.push(`${key}: not a field PortalDesk can edit on this record's layout`);
        continue;
      }
      const check = validateFieldValue(field, input, {
        timeZone: catalog.timeZone,
        ...(current ? { current: current(key) } : {}),
      });
      if (check.ok) valid.push({ field: key, type: field.type, value: check.value });
      // Rules are sentences; the message joins them with semicolons and ends with its own stop.
      else problems.push(`${field.label}: ${check.rule.replace(/\.$/, '')}`);
    }
    if (problems.length > 0) {
      throw new LedgerError(
        `Nothing was queued: ${problems.join('; ')}. Correct ${problems.length === 1 ? 'the value' : 'the values'} and save again.`,
      );
    }
    return valid;
  }

  edit(
    portalId: string,
    recordId: string,
    changes: Record<string, unknown>,
  ): { result: EditResult; touched: Touched } {
    const record = this.requireRecord(portalId, recordId);
    if (record.trashed_time !== null) {
      throw new LedgerError(
        `Record "${record.name}" is in the trash, and the service refuses changes to trashed records. Nothing was queued; restore it first.`,
      );
    }
    const ops = this.repo.opsOfRecord(portalId, recordId);
    const catalog = this.catalogFor(record, ops);
    const valid = this.validate(catalog, changes, this.shownValues(record, catalog, ops));
    const plan = planEdit(ops, valid, {
      serverValue: (field) => storedValue(record, catalog.statuses, field),
      mayMoveStatus: catalog.mayMoveStatus,
    });
    const opId = this.repo.transaction(() => {
      let seq: number | null;
      if (plan.action === 'append') {
        seq =
          Object.keys(plan.fields).length === 0
            ? null
            : this.repo.insertOp({
                portalId,
                moduleId: record.module_id,
                recordId,
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
        this.writeLocalRecord(record, catalog, plan.fields);
      this.refreshOverlay(portalId, recordId);
      return seq;
    });
    return {
      result: { portalId, recordId, opId, reverted: plan.reverted },
      touched: { portalId, moduleId: record.module_id },
    };
  }

  create(
    portalId: string,
    moduleId: string,
    values: Record<string, unknown>,
  ): { result: EditResult; touched: Touched } {
    const catalog = loadEditCatalog(this.repo, portalId, moduleId, null, null);
    if (!catalog) throw this.notMirrored(portalId, moduleId);
    const withStatus =
      values.status === undefined && catalog.defaultStatusId !== null
        ? { ...values, status: catalog.defaultStatusId }
        : values;
    const valid = this.validate(catalog, withStatus);
    const given = new Map(valid.map((change) => [change.field, change.value]));
    const missing = catalog.fields
      .filter((f) => f.mandatory && f.type !== 'check_box' && (given.get(f.key) ?? null) === null)
      .map((f) => f.label);
    if (missing.length > 0) {
      throw new LedgerError(
        `Nothing was created: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required. Fill ${missing.length === 1 ? 'it' : 'them'} in and save again.`,
      );
    }
    const fields: OpFields = {};
    for (const change of valid)
      if (change.value !== null) fields[change.field] = { value: change.value, base: null };
    const recordId = tempId(TEMP_RECORD_PREFIX);
    const opId = this.repo.transaction(() => {
      this.edits.insertLocalRecord(
        portalId,
        catalog.moduleKey,
        recordId,
        catalog.layoutId,
        this.localValues(catalog, fields),
        this.iso(),
      );
      return this.repo.insertOp({ portalId, moduleId, recordId, kind: 'create', fields });
    });
    return { result: { portalId, recordId, opId, reverted: [] }, touched: { portalId, moduleId } };
  }

  private localValues(catalog: EditCatalog, fields: OpFields) {
    const value = (key: string) => fields[key]?.value ?? null;
    const status = value('status');
    const statusId =
      status && typeof status === 'object' && 'id' in status
        ? String((status as { id: unknown }).id)
        : catalog.defaultStatusId;
    const custom: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(fields)) {
      if (!catalog.types.has(key) || ['name', 'description', 'status', 'is_external'].includes(key))
        continue;
      custom[key] = entry.value;
    }
    return {
      name: String(value('name') ?? ''),
      description: String(value('description') ?? ''),
      statusId,
      isClosed: catalog.statuses.find((s) => s.id === statusId)?.isClosedType === 1,
      isExternal: value('is_external') === true,
      custom,
    };
  }

  private writeLocalRecord(record: StoredRecord, catalog: EditCatalog, fields: OpFields): void {
    this.edits.updateLocalRecord(
      record.portal_id,
      record.id,
      this.localValues(catalog, fields),
      this.iso(),
    );
  }

  /** record_edits of one record, from its queued updates (the lists' view of them). */
  refreshOverlay(portalId: string, recordId: string): void {
    this.edits.writeOverlay(
      portalId,
      recordId,
      overlayOf(this.repo.opsOfRecord(portalId, recordId)),
    );
  }

  // ---- trash and restore -------------------------------------------------------------------------

  private lastOpen(ops: readonly OutboxOp[]): OutboxOp | undefined {
    for (let i = ops.length - 1; i >= 0; i--) {
      const op = ops[i] as OutboxOp;
      if (COMMENT_KINDS.has(op.kind)) continue;
      return op.sentBody === null && op.state === 'pending' ? op : undefined;
    }
    return undefined;
  }

  trash(
    portalId: string,
    recordId: string,
    restore: boolean,
  ): { result: EditResult; touched: Touched } {
    const record = this.requireRecord(portalId, recordId);
    const trashed = record.trashed_time !== null;
    if (trashed !== restore) {
      throw new LedgerError(
        restore
          ? `Record "${record.name}" is not in the trash; nothing was queued.`
          : `Record "${record.name}" is already in the trash; nothing was queued.`,
      );
    }
    const ops = this.repo.opsOfRecord(portalId, recordId);
    const last = this.lastOpen(ops);
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
      const value = restore ? null : this.iso();
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

  // ---- comments ----------------------------------------------------------------------------------

  comment(args: CommentArgs): { opId: number | null; commentId: string; touched: Touched } {
    const record = this.requireRecord(args.portalId, args.recordId);
    const touched = { portalId: args.portalId, moduleId: record.module_id };
    if (args.action !== 'delete') {
      const content = args.content.replace(/\r\n?/g, '\n');
      if (content.trim() === '')
        throw new LedgerError('A comment needs some text; nothing was queued.');
      if ([...content].length > COMMENT_CONTENT_MAX) {
        throw new LedgerError(
          `A comment holds at most ${COMMENT_CONTENT_MAX} characters (this one has ${[...content].length}); nothing was queued. Shorten it and save again.`,
        );
      }
      args = { ...args, content };
    }
    const ops = this.repo.opsOfRecord(args.portalId, args.recordId);
    const open = (op: OutboxOp) =>
      op.sentBody === null && (op.state === 'pending' || op.state === 'failed');
    if (args.action === 'add') {
      const commentId = tempId(TEMP_COMMENT_PREFIX);
      const opId = this.repo.insertOp({
        portalId: args.portalId,
        moduleId: record.module_id,
        recordId: args.recordId,
        kind: 'comment_add',
        commentId,
        content: args.content,
      });
      return { opId, commentId, touched };
    }
    const { commentId } = args;
    const add = ops.find((op) => op.kind === 'comment_add' && op.commentId === commentId);
    const mirrored = this.edits.comment(args.portalId, commentId);
    if (!add && !mirrored) {
      throw new LedgerError(
        `Comment ${commentId} is not in the local mirror; nothing was queued. Refresh the record's comments.`,
      );
    }
    return this.repo.transaction(() => {
      const edits = ops.filter((op) => op.kind === 'comment_edit' && op.commentId === commentId);
      if (args.action === 'edit') {
        if (add && open(add)) {
          this.repo.rewriteOp(add.seq, add.fields, args.content);
          return { opId: add.seq, commentId, touched };
        }
        const lastEdit = edits.at(-1);
        if (lastEdit && open(lastEdit)) {
          if (lastEdit.baseContent === args.content) {
            this.repo.deleteOp(lastEdit.seq);
            return { opId: null, commentId, touched };
          }
          this.repo.rewriteOp(lastEdit.seq, lastEdit.fields, args.content);
          return { opId: lastEdit.seq, commentId, touched };
        }
        const base = lastEdit?.content ?? add?.content ?? mirrored?.content ?? null;
        if (base === args.content) return { opId: null, commentId, touched };
        const opId = this.repo.insertOp({
          portalId: args.portalId,
          moduleId: record.module_id,
          recordId: args.recordId,
          kind: 'comment_edit',
          commentId,
          content: args.content,
          baseContent: base,
        });
        return { opId, commentId, touched };
      }
      // Delete: edits not sent yet are moot; an add not sent yet never needs to go.
      for (const edit of edits) if (open(edit)) this.repo.deleteOp(edit.seq);
      if (add && open(add)) {
        this.repo.deleteOp(add.seq);
        return { opId: null, commentId, touched };
      }
      const opId = this.repo.insertOp({
        portalId: args.portalId,
        moduleId: record.module_id,
        recordId: args.recordId,
        kind: 'comment_delete',
        commentId,
      });
      return { opId, commentId, touched };
    });
  }

  pendingComments(portalId: string, recordId: string): PendingComment[] {
    return this.repo
      .opsOfRecord(portalId, recordId)
      .filter((op) => COMMENT_KINDS.has(op.kind))
      .map((op) => ({
        opId: op.seq,
        action: op.kind === 'comment_add' ? 'add' : op.kind === 'comment_edit' ? 'edit' : 'delete',
        commentId: op.commentId ?? '',
        content: op.content,
        queuedAt: op.queuedAt,
        state: op.state,
      }));
  }

  // ---- the user's actions on operations ----------------------------------------------------------

  private requireOp(id: number): OutboxOp {
    const op = this.repo.op(id);
    if (!op)
      throw new LedgerError(
        `Operation ${id} is no longer in the outbox (sent or discarded already); nothing was changed.`,
      );
    return op;
  }

  /** Later updates of the record that based `field` on `from` now base it on `to`. */
  private rebase(op: OutboxOp, field: string, to: unknown): void {
    for (const later of this.repo.opsOfRecord(op.portalId, op.recordId)) {
      if (later.seq <= op.seq || later.kind !== 'update' || !Object.hasOwn(later.fields, field))
        continue;
      const fields = { ...later.fields, [field]: { value: later.fields[field]?.value, base: to } };
      this.repo.setFields(later.seq, fields, later.state, later.conflict);
      break;
    }
  }

  discard(id: number): Touched {
    const op = this.requireOp(id);
    if (op.state === 'sending') {
      throw new LedgerError(
        'This change is being sent right now, so it cannot be discarded. Nothing was changed; wait for the answer and try again.',
      );
    }
    this.repo.transaction(() => {
      const ops = this.repo.opsOfRecord(op.portalId, op.recordId);
      if (op.kind === 'create') {
        for (const other of ops) this.repo.deleteOp(other.seq);
        this.edits.writeOverlay(op.portalId, op.recordId, new Map());
        this.edits.deleteLocalRecord(op.portalId, op.recordId);
        return;
      }
      this.repo.deleteOp(op.seq);
      if (op.kind === 'update') {
        for (const [field, entry] of Object.entries(op.fields)) this.rebase(op, field, entry.base);
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
    const op = this.requireOp(id);
    if (op.state === 'conflict') {
      throw new LedgerError(
        'This change conflicts with a change made on the service; resolve it field by field first. Nothing was changed.',
      );
    }
    this.repo.retryOp(op.seq);
  }

  resolve(
    id: number,
    resolutions: readonly {
      field: string;
      choice: 'mine' | 'theirs' | 'edited';
      value?: string | undefined;
    }[],
    recordChoice?: 'mine' | 'theirs',
  ): Touched {
    const op = this.requireOp(id);
    if (op.state !== 'conflict' || !op.conflict) {
      throw new LedgerError('This change has no conflict to resolve; nothing was changed.');
    }
    const touched = { portalId: op.portalId, moduleId: op.moduleId };
    const conflict = op.conflict;
    if (conflict.kind !== 'fields') {
      if (!recordChoice) {
        throw new LedgerError(
          "Choose whether to keep your version or the service's; nothing was changed.",
        );
      }
      this.repo.transaction(() =>
        this.resolveRecord(op, conflict.kind as 'deleted' | 'trashed', recordChoice),
      );
      return touched;
    }
    const open = new Map(conflict.fields.map((f) => [f.field, f]));
    for (const r of resolutions) {
      if (!open.has(r.field)) {
        throw new LedgerError(`${r.field} is not in conflict in this change; nothing was changed.`);
      }
      const cf = open.get(r.field) as ConflictField;
      if (r.choice === 'edited' && !cf.editable) {
        throw new LedgerError(
          `${cf.label} is not a text field; keep yours or take the service's. Nothing was changed.`,
        );
      }
    }
    this.repo.transaction(() => {
      if (op.kind === 'comment_edit') {
        const r = resolutions.find((x) => x.field === 'content');
        const cf = open.get('content');
        if (!r || !cf) return;
        if (r.choice === 'theirs') this.repo.deleteOp(op.seq);
        else
          this.repo.setComment(
            op.seq,
            r.choice === 'edited' ? (r.value ?? '') : String(cf.mine ?? ''),
            String(cf.theirs ?? ''),
            'pending',
            null,
          );
        return;
      }
      const fields: OpFields = { ...op.fields };
      for (const r of resolutions) {
        const cf = open.get(r.field) as ConflictField;
        open.delete(r.field);
        if (r.choice === 'theirs') {
          delete fields[r.field];
          this.rebase(op, r.field, cf.theirs);
        } else if (r.choice === 'mine') {
          fields[r.field] = { value: cf.mine, base: cf.theirs };
        } else {
          fields[r.field] = { value: r.value ?? '', base: cf.theirs };
          this.rebase(op, r.field, r.value ?? '');
        }
        const type = cf.type;
        const entry = fields[r.field];
        if (entry && sameFieldValue(type, entry.value, entry.base)) delete fields[r.field];
      }
      const rest = [...open.values()];
      if (Object.keys(fields).length === 0) this.repo.deleteOp(op.seq);
      else if (rest.length === 0) this.repo.setFields(op.seq, fields, 'pending', null);
      else this.repo.setFields(op.seq, fields, 'conflict', { ...conflict, fields: rest });
      this.refreshOverlay(op.portalId, op.recordId);
    });
    return touched;
  }

  /** The record is gone (deleted) or trashed on the service: keep mine re-queues, theirs drops. */
  private resolveRecord(
    op: OutboxOp,
    kind: 'deleted' | 'trashed',
    choice: 'mine' | 'theirs',
  ): void {
    const ops = this.repo.opsOfRecord(op.portalId, op.recordId);
    if (choice === 'theirs') {
      for (const other of ops) this.repo.deleteOp(other.seq);
      this.edits.writeOverlay(op.portalId, op.recordId, new Map());
      if (kind === 'deleted') this.edits.deleteServerCopy(op.portalId, op.recordId);
      return;
    }
    const record = this.edits.record(op.portalId, op.recordId);
    if (kind === 'trashed' || !record) {
      // Restore first, then the same change: both go to the end of the record's queue.
      this.repo.deleteOp(op.seq);
      if (kind === 'trashed') {
        this.repo.insertOp({
          portalId: op.portalId,
          moduleId: op.moduleId,
          recordId: op.recordId,
          kind: 'restore',
          fields: { trashed_time: { value: null, base: record?.trashed_time ?? null } },
        });
        this.edits.setTrashed(op.portalId, op.recordId, null);
      }
      this.repo.insertOp({
        portalId: op.portalId,
        moduleId: op.moduleId,
        recordId: op.recordId,
        kind: op.kind,
        fields: op.fields,
        commentId: op.commentId,
        content: op.content,
        baseContent: op.baseContent,
      });
      this.refreshOverlay(op.portalId, op.recordId);
      return;
    }
    // Deleted on the service: the record as this machine shows it becomes a new record.
    const catalog = this.catalogFor(record, ops);
    const overlay = overlayOf(ops);
    const fields: OpFields = {};
    for (const field of catalog.fields) {
      const value =
        overlay.get(field.key)?.value ?? storedValue(record, catalog.statuses, field.key);
      if (
        value !== null &&
        value !== undefined &&
        !(field.type === 'is_external' && value === false)
      ) {
        fields[field.key] = { value, base: null };
      }
    }
    for (const other of ops) this.repo.deleteOp(other.seq);
    this.edits.writeOverlay(op.portalId, op.recordId, new Map());
    this.edits.deleteServerCopy(op.portalId, op.recordId);
    const recordId = tempId(TEMP_RECORD_PREFIX);
    this.edits.insertLocalRecord(
      op.portalId,
      catalog.moduleKey,
      recordId,
      catalog.layoutId,
      this.localValues(catalog, fields),
      this.iso(),
    );
    this.repo.insertOp({
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId,
      kind: 'create',
      fields,
    });
  }

  // ---- listing -----------------------------------------------------------------------------------

  list(filter: { portalId?: string; recordId?: string } = {}): OutboxEntry[] {
    const ops =
      filter.portalId !== undefined && filter.recordId !== undefined
        ? this.repo.opsOfRecord(filter.portalId, filter.recordId)
        : this.repo.allOps(filter.portalId);
    const catalogs = new Map<string, EditCatalog | undefined>();
    const catalogOf = (op: OutboxOp) => {
      const key = `${op.portalId}/${op.moduleId}`;
      if (!catalogs.has(key))
        catalogs.set(key, loadEditCatalog(this.repo, op.portalId, op.moduleId, null, null));
      return catalogs.get(key);
    };
    return ops.map((op): OutboxEntry => {
      const catalog = catalogOf(op);
      const record = this.edits.record(op.portalId, op.recordId);
      const label = (field: string) => catalog?.fields.find((f) => f.key === field)?.label ?? field;
      const type = (field: string) => (catalog ? typeOf(catalog.types, field) : 'single_line');
      return {
        id: op.seq,
        portalId: op.portalId,
        moduleId: op.moduleId,
        module: catalog?.moduleName ?? null,
        recordId: op.recordId,
        recordName:
          record?.name ?? (typeof op.fields.name?.value === 'string' ? op.fields.name.value : null),
        kind: op.kind,
        state: op.state,
        queuedAt: op.queuedAt,
        updatedAt: op.updatedAt,
        edits: op.edits,
        attempts: op.attempts,
        nextAttemptAt: op.nextAttemptAt,
        error: op.error,
        fields:
          op.kind === 'create' || op.kind === 'update'
            ? Object.entries(op.fields).map(([field, entry]) => ({
                field,
                label: label(field),
                type: type(field),
                base: entry.base,
                mine: entry.value,
              }))
            : [],
        comment: COMMENT_KINDS.has(op.kind)
          ? { commentId: op.commentId, content: op.content }
          : null,
        conflict: op.conflict,
        uncertain: op.sentBody !== null,
      };
    });
  }
}
