/**
 * The user's answer to a conflict (an operation in state `conflict`, found by the replayer):
 *
 * - fields changed on the service since the edit: per field keep mine (sent again, now based on
 *   theirs; of a compound value, the parts I changed over theirs), take theirs (dropped from the
 *   operation) or an edited text; the operation goes back to the queue once no field is left in
 *   conflict, and is dropped when nothing is left to send; a field deleted on the service takes
 *   theirs only;
 * - a comment edited there: the same for its content;
 * - the record deleted or trashed there: keep mine (a trashed record is restored first; a deleted
 *   one becomes a new record as this machine shows it) or take theirs (the record's queue goes).
 *
 * The choices are checked first (a LedgerError changes nothing), then written in one transaction.
 */
import type { ConflictField, OpConflict } from '../../shared/ipc/areas/outbox';
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import type { StoredRecord } from '../store/mirror/localEditsRepository';
import { storedValue, type EditCatalog } from './editCatalog';
import { LedgerError } from './ledgerError';
import { mineOverTheirs } from './mergeParts';
import { catalogFor, requireOp, type LedgerStores } from './ledgerReads';
import { dropQueue, insertLocalRecord, rebaseLater, refreshOverlay } from './ledgerWrites';
import type { OpFields, OutboxOp, Touched } from './outboxTypes';
import { overlayOf } from './overlayOf';
import { TEMP_RECORD_PREFIX, tempId } from './tempIds';

export interface FieldResolution {
  field: string;
  choice: 'mine' | 'theirs' | 'edited';
  value?: string | undefined;
}

/** Refuses a resolution of a field not in conflict, or an edited value for a field not text. */
function checkResolutions(
  open: ReadonlyMap<string, ConflictField>,
  resolutions: readonly FieldResolution[],
): void {
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
}

/**
 * An update's fields after the user's choices, the fields still in conflict, and the new bases of
 * later updates (a field whose value the service will not get from this operation). A field
 * whose chosen value equals its base has nothing to send and is dropped. Pure.
 */
export function resolveFields(
  opFields: OpFields,
  conflictFields: readonly ConflictField[],
  resolutions: readonly FieldResolution[],
): { fields: OpFields; rest: ConflictField[]; rebases: { field: string; to: unknown }[] } {
  const open = new Map(conflictFields.map((f) => [f.field, f]));
  const fields: OpFields = { ...opFields };
  const rebases: { field: string; to: unknown }[] = [];
  for (const r of resolutions) {
    const cf = open.get(r.field) as ConflictField;
    open.delete(r.field);
    if (r.choice === 'theirs') {
      delete fields[r.field];
      rebases.push({ field: r.field, to: cf.theirs });
    } else if (r.choice === 'mine') {
      // The parts of a compound value I did not change stay as the service has them.
      const entry = opFields[r.field];
      const mine = entry ? mineOverTheirs(cf.type, entry.base, entry.value, cf.theirs) : cf.mine;
      fields[r.field] = { value: mine, base: cf.theirs };
    } else {
      fields[r.field] = { value: r.value ?? '', base: cf.theirs };
      rebases.push({ field: r.field, to: r.value ?? '' });
    }
    const entry = fields[r.field];
    if (entry && sameFieldValue(cf.type, entry.value, entry.base)) delete fields[r.field];
  }
  return { fields, rest: [...open.values()], rebases };
}

/**
 * A configuration change's conflict (settings changed on the service too): per setting keep mine
 * or take theirs, as for a record's fields; nothing else of the mirror changes (the configuration
 * overlay is read from the queue).
 */
export function resolveConfigConflict(
  repo: LedgerStores['repo'],
  op: OutboxOp,
  resolutions: readonly FieldResolution[],
): Touched {
  if (op.state !== 'conflict' || !op.conflict) {
    throw new LedgerError('This change is not in conflict; nothing was changed.');
  }
  checkResolutions(new Map(op.conflict.fields.map((f) => [f.field, f])), resolutions);
  const { fields, rest } = resolveFields(op.fields, op.conflict.fields, resolutions);
  repo.transaction(() => {
    if (Object.keys(fields).length === 0) repo.deleteOp(op.seq);
    else if (rest.length > 0)
      repo.setFields(op.seq, fields, 'conflict', { ...op.conflict!, fields: rest });
    else repo.setFields(op.seq, fields, 'pending', null);
  });
  return { portalId: op.portalId, moduleId: op.moduleId };
}

export function resolveConflict(
  stores: LedgerStores,
  id: number,
  resolutions: readonly FieldResolution[],
  recordChoice?: 'mine' | 'theirs',
): Touched {
  const { repo } = stores;
  const op = requireOp(repo, id);
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
    if (recordChoice === 'mine' && conflict.kind === 'deleted') requireShownRecord(stores, op);
    repo.transaction(() =>
      resolveRecord(stores, op, conflict.kind as 'deleted' | 'trashed', recordChoice),
    );
    return touched;
  }
  const open = new Map(conflict.fields.map((f) => [f.field, f]));
  checkResolutions(open, resolutions);
  if (op.kind === 'update') refuseDeletedFields(stores, op, open, resolutions);
  repo.transaction(() => {
    if (op.kind === 'comment_edit') resolveComment(stores, op, open, resolutions);
    else resolveUpdate(stores, op, conflict, resolutions);
  });
  return touched;
}

/**
 * A field deleted on the service (a sync took it out of the mirror's catalog) cannot get my
 * value: the service would refuse the whole change. Only the service's version (dropping it) is
 * taken, in words.
 */
function refuseDeletedFields(
  stores: LedgerStores,
  op: OutboxOp,
  open: ReadonlyMap<string, ConflictField>,
  resolutions: readonly FieldResolution[],
): void {
  const record = stores.edits.record(op.portalId, op.recordId);
  if (!record) return;
  const catalog = catalogFor(
    stores.repo,
    record,
    stores.repo.opsOfRecord(op.portalId, op.recordId),
  );
  for (const r of resolutions) {
    if (r.choice === 'theirs' || catalog.types.has(r.field)) continue;
    const field = open.get(r.field)?.field ?? r.field;
    throw new LedgerError(
      `${field} was deleted on the service, so your value for it cannot be sent there. Take the service's version to drop it, and the record's later changes go. Nothing was changed.`,
    );
  }
}

function resolveComment(
  { repo }: LedgerStores,
  op: OutboxOp,
  open: ReadonlyMap<string, ConflictField>,
  resolutions: readonly FieldResolution[],
): void {
  const r = resolutions.find((x) => x.field === 'content');
  const cf = open.get('content');
  if (!r || !cf) return;
  if (r.choice === 'theirs') repo.deleteOp(op.seq);
  else
    repo.setComment(
      op.seq,
      r.choice === 'edited' ? (r.value ?? '') : String(cf.mine ?? ''),
      String(cf.theirs ?? ''),
      'pending',
      null,
    );
}

function resolveUpdate(
  stores: LedgerStores,
  op: OutboxOp,
  conflict: OpConflict,
  resolutions: readonly FieldResolution[],
): void {
  const { repo } = stores;
  const { fields, rest, rebases } = resolveFields(op.fields, conflict.fields, resolutions);
  for (const { field, to } of rebases) rebaseLater(stores, op, field, to);
  if (Object.keys(fields).length === 0) repo.deleteOp(op.seq);
  else if (rest.length === 0) repo.setFields(op.seq, fields, 'pending', null);
  else repo.setFields(op.seq, fields, 'conflict', { ...conflict, fields: rest });
  refreshOverlay(stores, op.portalId, op.recordId);
}

/**
 * The record as this machine shows it (queued values over the server copy's), as the fields of a
 * create: what "keep mine" sends when the record was deleted on the service. Pure.
 */
function shownRecordFields(
  record: StoredRecord,
  catalog: EditCatalog,
  ops: readonly OutboxOp[],
): OpFields {
  const overlay = overlayOf(ops);
  const fields: OpFields = {};
  for (const field of catalog.fields) {
    const value = overlay.get(field.key)?.value ?? storedValue(record, catalog, field.key);
    if (
      value !== null &&
      value !== undefined &&
      !(field.type === 'is_external' && value === false)
    ) {
      fields[field.key] = { value, base: null };
    }
  }
  return fields;
}

/**
 * "Keep mine" of a record deleted on the service makes it again as this machine shows it, which
 * needs the mirror's copy: once a sync has taken that out too, sending the change again would only
 * meet the deletion again, so the choice is refused in words.
 */
function requireShownRecord({ edits }: LedgerStores, op: OutboxOp): void {
  if (edits.record(op.portalId, op.recordId)) return;
  throw new LedgerError(
    `Record ${op.recordId} was deleted on the service, and a sync has since removed it from this computer too, so it cannot be made again from here. Your change is still in the Outbox: take the service's version to drop it, or create the record anew. Nothing was changed.`,
  );
}

/** The record is gone (deleted) or trashed on the service: keep mine re-queues, theirs drops. */
function resolveRecord(
  stores: LedgerStores,
  op: OutboxOp,
  kind: 'deleted' | 'trashed',
  choice: 'mine' | 'theirs',
): void {
  const { repo, edits } = stores;
  const ops = repo.opsOfRecord(op.portalId, op.recordId);
  if (choice === 'theirs') {
    dropQueue(stores, op.portalId, op.recordId, ops);
    if (kind === 'deleted') edits.deleteServerCopy(op.portalId, op.recordId);
    return;
  }
  const record = edits.record(op.portalId, op.recordId);
  if (kind === 'trashed') {
    // Restore first, then the same change, then what was queued after it (a comment, a trash):
    // the record's queue in its order again behind the restore, which the service needs first.
    repo.insertOp({
      portalId: op.portalId,
      moduleId: op.moduleId,
      recordId: op.recordId,
      kind: 'restore',
      fields: { trashed_time: { value: null, base: record?.trashed_time ?? null } },
    });
    edits.setTrashed(op.portalId, op.recordId, null);
    repo.setFields(repo.requeueOp(op.seq), op.fields, 'pending', null);
    for (const later of ops) if (later.seq > op.seq) repo.requeueOp(later.seq);
    refreshOverlay(stores, op.portalId, op.recordId);
    return;
  }
  if (!record) return; // refused before the transaction (requireShownRecord)
  // Deleted on the service: the record as this machine shows it becomes a new record, and the
  // comments queued for it go to that one, after its creation. Its other changes are in its fields
  // now; changes of its comments on the service went with it.
  const catalog = catalogFor(repo, record, ops);
  const fields = shownRecordFields(record, catalog, ops);
  const comments = ops.filter((o) => o.kind === 'comment_add');
  dropQueue(
    stores,
    op.portalId,
    op.recordId,
    ops.filter((o) => o.kind !== 'comment_add'),
  );
  edits.deleteServerCopy(op.portalId, op.recordId);
  const recordId = tempId(TEMP_RECORD_PREFIX);
  insertLocalRecord(stores, op.portalId, catalog, recordId, fields);
  repo.insertOp({
    portalId: op.portalId,
    moduleId: op.moduleId,
    recordId,
    kind: 'create',
    fields,
  });
  for (const comment of comments) repo.requeueOp(comment.seq);
  repo.moveRecordOps(op.portalId, op.recordId, recordId);
}
