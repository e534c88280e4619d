type JsonSchema = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * How many keys a JSON Schema declares, nested ones included (in `properties`, `items` and
 * `anyOf`), counting no further than `limit + 1`: the cost of compiling a schema to validate
 * events grows with it.
 */
export function schemaKeyCount(schema: JsonSchema, limit: number): number {
  let count = 0;
  const visit = (node: unknown): void => {
    if (!isJsonObject(node) || count > limit) return;
    const properties = Object.hasOwn(node, 'properties') ? node.properties : undefined;
    if (isJsonObject(properties)) {
      for (const key of Object.keys(properties)) {
        count += 1;
        if (count > limit) return;
        visit(properties[key]);
      }
    }
    if (Object.hasOwn(node, 'items')) visit(node.items);
    const anyOf = Object.hasOwn(node, 'anyOf') ? node.anyOf : undefined;
    if (Array.isArray(anyOf)) for (const alternative of anyOf) visit(alternative);
  };
  visit(schema);
  return count;
}
