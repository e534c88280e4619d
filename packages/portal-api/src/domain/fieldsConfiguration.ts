/**
 * GET settings/fields-configuration (body not shown in the spec: the emulator's shape): one read
 * with a module's layouts (with sections and fields), fields and statuses, for a settings screen.
 */
import { z } from 'zod';
import { Field } from './field';
import { Status } from './fieldOption';
import { Layout } from './layout';
import { Id, OptionalText } from './refs';

export const FieldsConfiguration = z.looseObject({
  module: z.looseObject({ id: Id.nullish(), api_name: OptionalText }),
  layouts: z.array(Layout),
  fields: z.array(Field),
  statuses: z
    .array(Status)
    .nullish()
    .transform((value) => value ?? []),
});
export type FieldsConfiguration = z.output<typeof FieldsConfiguration>;
