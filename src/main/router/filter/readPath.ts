/** The value at a dot path inside the event's data (`customer.email`, `items.0.sku`), or undefined. */
export function readPath(data: unknown, path: string): unknown {
  // Every rule reads its paths for every event: a plain key skips splitting the path.
  if (!path.includes('.')) return ownValue(data, path);
  let current: unknown = data;
  for (const key of path.split('.')) {
    current = ownValue(current, key);
    if (current === undefined) return undefined;
  }
  return current;
}

function ownValue(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
