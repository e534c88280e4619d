/**
 * A field of a module (spec "Other resources": Field "id (long), display_name (max 250),
 * field_type (max 100), data_type (max 100), field_property"). `field_type` stays free text: the
 * custom types are the keys of customFieldTypes.ts, system fields have others (status, project),
 * and a type the app does not know must not hide the field.
 */
import { z } from 'zod';
import { Id, OptionalDateTime, OptionalFlag, OptionalText } from './refs';

/** Where a field sits in a layout (fields' `layouts` and the associated-layouts list). */
export const FieldPlacement = z.looseObject({
  id: Id,
  name: OptionalText,
  section: z
    .looseObject({ id: Id, name: OptionalText })
    .nullish()
    .transform((value) => value ?? null),
  position: z
    .number()
    .int()
    .nullish()
    .transform((value) => value ?? null),
});
export type FieldPlacement = z.output<typeof FieldPlacement>;

export const Field = z.looseObject({
  id: Id,
  api_name: z.string().min(1),
  display_name: z.string(),
  field_type: z.string().min(1),
  data_type: OptionalText,
  /** System fields (name, description, status, owner, project). */
  is_default: OptionalFlag,
  is_mandatory: OptionalFlag,
  is_renamed: OptionalFlag,
  is_formula_based_list: OptionalFlag,
  /** "field_property object" (see PUT fields): kept as the server sent it. */
  field_property: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((value) => value ?? {}),
  created_time: OptionalDateTime,
  layouts: z
    .array(FieldPlacement)
    .nullish()
    .transform((value) => value ?? null),
});
export type Field = z.output<typeof Field>;
