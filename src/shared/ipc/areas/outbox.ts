/**
 * The outbox area: local edits of mirrored records (field changes, new records, trash and restore,
 * comments), queued as operations and replayed to the service exactly once, in order per record;
 * the conflicts a replay found and their resolution; the "work offline" switch; and one pushed
 * summary for the status bar and the Outbox view. contract.ts composes these with every other
 * area's.
 */
import { boundedRecord } from '@portaldesk/portal-api/json/boundedRecord';
import { PROTOTYPE_KEY, PROTOTYPE_KEY_REASON } from '@portaldesk/portal-api/json/prototypeKey';
import { z } from 'zod';
import { NoArgs, request } from '../contractSpec';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');
const ModuleId = z.string().regex(/^\d{1,20}$/, 'a module id (digits)');
/** Server ids are digits; records and comments created offline carry temporary ids (`tmp-…`). */
const RecordId = z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'a record id');
const CommentId = z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'a comment id');
/** An API body key (name, description, status, is_external) or a custom field's api_name. */
const FieldKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,99}$/, 'a field key');
const OpId = z.number().int().positive();

/** Ours: fields one edit may change at once (a record has far fewer). */
export const EDIT_FIELDS_MAX = 200;

/** A field as an editor needs it: its type, its rules and what may be chosen. */
/** A status added in the Outbox and not sent yet, and why a record cannot be set to it yet. */
export const WaitingStatus = z.object({ id: z.string(), name: z.string(), reason: z.string() });
export type WaitingStatus = z.infer<typeof WaitingStatus>;

export const EditableField = z.object({
  key: z.string(),
  label: z.string(),
  /**
   * A custom field type (packages/portal-api/src/domain/customFieldTypes.ts), or one of the record's own:
   * `name`, `description`, `status`, `is_external`.
   */
  type: z.string(),
  mandatory: z.boolean(),
  /** Pick lists and multi-selects: their options on the record's layout. */
  options: z.array(z.object({ id: z.string(), name: z.string() })),
  /**
   * User fields: whom they may pick (the field's selected users, else the portal's people); their
   * email where the mirror knows it (an import names a user by it).
   */
  users: z.array(
    z.object({
      zpuid: z.string(),
      name: z.string().nullable(),
      email: z.string().nullable().optional(),
    }),
  ),
  /** True when only `users` may be picked; false when anyone of the portal may (the list helps). */
  usersRestricted: z.boolean(),
  /** Status: the statuses it may move to from the one it has now (that one first). */
  statuses: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      color: z.string().nullable(),
      isClosedType: z.boolean(),
    }),
  ),
  /**
   * Status: statuses added in the Outbox and not sent yet, shown beside `statuses` but not
   * selectable, each with why (their ids are the service's to give). Absent: none.
   */
  waitingStatuses: z.array(WaitingStatus).optional(),
  /** Currency: the code used when a value names none. */
  currencyCode: z.string(),
  /** Currency: decimals of the formatted amount. */
  precision: z.number().int().nonnegative(),
});
export type EditableField = z.infer<typeof EditableField>;

/** When a field's pending value was queued, and the server value it was made on. */
export const PendingValue = z.object({
  queuedAt: z.string(),
  base: z.unknown(),
  state: z.enum(['pending', 'sending', 'failed', 'conflict']),
});
export type PendingValue = z.infer<typeof PendingValue>;

/** What an editor for one record (or a new one) shows. */
export const EditForm = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  /** Null for a new record. */
  recordId: z.string().nullable(),
  /** The portal's zone: dates and time stamps are edited in it. */
  timeZone: z.string(),
  fields: z.array(EditableField),
  /** Current values (pending ones included) in the shapes the API shows, by field key. */
  values: z.record(z.string(), z.unknown()),
  /** Fields with a pending change. */
  pending: z.record(z.string(), PendingValue),
});
export type EditForm = z.infer<typeof EditForm>;

export const OpKind = z.enum([
  'create',
  'update',
  'trash',
  'restore',
  'comment_add',
  'comment_edit',
  'comment_delete',
  /** A change of the portal's configuration (a module today): `config` on the entry says which. */
  'config',
  /** A record in the recycle bin deleted for good. */
  'delete',
]);
export type OpKind = z.infer<typeof OpKind>;

export const OpState = z.enum(['pending', 'sending', 'failed', 'conflict']);
export type OpState = z.infer<typeof OpState>;

export const OpField = z.object({
  field: z.string(),
  label: z.string(),
  type: z.string(),
  base: z.unknown(),
  mine: z.unknown(),
});
export type OpField = z.infer<typeof OpField>;

export const ConflictField = OpField.extend({
  theirs: z.unknown(),
  /** Text fields offer an edit box besides "keep mine" and "take theirs". */
  editable: z.boolean(),
});
export type ConflictField = z.infer<typeof ConflictField>;

export const OpConflict = z.object({
  /** `fields`: values changed on the service too; `deleted`/`trashed`: the record is gone there. */
  kind: z.enum(['fields', 'deleted', 'trashed']),
  fields: z.array(ConflictField),
  /** When the replay found it (ISO). */
  foundAt: z.string(),
});
export type OpConflict = z.infer<typeof OpConflict>;

/** One queued operation, as the Outbox view lists it. */
export const OutboxEntry = z.object({
  id: OpId,
  portalId: z.string(),
  moduleId: z.string(),
  module: z.string().nullable(),
  recordId: z.string(),
  recordName: z.string().nullable(),
  kind: OpKind,
  state: OpState,
  queuedAt: z.string(),
  updatedAt: z.string(),
  /** User edits coalesced into this operation. */
  edits: z.number().int().nonnegative(),
  attempts: z.number().int().nonnegative(),
  /** Epoch ms of the next automatic try after a transient failure. */
  nextAttemptAt: z.number().nullable(),
  /** Failed: the service's reason; pending: why the last try did not get through. */
  error: z.string().nullable(),
  fields: z.array(OpField),
  comment: z
    .object({ commentId: z.string().nullable(), content: z.string().nullable() })
    .nullable(),
  conflict: OpConflict.nullable(),
  /** A send may have reached the service without its answer: checked before any retry. */
  uncertain: z.boolean(),
  /** Configuration changes: what is changed and what will be sent. */
  config: z
    .object({
      /** `module.create`, `module.update`, `module.activate`, ... */
      action: z.string(),
      /** The module's name as shown (the one it will have once sent). */
      target: z.string(),
      /** One line: "Create module Assets", "Rename to Equipment". */
      summary: z.string(),
      /** The request: method, path (with the module's API name, or "(once created)"), body. */
      request: z.object({ method: z.string(), path: z.string(), body: z.unknown() }),
    })
    .nullable(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

export const OutboxCounts = z.object({
  pending: z.number().int().nonnegative(),
  sending: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  conflict: z.number().int().nonnegative(),
});
export type OutboxCounts = z.infer<typeof OutboxCounts>;

export const OutboxStatus = z.object({
  counts: OutboxCounts,
  /** Operations in the outbox, every state. */
  total: z.number().int().nonnegative(),
  /** The user's "work offline" switch: nothing is sent while it is on (kept across restarts). */
  workOffline: z.boolean(),
  /** False after the replay or a sync found no connection, true after one got through, null before. */
  online: z.boolean().nullable(),
  /** Epoch ms the replay will next try, when it waits (offline, or after a transient failure). */
  nextAttemptAt: z.number().nullable(),
  /** Operations delivered since the engine started. */
  replayed: z.number().int().nonnegative(),
  at: z.number(),
});
export type OutboxStatus = z.infer<typeof OutboxStatus>;

export const OutboxNotice = z.object({
  /** `replayed`: everything queued went out; `attention`: a failure or conflict waits for the user. */
  kind: z.enum(['replayed', 'attention']),
  message: z.string(),
});
export type OutboxNotice = z.infer<typeof OutboxNotice>;

/** A record or comment created offline that now has the service's id. */
export const Remap = z.object({
  portalId: z.string(),
  kind: z.enum(['record', 'comment']),
  from: z.string(),
  to: z.string(),
});
export type Remap = z.infer<typeof Remap>;

export const OutboxChanged = OutboxStatus.extend({
  notice: OutboxNotice.nullable(),
  remapped: z.array(Remap),
});
export type OutboxChanged = z.infer<typeof OutboxChanged>;

const RecordRef = z.object({ portalId: PortalId, recordId: RecordId }).strict();

/**
 * zod leaves a member named "__proto__" out of a record silently; a change to it is refused in
 * words instead, like any key that is no field (packages/portal-api/src/json/prototypeKey.ts).
 */
const refusePrototypeKey = (value: unknown, ctx: z.core.$RefinementCtx) => {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, PROTOTYPE_KEY)) {
    ctx.addIssue({
      code: 'custom',
      message: `no field is named "${PROTOTYPE_KEY}" (${PROTOTYPE_KEY_REASON})`,
    });
  }
  return value;
};

// The count is checked before the keys: each wrong key of a huge object was a complaint of its own.
const ChangedFields = boundedRecord(
  FieldKey,
  z.unknown(),
  EDIT_FIELDS_MAX,
  `at most ${EDIT_FIELDS_MAX} fields at once`,
).refine((changes) => Object.keys(changes).length > 0, 'change at least one field');
// Typed as the record it checks: callers send field changes, and only the check sees more.
const Changes = z.preprocess(refusePrototypeKey, ChangedFields) as unknown as typeof ChangedFields;

export const EditResult = z.object({
  portalId: z.string(),
  recordId: z.string(),
  /** The operation now holding the change; null when the edit undid every pending change. */
  opId: OpId.nullable(),
  /** Fields whose pending change was dropped because the new value equals the server's. */
  reverted: z.array(z.string()),
});
export type EditResult = z.infer<typeof EditResult>;

export const CommentArgs = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('add'),
      portalId: PortalId,
      recordId: RecordId,
      content: z.string(),
    })
    .strict(),
  z
    .object({
      action: z.literal('edit'),
      portalId: PortalId,
      recordId: RecordId,
      commentId: CommentId,
      content: z.string(),
    })
    .strict(),
  z
    .object({
      action: z.literal('delete'),
      portalId: PortalId,
      recordId: RecordId,
      commentId: CommentId,
    })
    .strict(),
]);
export type CommentArgs = z.infer<typeof CommentArgs>;

/** A pending comment of a record, for the panel to show beside the mirrored ones. */
export const PendingComment = z.object({
  opId: OpId,
  action: z.enum(['add', 'edit', 'delete']),
  /** The mirrored comment edited or deleted; the temporary id for an added one. */
  commentId: z.string(),
  content: z.string().nullable(),
  queuedAt: z.string(),
  state: OpState,
});
export type PendingComment = z.infer<typeof PendingComment>;

export const Resolution = z
  .object({
    field: FieldKey,
    choice: z.enum(['mine', 'theirs', 'edited']),
    /** For `edited`: the text to keep. */
    value: z.string().optional(),
  })
  .strict()
  .refine((r) => r.choice !== 'edited' || r.value !== undefined, {
    message: 'an edited resolution needs its text',
    path: ['value'],
  });

export const outboxRequests = {
  'outbox.form': request(
    z.object({ portalId: PortalId, moduleId: ModuleId, recordId: RecordId.optional() }).strict(),
    EditForm,
    "A record's (or a new record's) editable fields, rules, current and pending values.",
  ),
  'outbox.edit': request(
    RecordRef.extend({ changes: Changes }).strict(),
    EditResult,
    'Change fields of a record offline: validated, written to the overlay and queued.',
  ),
  'outbox.create': request(
    z.object({ portalId: PortalId, moduleId: ModuleId, values: Changes }).strict(),
    EditResult,
    'Create a record offline under a temporary id; queued for the service.',
  ),
  'outbox.trash': request(RecordRef, EditResult, 'Move a record to the trash (queued).'),
  'outbox.restore': request(RecordRef, EditResult, 'Restore a record from the trash (queued).'),
  'outbox.deleteRecord': request(
    RecordRef,
    EditResult,
    'Delete a record in the recycle bin for good (queued; the service then removes it).',
  ),
  'outbox.comment': request(
    CommentArgs,
    z.object({ opId: OpId.nullable(), commentId: z.string() }),
    'Add, edit or delete a comment of a record (queued).',
  ),
  'outbox.pendingComments': request(
    RecordRef,
    z.array(PendingComment),
    "A record's comment changes waiting in the outbox.",
  ),
  'outbox.list': request(
    z
      .object({
        portalId: PortalId.optional(),
        recordId: RecordId.optional(),
        /**
         * At most this many of each state (the oldest): the Outbox view's, so that a bulk edit's
         * 10,000 queued updates are not read, sent and drawn again at every change (the counts
         * come from outbox.status). Left out: every one.
         */
        perState: z.number().int().min(1).max(100_000).optional(),
      })
      .strict()
      .optional(),
    z.array(OutboxEntry),
    'Queued operations, oldest first: pending, sending, failed and in conflict.',
  ),
  'outbox.retry': request(
    z.object({ id: OpId.optional() }).strict().optional(),
    OutboxStatus,
    'Try a failed operation (or every waiting one) again now.',
  ),
  'outbox.discard': request(
    z.object({ id: OpId }).strict(),
    OutboxStatus,
    'Drop an operation and its local change (a discarded create drops the record).',
  ),
  'outbox.resolve': request(
    z
      .object({
        id: OpId,
        fields: z.array(Resolution).max(EDIT_FIELDS_MAX).default([]),
        /** For a record deleted or trashed on the service: keep mine (re-create/restore) or theirs. */
        record: z.enum(['mine', 'theirs']).optional(),
      })
      .strict(),
    OutboxStatus,
    'Resolve a conflict field by field: keep mine, take theirs, or keep edited text.',
  ),
  'outbox.setWorkOffline': request(
    z.object({ on: z.boolean() }).strict(),
    OutboxStatus,
    'Work offline: neither the outbox nor sync sends anything until switched off.',
  ),
  'outbox.status': request(NoArgs, OutboxStatus, 'Counts, online state and the offline switch.'),
} as const;

export const outboxEvents = {
  /** After any change of the outbox; `notice` when a replay finished or needs attention. */
  'outbox.changed': OutboxChanged,
} as const;
