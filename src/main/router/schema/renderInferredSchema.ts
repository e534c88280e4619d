import type { InferredNode } from './inferredSchema';
import { jsonSchemaFormat } from './stringFormat';

type JsonSchema = Record<string, unknown>;

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

function render(node: InferredNode): JsonSchema {
  switch (node.type) {
    case 'unknown':
      // Nothing seen yet (the items of an empty array): no constraint, rather than `false`.
      return {};
    case 'boolean':
      return { type: 'boolean' };
    case 'int':
      return { type: 'integer' };
    case 'float':
      return { type: 'number' };
    case 'string': {
      const format = node.format ? jsonSchemaFormat(node.format) : undefined;
      return format ? { type: 'string', format } : { type: 'string' };
    }
    case 'nullable': {
      if (node.schema.type === 'unknown') return { type: 'null' };
      const inner = render(node.schema);
      if (typeof inner.type === 'string') return { ...inner, type: [inner.type, 'null'] };
      const alternatives = Array.isArray(inner.anyOf) ? (inner.anyOf as JsonSchema[]) : [inner];
      return { anyOf: [...alternatives, { type: 'null' }] };
    }
    case 'array':
      return node.items.type === 'unknown'
        ? { type: 'array' }
        : { type: 'array', items: render(node.items) };
    case 'object': {
      const schema: JsonSchema = { type: 'object' };
      // Keys every sample had first, then the others, each in the order first seen. None is
      // required: that is the user's choice, a schema edit (issue 19: a sample's keys are all
      // present, so inference marked every one required).
      const entries = [...node.required, ...node.optional];
      if (entries.length > 0) {
        schema.properties = Object.fromEntries(entries.map(([key, child]) => [key, render(child)]));
      }
      return schema;
    }
    case 'any':
      return { anyOf: node.schemas.map(render) };
  }
}

/**
 * The JSON Schema (draft 2020-12, `$schema` first) of an inference, as @jsonhero/schema-infer
 * wrote it for the same samples, except where it lost information: a null among mixed types is
 * kept (`anyOf` gets `{"type": "null"}`), and an empty array's items are left open (`items:
 * false` refused every later non-empty array); and without `required` (issue 19: which keys an
 * event must have is chosen by the user, see schemaEdits.ts).
 */
export function renderInferredSchema(node: InferredNode): JsonSchema {
  return { $schema: DRAFT_2020_12, ...render(node) };
}
