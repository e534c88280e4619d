import type { SchemaPathView, ValueType } from '../../../shared/ipc/areas/router';

type JsonSchema = Record<string, unknown>;

const DATE_FORMATS = new Set(['date-time', 'date']);

function jsonTypes(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).flatMap(jsonTypes);
  return [];
}

/** The comparator family for a JSON type, or null when the key is not comparable (object, array, mixed). */
export function valueTypeOf(types: readonly string[], format: string | null): ValueType | null {
  const concrete = types.filter((type) => type !== 'null');
  if (concrete.length !== 1) {
    return concrete.length === 2 && concrete.includes('integer') && concrete.includes('number')
      ? 'number'
      : null;
  }
  switch (concrete[0]) {
    case 'string':
      return format && DATE_FORMATS.has(format) ? 'datetime' : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return null;
  }
}

/** Every key path of an object schema (nested objects included), for the rule condition builder. */
export function schemaPaths(schema: JsonSchema, prefix = ''): SchemaPathView[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const paths: SchemaPathView[] = [];
  for (const [key, child] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const types = jsonTypes(child);
    const format = typeof child.format === 'string' ? child.format : null;
    paths.push({
      path,
      type: valueTypeOf(types, format),
      jsonType: types.join('|') || 'any',
      format,
      required: required.has(key),
    });
    if (types.includes('object')) paths.push(...schemaPaths(child, path));
  }
  return paths;
}
