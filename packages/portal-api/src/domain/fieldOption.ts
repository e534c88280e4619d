/**
 * Field options (spec "Other resources": Field option "custom_options {id, value}, roles {id},
 * users {zpuid}, statuses {id, name, color, is_closed_type, transitions[{id}]}"). What a field has
 * depends on its type: pick lists and multi-selects have custom options, user fields users and
 * roles, the status field the module's statuses.
 */
import { z } from 'zod';
import { Id, IdRef, OptionalFlag, OptionalText, Zpuid } from './refs';

const OptionalLayout = IdRef.nullish().transform((value) => value ?? null);
const OptionalPosition = z
  .number()
  .int()
  .nullish()
  .transform((value) => value ?? null);

export const CustomOption = z.looseObject({
  id: Id,
  value: z.string(),
  /** The layout the option was made for; null when every layout has it. */
  layout: OptionalLayout,
  position: OptionalPosition,
});
export type CustomOption = z.output<typeof CustomOption>;

export const UserOption = z.looseObject({
  zpuid: Zpuid,
  name: OptionalText,
  email: OptionalText,
  layout: OptionalLayout,
});
export type UserOption = z.output<typeof UserOption>;

export const RoleOption = z.looseObject({
  id: Id,
  name: OptionalText,
  layout: OptionalLayout,
});
export type RoleOption = z.output<typeof RoleOption>;

/** A status of a module, with the statuses a record in it may move to. */
export const Status = z.looseObject({
  id: Id,
  name: z.string(),
  color: OptionalText,
  is_closed_type: OptionalFlag,
  is_default: OptionalFlag,
  position: OptionalPosition,
  transitions: z
    .array(IdRef)
    .nullish()
    .transform((value) => value ?? []),
});
export type Status = z.output<typeof Status>;

/** The option lists of a field, as the options reply groups them (each absent list empty). */
export interface FieldOptions {
  custom_options: CustomOption[];
  users: UserOption[];
  roles: RoleOption[];
  statuses: Status[];
}

/** The item schema of each option list, by its member name in replies and bodies. */
export const FIELD_OPTION_LISTS = {
  custom_options: CustomOption,
  users: UserOption,
  roles: RoleOption,
  statuses: Status,
} as const;
export type FieldOptionList = keyof typeof FIELD_OPTION_LISTS;
