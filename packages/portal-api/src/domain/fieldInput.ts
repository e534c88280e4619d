/**
 * The body of PUT settings/fields, which creates a field (no id) or updates one (spec "Fields and
 * options": "module (req, max 100), layout_id, section_id, position, id, display_name (max 250),
 * field_type (max 100), data_type (max 100), field_property {...}").
 */
import { z } from 'zod';
import { FIELD_DISPLAY_NAME_MAX, FIELD_TYPE_MAX, MODULE_PARAM_MAX } from './limits';
import { Position } from './position';

const Digits = z.string().regex(/^\d+$/);

export const FieldProperty = z
  .object({
    description: z.string().optional(),
    is_pii: z.boolean().optional(),
    is_encrypted: z.boolean().optional(),
    context_property: z
      .object({
        default_value: z.unknown().optional(),
        is_mandatory: z.boolean().optional(),
        has_info: z.boolean().optional(),
        permission: z.unknown().optional(),
        is_added_to_resolution: z.boolean().optional(),
        is_added_to_public_form: z.boolean().optional(),
      })
      .optional(),
    field_type_properties: z
      .object({
        currencylist_type: z.enum(['project_currency', 'field_currency']).optional(),
        currency_value: z.string().optional(),
        precision_value: z.number().int().optional(),
        userlist_type: z.enum(['all_users', 'selected_users', 'selected_roles']).optional(),
      })
      .optional(),
  })
  .loose();

export const FieldPut = z
  .object({
    module: z.string().min(1).max(MODULE_PARAM_MAX),
    id: Digits.optional(),
    layout_id: Digits.optional(),
    section_id: Digits.optional(),
    position: Position.optional(),
    display_name: z.string().trim().min(1).max(FIELD_DISPLAY_NAME_MAX).optional(),
    field_type: z.string().min(1).max(FIELD_TYPE_MAX).optional(),
    data_type: z.string().min(1).max(FIELD_TYPE_MAX).optional(),
    field_property: FieldProperty.optional(),
  })
  .strict();
export type FieldPut = z.input<typeof FieldPut>;
