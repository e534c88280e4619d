/**
 * A section of a layout (spec "Other resources": Section "id (long), name (string, max 100),
 * position"), with the fields placed in it when the reply includes them.
 */
import { z } from 'zod';
import { Id, OptionalFlag, OptionalText } from './refs';

/** A field as placed in a section: which field, and its rank there. */
export const SectionField = z.looseObject({
  id: Id,
  api_name: z.string().min(1),
  display_name: OptionalText,
  field_type: OptionalText,
  data_type: OptionalText,
  is_default: OptionalFlag,
  is_mandatory: OptionalFlag,
  position: z
    .number()
    .int()
    .nullish()
    .transform((value) => value ?? null),
});
export type SectionField = z.output<typeof SectionField>;

export const Section = z.looseObject({
  id: Id,
  name: z.string(),
  position: z
    .number()
    .int()
    .nullish()
    .transform((value) => value ?? null),
  fields: z
    .array(SectionField)
    .nullish()
    .transform((value) => value ?? []),
});
export type Section = z.output<typeof Section>;
