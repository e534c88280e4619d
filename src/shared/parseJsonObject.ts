/**
 * The object a stored JSON text holds (a field's `field_type_properties`, say), or `{}` when the
 * text is not JSON or holds no object: a damaged column reads as "no properties", never throws.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
