/**
 * Where a user's change to a record's fields goes in its queue (issue 7: "Consecutive edits to one
 * record coalesce into one PATCH with only the changed fields; an edit then a revert drops the
 * operation"). Pure: the record's queued operations, the validated changes and the server copy's
 * values in, a plan out.
 *
 * - A create not sent yet takes the change itself (the record does not exist on the service).
 * - Otherwise the newest update operation takes it, if nothing but comments came after it and it
 *   was never sent (a sent one may already be applied: its base no longer describes the service).
 *   A field keeps the base of its first change; a value equal to its base drops the field, and an
 *   operation left without fields is dropped.
 * - Else a new update operation is appended, each field's base being the newest queued value of
 *   the field (what the service will hold when this one goes), else the server copy's.
 * - A status change that the status rules would refuse as one step (A → C when only A → B → C is
 *   allowed) is not folded into an earlier status change: it goes out as its own PATCH.
 * - Someone else's change (a bulk edit, `keepRefused`) is never folded into an operation the
 *   service refused: that one keeps its reason and stays stopped, the change waits behind it.
 */
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import {
  COMMENT_KINDS,
  isOpen,
  type FieldEntry,
  type OpFields,
  type OutboxOp,
} from './outboxTypes';

export interface FieldChange {
  field: string;
  type: string;
  /** Validated, in the API's shape (validateFieldValue). */
  value: unknown;
}

export type EditPlan =
  /** Write `fields` as the operation's new fields (empty: drop it). */
  | {
      action: 'merge';
      seq: number;
      kind: 'create' | 'update';
      fields: OpFields;
      reverted: string[];
    }
  /** Queue a new update with `fields` (empty: nothing to queue). */
  | { action: 'append'; fields: OpFields; reverted: string[] };

export interface PlanContext {
  /** The server copy's value of a field, in the API's shape. */
  serverValue(field: string): unknown;
  /** Whether the service accepts the status change as one step (from and to are status ids). */
  mayMoveStatus(fromId: string | null, toId: string | null): boolean;
  /**
   * A change made by someone else than the operation's author (a bulk edit): an operation the
   * service refused keeps its reason and stays stopped, and the change is queued behind it. Only
   * the user's own edit of it re-arms it.
   */
  keepRefused?: boolean;
}

function statusId(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'id' in value) {
    return String((value as { id: unknown }).id);
  }
  return null;
}

/** The value `field` will have on the service once every op before `index` has gone out. */
function valueBefore(ops: readonly OutboxOp[], index: number, field: string, context: PlanContext) {
  for (let i = index - 1; i >= 0; i--) {
    const op = ops[i] as OutboxOp;
    if ((op.kind === 'update' || op.kind === 'create') && Object.hasOwn(op.fields, field)) {
      return (op.fields[field] as FieldEntry).value;
    }
  }
  return context.serverValue(field);
}

export function planEdit(
  ops: readonly OutboxOp[],
  changes: readonly FieldChange[],
  context: PlanContext,
): EditPlan {
  const mayFoldInto = (op: OutboxOp) =>
    isOpen(op) && !(context.keepRefused === true && op.state === 'failed');
  const create = ops.find((op) => op.kind === 'create');
  if (create && mayFoldInto(create)) {
    const fields: OpFields = { ...create.fields };
    for (const change of changes) fields[change.field] = { value: change.value, base: null };
    return { action: 'merge', seq: create.seq, kind: 'create', fields, reverted: [] };
  }

  let targetIndex = -1;
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i] as OutboxOp;
    if (COMMENT_KINDS.has(op.kind)) continue;
    if (op.kind === 'update' && mayFoldInto(op)) targetIndex = i;
    break;
  }
  const target = targetIndex >= 0 ? (ops[targetIndex] as OutboxOp) : undefined;

  const merged: OpFields = target ? { ...target.fields } : {};
  const reverted: string[] = [];
  let foldable = target !== undefined;
  for (const change of changes) {
    const kept = target?.fields[change.field];
    const base = kept
      ? kept.base
      : valueBefore(ops, target ? targetIndex : ops.length, change.field, context);
    if (
      change.type === 'status' &&
      kept &&
      !sameFieldValue('status', change.value, base) &&
      !context.mayMoveStatus(statusId(base), statusId(change.value))
    ) {
      foldable = false;
    }
    if (sameFieldValue(change.type, change.value, base)) {
      delete merged[change.field];
      reverted.push(change.field);
    } else {
      merged[change.field] = { value: change.value, base };
    }
  }
  if (target && foldable) {
    return { action: 'merge', seq: target.seq, kind: 'update', fields: merged, reverted };
  }

  // A new operation after everything queued: bases are what the queue will have written.
  const fields: OpFields = {};
  const appendReverted: string[] = [];
  for (const change of changes) {
    const base = valueBefore(ops, ops.length, change.field, context);
    if (sameFieldValue(change.type, change.value, base)) appendReverted.push(change.field);
    else fields[change.field] = { value: change.value, base };
  }
  return { action: 'append', fields, reverted: appendReverted };
}
