/**
 * The one key JavaScript does not treat as data. `obj["__proto__"] = x` replaces the object's
 * prototype instead of storing a member, and `obj["__proto__"]` reads `Object.prototype`, so a
 * path walked through it writes onto every object of the process (prototype pollution).
 * `constructor` and `prototype` are ordinary JSON keys and stay allowed: code reading a key it
 * was given checks that the key is the object's own (Object.hasOwn) or uses a Map.
 */
export const PROTOTYPE_KEY = '__proto__';

export function isPrototypeKey(key: string): boolean {
  return key === PROTOTYPE_KEY;
}

/** Why the key is refused, for messages that also say where it was and what was kept. */
export const PROTOTYPE_KEY_REASON =
  'JavaScript reads a key named "__proto__" as an object\'s prototype, not as data';
