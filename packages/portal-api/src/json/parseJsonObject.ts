/**
 * The object a stored JSON text holds (a field's `field_type_properties`, a record's custom values),
 * or `{}` when the text is not JSON or holds no object (an array is not one: its `length` and
 * methods must not read as keys): a damaged column reads as "no properties", never throws.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
