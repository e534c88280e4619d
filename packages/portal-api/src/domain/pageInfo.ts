/**
 * `page_info` of every list reply (spec "Limits": "page (integer), per_page (integer), page_count
 * (integer, total records in the result set), has_next_page (boolean)"). Note: page_count counts
 * RECORDS, not pages, whatever its name says.
 */
import { z } from 'zod';

export const PageInfo = z.looseObject({
  page: z.number().int().positive(),
  per_page: z
    .number()
    .int()
    .positive()
    .nullish()
    .transform((value) => value ?? null),
  /** Total records in the result set (not pages); null when the server leaves it out. */
  page_count: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((value) => value ?? null),
  has_next_page: z.boolean(),
});
export type PageInfo = z.output<typeof PageInfo>;
