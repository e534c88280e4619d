import type { InferredNode } from './inferredSchema';
import { sameFormat, stringFormat } from './stringFormat';

type Kind = 'boolean' | 'number' | 'string' | 'array' | 'object';

function kindOfValue(value: unknown): Kind {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'object';
  }
}

function kindOfNode(node: InferredNode): Kind | null {
  switch (node.type) {
    case 'int':
    case 'float':
      return 'number';
    case 'boolean':
    case 'string':
    case 'array':
    case 'object':
      return node.type;
    default:
      return null;
  }
}

function fresh(value: unknown): InferredNode {
  return mergeValue({ type: 'unknown' }, value);
}

function mergeObject(
  node: Extract<InferredNode, { type: 'object' }>,
  value: Record<string, unknown>,
): InferredNode {
  const { required, optional } = node;
  // A key every earlier sample had but this one lacks becomes optional (kept in order).
  for (const [key, child] of required) {
    if (!Object.hasOwn(value, key)) {
      required.delete(key);
      optional.set(key, child);
    }
  }
  for (const key of Object.keys(value)) {
    const item = value[key];
    const known = required.get(key);
    if (known) required.set(key, mergeValue(known, item));
    else optional.set(key, mergeValue(optional.get(key) ?? { type: 'unknown' }, item));
  }
  return node;
}

/** Merges a value into a node of the same kind. */
function mergeSameKind(node: InferredNode, value: unknown): InferredNode {
  switch (node.type) {
    case 'int':
      return Number.isInteger(value) ? node : { type: 'float' };
    case 'string': {
      // A format survives only while every string has it: a plain one ends it for good.
      if (!node.format) return node;
      const format = stringFormat(value as string);
      return format && sameFormat(format, node.format) ? node : { type: 'string' };
    }
    case 'array': {
      let items = node.items;
      for (const item of value as unknown[]) items = mergeValue(items, item);
      return { type: 'array', items };
    }
    case 'object':
      return mergeObject(node, value as Record<string, unknown>);
    default:
      // boolean, float: nothing more to learn.
      return node;
  }
}

/**
 * The node after seeing one more value; linear in the value's size (each key and item is looked
 * at once, through Maps), where @jsonhero/schema-infer copied every object once per key. The
 * node given may be changed and returned. Expects a value checked by sampleProblem: JSON, no
 * `__proto__` key, nesting within the limit.
 */
export function mergeValue(node: InferredNode, value: unknown): InferredNode {
  if (value === null || value === undefined) {
    return node.type === 'nullable' ? node : { type: 'nullable', schema: node };
  }
  if (node.type === 'nullable') {
    const inner = mergeValue(node.schema, value);
    return { type: 'nullable', schema: inner };
  }
  const kind = kindOfValue(value);
  switch (node.type) {
    case 'unknown':
      switch (kind) {
        case 'boolean':
          return { type: 'boolean' };
        case 'number':
          return { type: Number.isInteger(value) ? 'int' : 'float' };
        case 'string': {
          const format = stringFormat(value as string);
          return format ? { type: 'string', format } : { type: 'string' };
        }
        case 'array':
          return mergeSameKind({ type: 'array', items: { type: 'unknown' } }, value);
        case 'object':
          return freshObject(value as Record<string, unknown>);
      }
      break;
    case 'any': {
      const index = node.schemas.findIndex((alternative) => kindOfNode(alternative) === kind);
      if (index < 0) node.schemas.push(fresh(value));
      else node.schemas[index] = mergeSameKind(node.schemas[index] as InferredNode, value);
      return node;
    }
    default:
      if (kindOfNode(node) === kind) return mergeSameKind(node, value);
  }
  return { type: 'any', schemas: [node, fresh(value)] };
}

/** The first sample of an object: every key it has is required. */
function freshObject(value: Record<string, unknown>): InferredNode {
  const required = new Map<string, InferredNode>();
  for (const key of Object.keys(value)) required.set(key, fresh(value[key]));
  return { type: 'object', required, optional: new Map() };
}
