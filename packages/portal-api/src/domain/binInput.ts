/**
 * Bodies of the recycle-bin operations (spec "Recycle bin"): trash takes one `{module, items}`,
 * restore and delete an array of them; "items (array of record ids, size 0-100)".
 */
import { z } from 'zod';
import { TRASHABLE_MODULES } from './binItem';
import { TRASH_BATCH_MAX } from './limits';

export const TrashBatch = z
  .object({
    module: z.enum(TRASHABLE_MODULES),
    items: z.array(z.string().regex(/^\d+$/)).max(TRASH_BATCH_MAX),
  })
  .strict();
export type TrashBatch = z.input<typeof TrashBatch>;

export const TrashBatches = z.array(TrashBatch);
export type TrashBatches = z.input<typeof TrashBatches>;
