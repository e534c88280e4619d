/**
 * An object for keys that come from data (field API names, header names): without a prototype,
 * so a lookup of `constructor` or `toString` finds only what was stored under that name, never a
 * member every object inherits. Starts with `entries`.
 */
export function dictionary<T>(entries: Record<string, T> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}
