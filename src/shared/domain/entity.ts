/**
 * A record of a custom module (spec "Other resources": Custom-module record "name (max 200),
 * description (max 80000), status {id}, layout {id}, project {id}, is_closed, is_external"; custom
 * fields "referenced by api_name" at the top level of the record).
 *
 * Parsed into its fixed fields plus `custom`: every other top-level member, by api_name, as the
 * server sent it (a field's type is known from the module's fields, not from the record).
 * Required: id, name, status, layout and last_updated_time (the mirror's sync cursor).
 */
import { z } from 'zod';
import { registerFastParser } from './parseEach';
import { readEntity } from './readEntity';
import type { JsonValue } from './refs';
import {
  Id,
  IsoDateTime,
  NamedRef,
  OptionalDateTime,
  OptionalFlag,
  StatusRef,
  UserRef,
} from './refs';

const fixed = {
  id: Id,
  name: z.string(),
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  status: StatusRef,
  layout: NamedRef,
  project: NamedRef.nullish().transform((value) => value ?? null),
  owner: UserRef.nullish().transform((value) => value ?? null),
  /** Follows the status's closed type. */
  is_closed: OptionalFlag,
  is_external: OptionalFlag,
  created_time: OptionalDateTime,
  last_updated_time: IsoDateTime,
  /** Set while the record is in the trash (a trashed record is still readable by id). */
  trashed_time: OptionalDateTime,
};

/** The record's fixed members; everything else is a custom field. */
export const ENTITY_FIXED_FIELDS: ReadonlySet<string> = new Set(Object.keys(fixed));

export const Entity = z.looseObject(fixed).transform((record) => {
  const custom: Record<string, JsonValue> = {};
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (ENTITY_FIXED_FIELDS.has(key)) known[key] = value;
    // Values come from JSON.parse, so they are JSON values.
    else custom[key] = value as JsonValue;
  }
  return { ...(known as z.output<z.ZodObject<typeof fixed>>), custom };
});
export type Entity = z.output<typeof Entity>;
// Pages of records are read by parseEach: the common shape without zod's generic checks.
registerFastParser(Entity, readEntity);

/** `{count: N}`: the record count at /entities/20 and the comment count. */
export const Count = z.looseObject({ count: z.number().int().nonnegative() });
