import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_KEYS } from '../ipc/areas/router';
import { isPrototypeKey } from '@portaldesk/portal-api/json/prototypeKey';

/** The key paths of a sample, as the schema's keys will be named (`customer.email`). */
export interface SampleKeyPaths {
  /** Parents before their children, keys in the sample's order. */
  paths: string[];
  /**
   * How many keys no path can name (empty, with a dot, or `__proto__`): such a key and what it
   * holds cannot be chosen as required and stay optional.
   */
  unnamed: number;
  /** More keys than `limit`: the list stops there (such a sample is refused as a schema anyway). */
  truncated: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every key of a JSON object sample and of the objects nested in it, as dot-separated paths:
 * the keys a schema generated from it declares, and whose required-ness the user chooses (issue
 * 19). Keys inside arrays are not listed (a schema edit names object keys only), nor keys deeper
 * than a schema may nest. The renderer lists them with a "required" tick and the engine checks
 * the ticks against them, so both read a sample the same way. Linear in the sample, no
 * recursion: a sample typed by hand may be hostile.
 */
export function sampleKeyPaths(sample: unknown, limit = MAX_SCHEMA_KEYS): SampleKeyPaths {
  const paths: string[] = [];
  let unnamed = 0;
  if (!isObject(sample)) return { paths, unnamed, truncated: false };
  // Depth-first, children pushed in reverse so they come off the stack in the sample's order.
  // `depth`: the number of keys in `prefix`, plus one.
  const stack: { prefix: string; value: Record<string, unknown>; depth: number }[] = [
    { prefix: '', value: sample, depth: 1 },
  ];
  while (stack.length > 0) {
    const { prefix, value, depth } = stack.pop()!;
    const keys = Object.keys(value);
    const children: typeof stack = [];
    for (const key of keys) {
      if (key === '' || key.includes('.') || isPrototypeKey(key)) {
        unnamed += 1;
        continue;
      }
      const child = value[key];
      children.push({
        prefix: prefix === '' ? key : `${prefix}.${key}`,
        // Paths longer than a schema may nest are not listed (schemaEditProblem refuses them).
        value: isObject(child) && depth < MAX_SCHEMA_DEPTH ? child : {},
        depth: depth + 1,
      });
    }
    // A parent's children are listed right after it: pop order is the pre-order walk.
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
    if (prefix !== '') {
      if (paths.length === limit) return { paths, unnamed, truncated: true };
      paths.push(prefix);
    }
  }
  return { paths, unnamed, truncated: false };
}
