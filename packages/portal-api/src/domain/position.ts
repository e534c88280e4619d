/**
 * The position object of settings bodies (spec "Other resources": "before_id, after_id,
 * exact_position (numeric), known_position (first or last)"), "max 1000" as JSON text.
 */
import { z } from 'zod';
import { POSITION_JSON_MAX } from './limits';

export const Position = z
  .object({
    before_id: z.string().regex(/^\d+$/).optional(),
    after_id: z.string().regex(/^\d+$/).optional(),
    exact_position: z.number().int().positive().optional(),
    known_position: z.enum(['first', 'last']).optional(),
  })
  .strict()
  .refine((value) => JSON.stringify(value).length <= POSITION_JSON_MAX, {
    message: `position is longer than ${POSITION_JSON_MAX} characters as JSON`,
  });
export type Position = z.output<typeof Position>;
