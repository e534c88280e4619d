/**
 * The operation log's shapes as the outbox's pure rules and its repository share them. Values are
 * in the shapes the API shows (the overlay's), never request bodies: bodies are derived at send
 * time (requestBody.ts), so a coalesced multi-select still goes out as one `{add, remove}`.
 */
import type { OpConflict, OpKind, OpState } from '../../shared/ipc/areas/outbox';

export type { OpKind, OpState };

/** One field of a create or update: the value to write and the server's value it was made on. */
export interface FieldEntry {
  value: unknown;
  base: unknown;
}

export type OpFields = Record<string, FieldEntry>;

/** An operation as stored (outbox_ops), parsed. */
export interface OutboxOp {
  seq: number;
  portalId: string;
  moduleId: string;
  recordId: string;
  kind: OpKind;
  state: OpState;
  fields: OpFields;
  commentId: string | null;
  content: string | null;
  baseContent: string | null;
  edits: number;
  queuedAt: string;
  updatedAt: string;
  attempts: number;
  nextAttemptAt: number | null;
  /** JSON of what the last send carried; non-null: the service may have applied it. */
  sentBody: string | null;
  sentAt: string | null;
  error: string | null;
  conflict: OpConflict | null;
  /** Config operations: what they do (`module.create`, ...); null for a record's. */
  action: string | null;
}

/**
 * What writing a queued operation again changes besides its fields (a fold counts an edit, dates
 * it, ends a backoff; a user's own edit re-arms a refused one): kept by a bulk edit so that its
 * undo gives the operation back exactly.
 */
export interface OpStatus {
  state: OpState;
  error: string | null;
  attempts: number;
  nextAttemptAt: number | null;
  edits: number;
  queuedAt: string;
  updatedAt: string;
}

export function opStatus(op: OutboxOp): OpStatus {
  const { state, error, attempts, nextAttemptAt, edits, queuedAt, updatedAt } = op;
  return { state, error, attempts, nextAttemptAt, edits, queuedAt, updatedAt };
}

/** The field's type (a custom field type, or name/description/status/is_external) by field key. */
export type FieldTypes = ReadonlyMap<string, string>;

/** The record's own fields an edit may change, with the type the rules know them by. */
export const SYSTEM_FIELD_TYPES: Readonly<Record<string, string>> = {
  name: 'name',
  description: 'description',
  status: 'status',
  is_external: 'is_external',
};

/** The type of `field`, `single_line` when the catalog does not know it (compared as text). */
export function typeOf(types: FieldTypes, field: string): string {
  return types.get(field) ?? SYSTEM_FIELD_TYPES[field] ?? 'single_line';
}

/** The kinds of a record's queue that change its comments, not its fields. */
export const COMMENT_KINDS: ReadonlySet<OpKind> = new Set([
  'comment_add',
  'comment_edit',
  'comment_delete',
]);

/** Ops of a record that were never sent and may still change. */
export function isOpen(op: OutboxOp): boolean {
  return op.sentBody === null && (op.state === 'pending' || op.state === 'failed');
}

/** What a change touched (a portal's module), for the events the caller sends. */
export interface Touched {
  portalId: string;
  moduleId: string;
}
