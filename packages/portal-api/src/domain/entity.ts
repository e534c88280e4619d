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
import {
  ENTITY_FIXED_FIELDS,
  ENTITY_FIXED_SCHEMA,
  type Entity as EntityShape,
} from './entityFields';
import { registerFastParser } from './parseEach';
import { readEntity } from './readEntity';
import type { JsonValue } from './refs';

export { ENTITY_FIXED_FIELDS } from './entityFields';

export const Entity = z.looseObject(ENTITY_FIXED_SCHEMA).transform((record): EntityShape => {
  const custom: Record<string, JsonValue> = {};
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (ENTITY_FIXED_FIELDS.has(key)) known[key] = value;
    // Values come from JSON.parse, so they are JSON values.
    else custom[key] = value as JsonValue;
  }
  return { ...(known as z.output<z.ZodObject<typeof ENTITY_FIXED_SCHEMA>>), custom };
});
export type Entity = EntityShape;
// Pages of records are read by parseEach: the common shape without zod's generic checks.
registerFastParser(Entity, readEntity);

/** `{count: N}`: the record count at /entities/20 and the comment count. */
export const Count = z.looseObject({ count: z.number().int().nonnegative() });
