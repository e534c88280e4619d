/**
 * Bulk edit (issue 20): one field of many records of a module changed at once: the selection
 * (rows picked, or every record matching the table's filter), a preview computed by the engine,
 * then one coalesced update per record queued through the outbox, which an undo takes back while
 * it is still queued. Also trash and restore of many records. contract.ts composes it.
 */
import { z } from 'zod';
import { ENTITY_LIMITS } from '@portaldesk/portal-api/domain/customFieldTypes';
import { MULTI_SELECT_MAX } from '@portaldesk/portal-api/domain/fieldValueRules';
import { CUSTOM_OPTIONS_MAX } from '@portaldesk/portal-api/domain/limits';
import { NoArgs, request } from '../contractSpec';
import { FILTER_TEXT_MAX, LIST_IDS_MAX } from './records';

const Id = z.string().regex(/^\d{1,20}$/, 'an id (digits)');
const RecordId = z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'a record id');

/**
 * Ours: records one bulk edit may change (a module's filter narrows a larger one): as many as
 * the records table can pick one by one, so that every selection it makes can be acted on.
 */
export const BULK_RECORDS_MAX = LIST_IDS_MAX;
/** Ours: before → after rows the preview shows. */
export const BULK_SAMPLE_MAX = 10;
/** Ours: refused records the preview names (the count covers the rest). */
export const BULK_FAILURES_SHOWN_MAX = 100;
/** Ours: bulk edits the Outbox lists as groups. */
export const BULK_GROUPS_MAX = 50;

export const BulkSelection = z.discriminatedUnion('kind', [
  /** Rows the user picked. */
  z
    .object({
      kind: z.literal('ids'),
      ids: z.array(RecordId).min(1, 'select at least one record').max(BULK_RECORDS_MAX),
    })
    .strict(),
  /** Every record the table's filter matches (not only the loaded rows), less `except`. */
  z
    .object({
      kind: z.literal('filter'),
      filter: z.string().max(FILTER_TEXT_MAX).optional(),
      except: z.array(RecordId).max(BULK_RECORDS_MAX).optional(),
    })
    .strict(),
]);
export type BulkSelection = z.infer<typeof BulkSelection>;

export const BulkAction = z.enum(['set', 'clear', 'add', 'remove']);
export type BulkAction = z.infer<typeof BulkAction>;

/**
 * Ours: the JSON text of a bulk edit's value. The largest value a field takes is a description of
 * 80,000 characters (spec "description (string, max 80000)"), each at most six characters of JSON
 * (`\u0001`), and its quotes. The value is checked once per selected record, up to 50,000: a larger one, which
 * every field refuses, is refused here once.
 */
export const BULK_VALUE_JSON_MAX = 6 * ENTITY_LIMITS.description + 2;
/** Spec "Multi-select": "max 100 selectable": adding more refuses every record. */
export const BULK_ADD_OPTIONS_MAX = MULTI_SELECT_MAX;
/** Spec "custom_options (array, max 1000)": a field's options, all of which may be removed. */
export const BULK_REMOVE_OPTIONS_MAX = CUSTOM_OPTIONS_MAX;

/** What is wrong with a bulk edit's value for its action, in words; null when nothing is. */
function bulkValueProblem(action: BulkAction, value: unknown): string | null {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // A cycle or a BigInt, which IPC's structured clone carries and no field takes.
    return 'not a value any field takes (it cannot be written as JSON)';
  }
  if (json !== undefined && json.length > BULK_VALUE_JSON_MAX) {
    return `larger than any field takes (${json.length.toLocaleString('en-US')} characters of JSON, at most ${BULK_VALUE_JSON_MAX.toLocaleString('en-US')})`;
  }
  if (action !== 'add' && action !== 'remove') return null;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((name) => typeof name === 'string')
  ) {
    return `a list of option names to ${action}`;
  }
  const max = action === 'add' ? BULK_ADD_OPTIONS_MAX : BULK_REMOVE_OPTIONS_MAX;
  return value.length > max
    ? `at most ${max} options can be ${action === 'add' ? 'added' : 'removed'} at once (${value.length.toLocaleString('en-US')} given)`
    : null;
}

export const BulkEditArgs = z
  .object({
    portalId: Id,
    moduleId: Id,
    selection: BulkSelection,
    field: z.string().min(1).max(200),
    action: BulkAction,
    /** `set`: the value as the record editor gives it; `add`/`remove`: option names. */
    value: z.unknown().optional(),
  })
  .strict()
  .superRefine((args, ctx) => {
    const problem = bulkValueProblem(args.action, args.value);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });
export type BulkEditArgs = z.infer<typeof BulkEditArgs>;

/** A preview the engine holds for its Queue (src/main/bulkEdit/heldPreviews.ts). */
const PreviewId = z.string().regex(/^[a-f0-9]{16}$/, 'a preview id');

/**
 * Queue names the preview it confirms: the engine queues only the records that preview counted as
 * changing, and refuses (queuing nothing) when the selection names other records now.
 */
export const BulkApplyArgs = z.object({ previewId: PreviewId }).strict();
export type BulkApplyArgs = z.infer<typeof BulkApplyArgs>;

export const BulkSample = z.object({
  recordId: z.string(),
  name: z.string(),
  /** In the API's shapes: shown as the table shows them (describeValue). */
  before: z.unknown(),
  after: z.unknown(),
});
export type BulkSample = z.infer<typeof BulkSample>;

export const BulkFailure = z.object({ recordId: z.string(), name: z.string(), reason: z.string() });
export type BulkFailure = z.infer<typeof BulkFailure>;

export const BulkPreview = z.object({
  /** What Queue names to queue exactly this preview (held by the engine a short while, once). */
  previewId: PreviewId,
  /** Records selected. */
  selected: z.number().int().nonnegative(),
  /** Records whose value changes. */
  changes: z.number().int().nonnegative(),
  /** Records whose value would not change: skipped. */
  unchanged: z.number().int().nonnegative(),
  /** Records the value rules refuse; the first BULK_FAILURES_SHOWN_MAX are in `failures`. */
  failed: z.number().int().nonnegative(),
  failures: z.array(BulkFailure),
  /** Of `changes`, those folded into an edit already queued for the record (no PATCH of their own). */
  coalesced: z.number().int().nonnegative(),
  sample: z.array(BulkSample),
  field: z.object({ key: z.string(), label: z.string(), type: z.string() }),
  timeZone: z.string(),
  /** Record PATCHes of the portal queued once applied (this edit's and those already waiting). */
  patchesQueued: z.number().int().nonnegative(),
  /** Seconds their replay takes at the record PATCH budget (200 calls per 2 minutes). */
  etaSeconds: z.number().nonnegative(),
});
export type BulkPreview = z.infer<typeof BulkPreview>;

export const BulkApplied = z.object({
  /** Null when nothing was queued (no record changes). */
  bulkEditId: z.number().int().nullable(),
  queued: z.number().int().nonnegative(),
  coalesced: z.number().int().nonnegative(),
  /** Records left as they were: the preview's unchanged ones, and changes that hold the value now. */
  unchanged: z.number().int().nonnegative(),
  /** Records refused: the preview's refusals, and changes the rules refuse now. */
  failed: z.number().int().nonnegative(),
  /**
   * Changes never queued because the bulk edit was undone (from the Outbox) while it was still
   * being queued: the apply stopped there.
   */
  notQueued: z.number().int().nonnegative(),
});
export type BulkApplied = z.infer<typeof BulkApplied>;

export const BulkProgress = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  /** What runs: queueing an edit, taking one back, trashing or restoring. */
  task: z.enum(['apply', 'undo', 'trash', 'restore']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type BulkProgress = z.infer<typeof BulkProgress>;

export const BulkGroup = z.object({
  id: z.number().int(),
  portalId: z.string(),
  moduleId: z.string(),
  module: z.string(),
  field: z.string(),
  label: z.string(),
  action: BulkAction,
  value: z.unknown(),
  createdAt: z.string(),
  records: z.number().int().nonnegative(),
  /** Records the preview counted as changing (null: a bulk edit made before this was kept). */
  planned: z.number().int().nonnegative().nullable(),
  /**
   * Its apply was stopped half way by the app's end (killed, power lost): only `records` of
   * `planned` were queued, the others never changed.
   */
  stopped: z.boolean(),
  /** Of `records`, changes still in the outbox (undo takes these back). */
  queued: z.number().int().nonnegative(),
  /** Of `queued`, being sent right now, or stopped (refused, in conflict). */
  sending: z.number().int().nonnegative(),
  stuck: z.number().int().nonnegative(),
  /**
   * Of `records`, not in `queued`: the user's own queued edits the bulk edit dropped (its value
   * was the service's, so nothing was left to send), which undo queues again.
   */
  reverted: z.number().int().nonnegative(),
});
export type BulkGroup = z.infer<typeof BulkGroup>;

export const BulkUndone = z.object({
  /** Records whose queued value was taken back (an earlier edit of their own put back). */
  restored: z.number().int().nonnegative(),
  /** Records whose change was sent (or is being sent) already: kept. */
  sent: z.number().int().nonnegative(),
  /** Records whose field was edited again since: that later edit is kept. */
  changedSince: z.number().int().nonnegative(),
  /** Records not queued yet when the undo came (it was still being queued): never queued. */
  neverQueued: z.number().int().nonnegative(),
});
export type BulkUndone = z.infer<typeof BulkUndone>;

/**
 * The question before a bulk trash (or restore): the engine resolves the selection and holds the
 * records it names (src/main/bulkEdit/heldPreviews.ts) for the confirm, which names them by
 * `previewId`; the question says how many.
 */
export const BulkTrashAskArgs = z
  .object({
    portalId: Id,
    moduleId: Id,
    selection: BulkSelection,
    /** true: restore from the recycle bin; false: move to it. */
    restore: z.boolean(),
  })
  .strict();
export type BulkTrashAskArgs = z.infer<typeof BulkTrashAskArgs>;

export const BulkTrashAsked = z.object({
  previewId: PreviewId,
  /** Records the selection names: the count the question asks about. */
  records: z.number().int().nonnegative(),
});
export type BulkTrashAsked = z.infer<typeof BulkTrashAsked>;

/**
 * The confirm names the question it answers: the engine acts on exactly the records it held, and
 * refuses (queuing nothing) when the selection names other records now (a sync took some out of
 * the filter or brought others in), however many.
 */
export const BulkTrashArgs = z.object({ previewId: PreviewId }).strict();
export type BulkTrashArgs = z.infer<typeof BulkTrashArgs>;

export const BulkTrashed = z.object({
  queued: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  failures: z.array(BulkFailure),
});
export type BulkTrashed = z.infer<typeof BulkTrashed>;

export const bulkEditRequests = {
  'bulkEdit.preview': request(
    BulkEditArgs,
    BulkPreview,
    'What a bulk edit would change: counts, a sample of before → after, refusals, ETA.',
  ),
  'bulkEdit.apply': request(
    BulkApplyArgs,
    BulkApplied,
    'Queue one coalesced update per record a preview counted as changing, through the outbox (progress pushed).',
  ),
  'bulkEdit.groups': request(NoArgs, z.array(BulkGroup), 'Bulk edits with changes still queued.'),
  'bulkEdit.undo': request(
    z.object({ id: z.number().int().positive() }).strict(),
    BulkUndone,
    'Take back what a bulk edit queued that has not gone out.',
  ),
  'bulkEdit.askTrash': request(
    BulkTrashAskArgs,
    BulkTrashAsked,
    'How many records a bulk trash or restore would act on; the engine holds them for its confirm.',
  ),
  'bulkEdit.trash': request(
    BulkTrashArgs,
    BulkTrashed,
    'Move the records a question held to the recycle bin, or restore them (queued).',
  ),
} as const;

export const bulkEditEvents = {
  /** A bulk task's progress, once a batch. */
  'bulkEdit.progress': BulkProgress,
} as const;
