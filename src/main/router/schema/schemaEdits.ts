import type { z } from 'zod';
import { MAX_SCHEMA_DEPTH, type SchemaKeyType } from '../../../shared/ipc/areas/router';
import {
  isPrototypeKey,
  PROTOTYPE_KEY,
  PROTOTYPE_KEY_REASON,
} from '@portaldesk/portal-api/json/prototypeKey';

/**
 * A key added or removed by hand, or a key made required or optional (issue 19: inference marks
 * no key required, the user does); kept and re-applied after every later inference.
 */
export type SchemaEdit =
  | { op: 'add'; path: string; type: z.infer<typeof SchemaKeyType>; required: boolean }
  | { op: 'remove'; path: string }
  | { op: 'require'; path: string; required: boolean };

/** A choice of whether a key of the schema is required. */
export interface RequiredChoice {
  path: string;
  required: boolean;
}

/**
 * The edits with these required choices last, in place of any earlier choice for the same paths
 * (a later choice decides anyway; dropping the earlier one keeps the stored list from growing
 * with every generation).
 */
export function withRequiredChoices(
  edits: readonly SchemaEdit[],
  choices: readonly RequiredChoice[],
): SchemaEdit[] {
  const chosen = new Set(choices.map((choice) => choice.path));
  return [
    ...edits.filter((edit) => edit.op !== 'require' || !chosen.has(edit.path)),
    ...choices.map(({ path, required }): SchemaEdit => ({ op: 'require', path, required })),
  ];
}

type JsonSchema = Record<string, unknown>;

const isPlainObject = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why a hand-edited key path cannot be applied, or null. */
export function schemaEditProblem(path: string): string | null {
  const keys = path.split('.');
  if (keys.some(isPrototypeKey)) {
    return `${path} names the key "${PROTOTYPE_KEY}": ${PROTOTYPE_KEY_REASON}. Rename that key`;
  }
  if (keys.length > MAX_SCHEMA_DEPTH) {
    return `${path} nests ${keys.length} levels deep; a schema nests at most ${MAX_SCHEMA_DEPTH}`;
  }
  return null;
}

/**
 * The hand edits stored for an event, without any that could reach a prototype: before issue 14
 * a path through `__proto__` was stored and replayed on every later sample, writing `type` and
 * `properties` onto Object.prototype. Those are dropped (and counted) when read.
 */
export function readStoredEdits(text: string): { edits: SchemaEdit[]; dropped: number } {
  const parsed: unknown = JSON.parse(text);
  const edits: SchemaEdit[] = [];
  let dropped = 0;
  for (const edit of Array.isArray(parsed) ? parsed : []) {
    const path: unknown = isPlainObject(edit) ? edit.path : undefined;
    if (typeof path === 'string' && schemaEditProblem(path) === null)
      edits.push(edit as SchemaEdit);
    else dropped += 1;
  }
  return { edits, dropped };
}

/** The node's own `properties` object (created when missing); never one from a prototype. */
function propertiesOf(schema: JsonSchema): JsonSchema {
  if (!Object.hasOwn(schema, 'properties') || !isPlainObject(schema.properties)) {
    schema.properties = {};
    if (!Object.hasOwn(schema, 'type')) schema.type = 'object';
  }
  return schema.properties as JsonSchema;
}

function ownChild(properties: JsonSchema, key: string): JsonSchema | undefined {
  if (!Object.hasOwn(properties, key)) return undefined;
  const child = properties[key];
  return isPlainObject(child) ? child : undefined;
}

/**
 * Lists `key` in, or drops it from, the node's `required`, kept in the order of its properties
 * (then any others): the same choices made in another order give the same schema text, so no
 * new version only for the order.
 */
function setRequired(schema: JsonSchema, key: string, required: boolean): void {
  const current = Object.hasOwn(schema, 'required') ? schema.required : undefined;
  const list = new Set(Array.isArray(current) ? (current as string[]) : []);
  if (required) list.add(key);
  else list.delete(key);
  if (list.size === 0) {
    delete schema.required;
    return;
  }
  const properties = Object.hasOwn(schema, 'properties') ? schema.properties : undefined;
  const order = isPlainObject(properties) ? Object.keys(properties) : [];
  const ordered = order.filter((name) => list.has(name));
  schema.required = [...ordered, ...[...list].filter((name) => !ordered.includes(name))];
}

/** Marks a key required or optional where the schema has it; changes nothing on the way. */
function chooseRequired(schema: JsonSchema, path: string, required: boolean): void {
  const keys = path.split('.');
  let parent = schema;
  for (const [index, key] of keys.entries()) {
    const properties = Object.hasOwn(parent, 'properties') ? parent.properties : undefined;
    const child = isPlainObject(properties) ? ownChild(properties, key) : undefined;
    if (!child) return;
    if (index === keys.length - 1) setRequired(parent, key, required);
    parent = child;
  }
}

/**
 * Applies hand edits to an inferred schema (a deep copy is changed, the input is not). Adding a
 * nested path creates the objects on the way; removing a key that is not there, or choosing
 * whether it is required, changes nothing (a choice applies once a later sample brings the key).
 * Edits apply in order, so a later add brings back a key an earlier edit removed. Keys are read
 * as the schema's own (`constructor` is a key like any other); a path the engine would refuse
 * (schemaEditProblem) is ignored, so nothing stored can reach a prototype.
 */
export function applySchemaEdits(schema: JsonSchema, edits: readonly SchemaEdit[]): JsonSchema {
  const copy = structuredClone(schema);
  for (const edit of edits) {
    if (schemaEditProblem(edit.path) !== null) continue;
    if (edit.op === 'require') {
      chooseRequired(copy, edit.path, edit.required === true);
      continue;
    }
    const keys = edit.path.split('.');
    const last = keys.pop() as string;
    let node: JsonSchema | undefined = copy;
    for (const key of keys) {
      const properties = propertiesOf(node);
      let child = ownChild(properties, key);
      if (!child) {
        if (edit.op === 'remove') {
          node = undefined;
          break;
        }
        child = { type: 'object', properties: {} };
        properties[key] = child;
      }
      node = child;
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
