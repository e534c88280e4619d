import type { z } from 'zod';
import type { SchemaKeyType } from '../../shared/contracts/router';

/** A key added or removed by hand; kept and re-applied after every later inference. */
export type SchemaEdit =
  | { op: 'add'; path: string; type: z.infer<typeof SchemaKeyType>; required: boolean }
  | { op: 'remove'; path: string };

type JsonSchema = Record<string, unknown>;

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  if (schema.properties === undefined || typeof schema.properties !== 'object') {
    schema.properties = {};
    if (schema.type === undefined) schema.type = 'object';
  }
  return schema.properties as Record<string, JsonSchema>;
}

function setRequired(schema: JsonSchema, key: string, required: boolean): void {
  const list = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  if (required) list.add(key);
  else list.delete(key);
  if (list.size > 0) schema.required = [...list];
  else delete schema.required;
}

/**
 * Applies hand edits to an inferred schema (a deep copy is changed, the input is not). Adding a
 * nested path creates the objects on the way; removing a key that is not there changes nothing.
 * Edits apply in order, so a later add brings back a key an earlier edit removed.
 */
export function applySchemaEdits(schema: JsonSchema, edits: readonly SchemaEdit[]): JsonSchema {
  const copy = structuredClone(schema);
  for (const edit of edits) {
    const keys = edit.path.split('.');
    const last = keys.pop() as string;
    let node: JsonSchema | undefined = copy;
    for (const key of keys) {
      const properties: Record<string, JsonSchema> = propertiesOf(node);
      if (!properties[key]) {
        if (edit.op === 'remove') {
          node = undefined;
          break;
        }
        properties[key] = { type: 'object', properties: {} };
      }
      node = properties[key];
    }
    if (!node) continue;
    if (edit.op === 'add') {
      propertiesOf(node)[last] =
        edit.type === 'object' ? { type: 'object', properties: {} } : { type: edit.type };
      setRequired(node, last, edit.required);
    } else {
      delete propertiesOf(node)[last];
      setRequired(node, last, false);
    }
  }
  return copy;
}
