/**
 * What schema inference knows about the values seen so far, and its stored form. The stored form
 * is the snapshot format of @jsonhero/schema-infer (which PortalDesk used before issue 14), so
 * inferences stored by earlier versions keep merging:
 *
 *   {type: unknown | boolean | int | float}          {type: string, format?: {name, parts?, variant?}}
 *   {type: nullable, schema}                         {type: array, items}
 *   {type: object, properties: {required: {key: node}, optional: {key: node}}}
 *   {type: any, schemas: {$set: [node, ...]}}
 *
 * In memory, an object's keys live in Maps: a key read from a sample or a stored snapshot is never
 * looked up on a plain object, so `constructor` is a key like any other and `__proto__` (which
 * the library used to store) is dropped on reading.
 */
import { isPrototypeKey } from '@portaldesk/portal-api/json/prototypeKey';

/** A string format as the library stored it: only these fields decide equality. */
export interface StringFormat {
  name: string;
  parts?: string;
  variant?: string;
}

export type InferredNode =
  | { type: 'unknown' }
  | { type: 'boolean' }
  | { type: 'int' }
  | { type: 'float' }
  | { type: 'string'; format?: StringFormat }
  /** `schema` is never nullable itself. */
  | { type: 'nullable'; schema: InferredNode }
  | { type: 'array'; items: InferredNode }
  | {
      type: 'object';
      required: Map<string, InferredNode>;
      optional: Map<string, InferredNode>;
    }
  /** One alternative per kind (boolean, number, string, array, object), in order of first sight. */
  | { type: 'any'; schemas: InferredNode[] };

export const UNKNOWN: InferredNode = { type: 'unknown' };

type Json = Record<string, unknown>;

const isJsonObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function ownField(value: Json, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

function readFormat(value: unknown): StringFormat | undefined {
  if (!isJsonObject(value)) return undefined;
  const name = ownField(value, 'name');
  if (typeof name !== 'string') return undefined;
  const parts = ownField(value, 'parts');
  const variant = ownField(value, 'variant');
  return {
    name,
    ...(typeof parts === 'string' ? { parts } : {}),
    ...(typeof variant === 'string' ? { variant } : {}),
  };
}

/**
 * Past this depth a stored node reads as unknown. Inferences are kept to MAX_SCHEMA_DEPTH since
 * issue 14; older ones nest at most as deep as the library got before its stack ran out (~1,000).
 */
const MAX_STORED_DEPTH = 1_000;

function readKeys(value: unknown, depth: number): Map<string, InferredNode> {
  const keys = new Map<string, InferredNode>();
  if (!isJsonObject(value)) return keys;
  for (const key of Object.keys(value)) {
    if (!isPrototypeKey(key)) keys.set(key, readNode(value[key], depth + 1));
  }
  return keys;
}

/** A stored node in memory. Anything malformed reads as unknown (the next sample fills it in). */
export function readNode(value: unknown, depth = 0): InferredNode {
  if (!isJsonObject(value) || depth > MAX_STORED_DEPTH) return UNKNOWN;
  switch (ownField(value, 'type')) {
    case 'boolean':
      return { type: 'boolean' };
    case 'int':
      return { type: 'int' };
    case 'float':
      return { type: 'float' };
    case 'string': {
      const format = readFormat(ownField(value, 'format'));
      return format ? { type: 'string', format } : { type: 'string' };
    }
    case 'nullable': {
      const inner = readNode(ownField(value, 'schema'), depth + 1);
      return inner.type === 'nullable' ? inner : { type: 'nullable', schema: inner };
    }
    case 'array':
      return { type: 'array', items: readNode(ownField(value, 'items'), depth + 1) };
    case 'object': {
      const properties = ownField(value, 'properties');
      const container = isJsonObject(properties) ? properties : {};
      return {
        type: 'object',
        required: readKeys(ownField(container, 'required'), depth),
        optional: readKeys(ownField(container, 'optional'), depth),
      };
    }
    case 'any': {
      const stored = ownField(value, 'schemas');
      const list = Array.isArray(stored)
        ? stored
        : isJsonObject(stored) && Array.isArray(ownField(stored, '$set'))
          ? (stored.$set as unknown[])
          : [];
      return { type: 'any', schemas: list.map((item) => readNode(item, depth + 1)) };
    }
    default:
      return UNKNOWN;
  }
}

function writeKeys(keys: Map<string, InferredNode>): Json {
  // Object.fromEntries defines own properties: no key, whatever its name, reaches a prototype.
  return Object.fromEntries([...keys].map(([key, node]) => [key, writeNode(node)]));
}

/** The stored form of a node (plain JSON; `schemas` of `any` as `{"$set": [...]}`). */
export function writeNode(node: InferredNode): Json {
  switch (node.type) {
    case 'string':
      return node.format ? { type: 'string', format: node.format } : { type: 'string' };
    case 'nullable':
      return { type: 'nullable', schema: writeNode(node.schema) };
    case 'array':
      return { type: 'array', items: writeNode(node.items) };
    case 'object':
      return {
        type: 'object',
        properties: { required: writeKeys(node.required), optional: writeKeys(node.optional) },
      };
    case 'any':
      return { type: 'any', schemas: { $set: node.schemas.map(writeNode) } };
    default:
      return { type: node.type };
  }
}
