/**
 * The bin area: a portal's recycle bin (spec "Recycle bin": projects, phases, tasklists, tasks and
 * issues trashed on the service, kept 30 days). The list is read from the service and kept here,
 * so it is shown offline as last read; restoring, deleting for good and emptying are queued in the
 * outbox (as configuration changes) and replayed exactly once. The records workspace's own bin
 * (custom-module records) is the records area's. contract.ts composes these with every other
 * area's.
 */
import { TRASHABLE_MODULES } from '@portaldesk/portal-api/domain/binItem';
import { TRASH_BATCH_MAX } from '@portaldesk/portal-api/domain/limits';
import { z } from 'zod';
import { request } from '../contractSpec';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');
const ItemId = z.string().regex(/^\d{1,20}$/, 'an item id (digits)');

export const BinModule = z.enum(TRASHABLE_MODULES);
export type BinModule = z.infer<typeof BinModule>;

/** The service keeps a trashed item this many days ("within 30 days of trashing"). */
export const BIN_KEEP_DAYS = 30;
/** "items (array of record ids, size 0-100)": one batch of one module. */
export const BIN_BATCH_MAX = TRASH_BATCH_MAX;
/** Ours: items one request of the app may name (split into batches of 100 per module). */
export const BIN_SELECTION_MAX = 1000;
/** The emulator's `search_term` limit, kept for the local filter too. */
export const BIN_SEARCH_MAX = 200;

export const BinEntry = z.object({
  id: z.string(),
  name: z.string(),
  module: z.string(),
  project: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  trashedTime: z.string().nullable(),
  trashedBy: z.string().nullable(),
  /** When the service stops offering to restore it. */
  restorableUntil: z.string().nullable(),
  /** Days left of its 30, counted up (30 when just trashed, 1 on its last day, 0 once past); null when the service did not say. */
  daysLeft: z.number().int().nullable(),
  restorable: z.boolean(),
  /** What is queued for it here: it leaves the bin once that is sent. */
  pending: z.enum(['restore', 'delete']).nullable(),
});
export type BinEntry = z.infer<typeof BinEntry>;

export const BinListing = z.object({
  portalId: z.string(),
  items: z.array(BinEntry),
  /** Items in the bin as last read (before the filter). */
  total: z.number().int().nonnegative(),
  /** When the list was read from the service; null: never. */
  readAt: z.string().nullable(),
  /** Why the service could not be read just now (offline, signed out); the last list is shown. */
  problem: z.string().nullable(),
  /** "Empty the bin" is queued. */
  emptyQueued: z.boolean(),
});
export type BinListing = z.infer<typeof BinListing>;

export const BinListArgs = z
  .object({
    portalId: PortalId,
    sort: z.object({ by: z.enum(['trashed_time', 'name']), descending: z.boolean() }).strict(),
    filter: z
      .object({
        module: BinModule.optional(),
        /** Case-insensitive, in the item's name. */
        search: z.string().max(BIN_SEARCH_MAX).optional(),
      })
      .strict()
      .optional(),
    /** Read the service again (true), or show the list kept here. */
    refresh: z.boolean(),
  })
  .strict();
export type BinListArgs = z.infer<typeof BinListArgs>;

const Selection = z
  .array(z.object({ module: BinModule, id: ItemId }).strict())
  .min(1, 'choose at least one item')
  .max(BIN_SELECTION_MAX, `at most ${BIN_SELECTION_MAX} items at once`);

/** How many outbox operations a request queued (the list shows them as pending at once). */
const Queued = z.object({ queued: z.number().int().nonnegative() });

export const binRequests = {
  'bin.list': request(
    BinListArgs,
    BinListing,
    "A portal's recycle bin: read from the service (or as last read, offline), filtered and sorted.",
  ),
  'bin.restore': request(
    z.object({ portalId: PortalId, items: Selection }).strict(),
    Queued,
    'Queue restoring items from the recycle bin (batches of 100 per module).',
  ),
  'bin.delete': request(
    z.object({ portalId: PortalId, items: Selection }).strict(),
    Queued,
    'Queue deleting items in the recycle bin for good (batches of 100 per module).',
  ),
  'bin.empty': request(
    z
      .object({
        portalId: PortalId,
        /** The portal's name typed by the user: emptying removes every item for good. */
        confirmName: z.string().max(500),
      })
      .strict(),
    Queued,
    'Queue emptying the recycle bin: every item in it is deleted for good.',
  ),
} as const;
