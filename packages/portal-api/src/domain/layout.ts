/**
 * A layout of a module (spec "Other resources": Layout "name (string, max 200), type (public or
 * private), reference {id}, module"). Single reads include its sections; lists do not.
 */
import { z } from 'zod';
import { LayoutType } from './module';
import { Id, IdRef, OptionalDateTime, OptionalFlag, OptionalText } from './refs';
import { Section } from './section';

export const Layout = z.looseObject({
  id: Id,
  name: z.string(),
  /** Unknown types are kept as text: a new kind of layout must not hide the others. */
  type: z
    .union([LayoutType, z.string()])
    .nullish()
    .transform((value) => value ?? null),
  is_default: OptionalFlag,
  module: z
    .looseObject({ id: Id.nullish(), api_name: OptionalText })
    .nullish()
    .transform((value) => value ?? null),
  reference: IdRef.nullish().transform((value) => value ?? null),
  created_time: OptionalDateTime,
  /** Present on single reads (`null` in lists, where the server leaves them out). */
  sections: z
    .array(Section)
    .nullish()
    .transform((value) => value ?? null),
  association_info: z
    .looseObject({
      is_current_user_profile_associated: OptionalFlag,
      record_count: z.number().int().nullish(),
      project_count: z.number().int().nullish(),
    })
    .nullish()
    .transform((value) => value ?? null),
});
export type Layout = z.output<typeof Layout>;

/** An item of a layout's associated entities (the emulator: the projects using it). */
export const AssociatedEntity = z.looseObject({ id: Id, name: OptionalText, type: OptionalText });
export type AssociatedEntity = z.output<typeof AssociatedEntity>;
