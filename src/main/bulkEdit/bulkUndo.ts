/**
 * What the undo of a bulk edit does to one record (issue 20: "discard the operations it made";
 * where it folded into the user's own queued edit, that edit's value comes back, not nothing).
 * Pure: what the bulk edit recorded for the record, and the record's queue now, in; a step out.
 * The bulk edit's value is taken back only while the field still holds exactly it and its
 * operation has not been claimed by the replay: a later edit of the field, or a send, wins.
 */
import type { FieldEntry, OpStatus, OutboxOp } from '../outbox/outboxTypes';
import { isOpen, opStatus } from '../outbox/outboxTypes';
import type { BulkEditRecordRow } from './bulkEditRepository';

export type UndoStep =
  /**
   * Put the field of the row's operation back to `row.previous` (ledger.restoreField), and its
   * status to `status` (null: it keeps the one it has).
   */
  | { kind: 'restore'; status: OpStatus | null }
  /** The bulk edit reverted the record's queued edit and so dropped it: queue `entry` again. */
  | { kind: 'requeue'; entry: FieldEntry; status: OpStatus | null }
  /** The change went out (or is going, or was discarded in the Outbox): nothing to take back. */
  | { kind: 'sent' }
  /** The field was edited again since: that edit stays. */
  | { kind: 'changedSince' };

const same = (a: FieldEntry | undefined, b: FieldEntry) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The status the fold found, while the operation still has the one the fold left: a send tried
 * since (a refusal, a backoff) or a later edit of it is kept as it is.
 */
function statusBack(row: BulkEditRecordRow, op: OutboxOp): OpStatus | null {
  if (!row.opBefore || !row.opAfter) return null;
  const now = opStatus(op);
  const after = row.opAfter;
  const untouched = (Object.keys(now) as (keyof OpStatus)[]).every((k) => now[k] === after[k]);
  return untouched ? row.opBefore : null;
}

export function undoStep(
  row: BulkEditRecordRow,
  field: string,
  ops: readonly OutboxOp[],
): UndoStep {
  const op = ops.find((o) => o.seq === row.opSeq);
  if (row.written === null) {
    // The bulk value equalled the field's base: the field left the user's queued edit.
    if (op) {
      if (!isOpen(op)) return { kind: 'sent' };
      return Object.hasOwn(op.fields, field)
        ? { kind: 'changedSince' }
        : { kind: 'restore', status: statusBack(row, op) };
    }
    const heldLater = ops.some(
      (o) => (o.kind === 'update' || o.kind === 'create') && Object.hasOwn(o.fields, field),
    );
    if (heldLater || row.previous === null) return { kind: 'changedSince' };
    return { kind: 'requeue', entry: row.previous, status: row.opBefore };
  }
  if (!op || !isOpen(op)) return { kind: 'sent' };
  return same(op.fields[field], row.written)
    ? { kind: 'restore', status: statusBack(row, op) }
    : { kind: 'changedSince' };
}
