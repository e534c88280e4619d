/**
 * The fixed members of a record of a custom module, as the schema (entity.ts) and the fast reader
 * (readEntity.ts) both read them, and the record's shape once read: its fixed fields plus
 * `custom`, every other top-level member by api_name. Apart from both so neither imports the other.
 */
import { z } from 'zod';
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

export const ENTITY_FIXED_SCHEMA = {
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
export const ENTITY_FIXED_FIELDS: ReadonlySet<string> = new Set(Object.keys(ENTITY_FIXED_SCHEMA));

/** A record as read: its fixed fields, and `custom` with every other member as the server sent it. */
export type Entity = z.output<z.ZodObject<typeof ENTITY_FIXED_SCHEMA>> & {
  custom: Record<string, JsonValue>;
};
