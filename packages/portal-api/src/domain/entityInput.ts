/**
 * Bodies of POST and PATCH .../entities (spec "Custom-module records": "name (req, max 200),
 * description (max 80000), status {id}, layout {id}, project {id}, is_closed, is_external"; PATCH
 * "same fields, none required"). Custom fields go at the top level by api_name, in the shapes of
 * "Custom field value types"; they are checked against the field's type elsewhere, not here.
 */
import { z } from 'zod';
import { ENTITY_LIMITS } from './customFieldTypes';
import { JsonValue } from './refs';

const IdInput = z.object({ id: z.string().regex(/^\d+$/, 'an id of digits') }).strict();

const fixed = {
  name: z.string().trim().min(1).max(ENTITY_LIMITS.name),
  description: z.string().max(ENTITY_LIMITS.description).optional(),
  status: IdInput.optional(),
  layout: IdInput.optional(),
  project: IdInput.nullable().optional(),
  is_closed: z.boolean().optional(),
  is_external: z.boolean().optional(),
};

export const EntityCreate = z.object(fixed).catchall(JsonValue);
export type EntityCreate = z.input<typeof EntityCreate>;

export const EntityPatch = z.object({ ...fixed, name: fixed.name.optional() }).catchall(JsonValue);
export type EntityPatch = z.input<typeof EntityPatch>;
