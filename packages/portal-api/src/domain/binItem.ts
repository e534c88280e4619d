/**
 * An item in the recycle bin (GET /portal/{portal_id}/bin; body not shown in the spec: the
 * emulator's shape) and the `{module, items}` batches its operations take and return.
 */
import { z } from 'zod';
import { Id, NamedRef, OptionalDateTime, UserRef } from './refs';

/** "module (string, required; one of projects, phases, tasklists, tasks, issues)". */
export const TRASHABLE_MODULES = ['projects', 'phases', 'tasklists', 'tasks', 'issues'] as const;
export type TrashableModule = (typeof TRASHABLE_MODULES)[number];

export const BinItem = z.looseObject({
  id: Id,
  name: z.string(),
  module: z.string().min(1),
  project: NamedRef.nullish().transform((value) => value ?? null),
  trashed_time: OptionalDateTime,
  trashed_by: UserRef.nullish().transform((value) => value ?? null),
  /** "within 30 days of trashing". */
  restorable_until: OptionalDateTime,
  is_restorable: z
    .boolean()
    .nullish()
    .transform((value) => value ?? true),
});
export type BinItem = z.output<typeof BinItem>;

/** `{module, items}`: ids of one module, as bin bodies and replies group them. */
export const BinBatch = z.looseObject({ module: z.string().min(1), items: z.array(Id) });
export type BinBatch = z.output<typeof BinBatch>;

/** Replies of restore (`restored`) and the two deletes (`deleted`). */
export const BinRestored = z.looseObject({ restored: z.array(BinBatch) });
export const BinDeleted = z.looseObject({ deleted: z.array(BinBatch) });
