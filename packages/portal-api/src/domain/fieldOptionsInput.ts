/**
 * Bodies of POST, PATCH and DELETE settings/options (spec "Fields and options"): "module (req, max
 * 100), field (req, id), layout_id, position, roles, users, statuses, custom_options (array, max
 * 1000)"; DELETE names items by `{id}` / `{zpuid}`.
 */
import { z } from 'zod';
import { CUSTOM_OPTIONS_MAX, MODULE_PARAM_MAX } from './limits';
import { Position } from './position';

const Digits = z.string().regex(/^\d+$/);

const common = {
  module: z.string().min(1).max(MODULE_PARAM_MAX),
  field: z.string().min(1),
  layout_id: Digits.optional(),
};

const OptionItem = z.object({ id: Digits.optional() }).loose();

export const FieldOptionsChange = z
  .object({
    ...common,
    position: Position.optional(),
    custom_options: z
      .array(OptionItem.extend({ value: z.string().optional() }))
      .max(CUSTOM_OPTIONS_MAX)
      .optional(),
    users: z.array(z.object({ zpuid: z.string().min(1) }).loose()).optional(),
    roles: z.array(z.object({ id: z.string().min(1) }).loose()).optional(),
    statuses: z.array(OptionItem).optional(),
  })
  .strict();
export type FieldOptionsChange = z.input<typeof FieldOptionsChange>;

export const FieldOptionsRemoval = z
  .object({
    ...common,
    custom_options: z.array(z.object({ id: Digits }).strict()).optional(),
    users: z.array(z.object({ zpuid: z.string().min(1) }).strict()).optional(),
    roles: z.array(z.object({ id: z.string().min(1) }).strict()).optional(),
    statuses: z.array(z.object({ id: Digits }).strict()).optional(),
  })
  .strict();
export type FieldOptionsRemoval = z.input<typeof FieldOptionsRemoval>;
