/**
 * Arguments for any request of the contract, generated from its zod schema: mostly shaped so
 * that they pass the dispatcher's gate and reach the handlers, with hostile content wherever the
 * schema lets it in (prototype keys, key paths through them, huge strings, deep nesting, odd
 * Unicode), ids the engine really has, and now and then a value the gate must refuse.
 *
 * Used by the contract fuzz test and the prototype-key walk (test/integration/main/).
 */
import fc from 'fast-check';
import type { z } from 'zod';

/** What a generated argument may use besides the built-in hostile values. */
export interface HostileSources {
  /**
   * Ids the engine knows for an argument's member (`portalId`, `eventConfigIds`...; undefined
   * outside an object), read when a value is drawn.
   */
  ids: (member: string | undefined) => readonly string[];
  /** Keys every object key, record key and key path is drawn from (prototype keys by default). */
  keys?: readonly string[];
  /**
   * Only well-formed values of ordinary size: no huge or deep values, no extra keys, no strings
   * the schema refuses. A base for keyVariants.
   */
  plain?: boolean;
}

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Sizes chosen to be past every limit the contract and the engine have. */
const HUGE = 'x'.repeat(200_000);
const DEEP_LEVELS = 3_000;

/** A JSON filter in the API's language naming `field` (records.query, records.saveFilter). */
const filterOn = (field: string) =>
  JSON.stringify({
    criteria: [{ field_name: field, criteria_condition: 'is', value: ['x'] }],
    pattern: '1',
  });

function hostileStrings(keys: readonly string[]): string[] {
  return [
    ...keys,
    ...keys.map((key) => `${key}.polluted`),
    ...keys.map((key) => `a.${key}.b`),
    ...keys.map((key) => `{{${key}}}`),
    ...keys.map(filterOn),
    `{"__proto__":{"polluted":1},"criteria":[],"pattern":"1"}`,
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    '%E0%A4%A',
    '\u0000',
    '\ud800',
    '👩‍💻 名前',
    "'; DROP TABLE records; --",
    '../../etc/passwd',
    '-1',
    '1e309',
    '2024-02-30',
    '9'.repeat(25),
    HUGE,
    '['.repeat(5_000),
  ];
}

/** An object with `key` as its own property, whatever the key: `{}`'s setter would eat `__proto__`. */
function withOwnKeys(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

function nested(levels: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
}

/** Any JSON (where the contract takes `unknown`), often hostile. */
function hostileJson(keys: readonly string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 6 }));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.string({ maxLength: 12 })),
      fc.array(tie('value'), { maxLength: 4 }),
      fc
        .array(fc.tuple(key, tie('value')), { maxLength: 5 })
        .map((entries) => withOwnKeys(entries)),
    ),
  }));
  return fc.oneof(
    { weight: 4, arbitrary: value },
    {
      weight: 1,
      arbitrary: fc.constant(withOwnKeys(keys.map((k) => [k, { [k]: 1, polluted: 1 }]))),
    },
    {
      weight: 1,
      arbitrary: fc.constant(
        withOwnKeys([['a', nested(DEEP_LEVELS, 1, (inner) => withOwnKeys([['next', inner]]))]]),
      ),
    },
    { weight: 1, arbitrary: fc.constant({ list: nested(DEEP_LEVELS, 1, (inner) => [inner]) }) },
    {
      // The sample: 5,000 keys in about 60 KB.
      weight: 1,
      arbitrary: fc.constant(
        Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constant({ text: HUGE, items: Array.from({ length: 20_000 }, (_, i) => i) }),
    },
  );
}

type Def = Record<string, unknown> & { type: string };

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function check(def: Def, name: string): Record<string, unknown> | undefined {
  const checks = (def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? [];
  return checks.map((c) => c._zod.def).find((c) => c.check === name);
}

function accepts(schema: z.ZodType) {
  return (value: unknown): boolean => {
    try {
      return schema.safeParse(value).success;
    } catch {
      return false;
    }
  };
}

/** Past this depth of nested schemas (a rule's filter groups) only non-recursive options are drawn. */
const MAX_SCHEMA_DEPTH = 4;

/** An arbitrary for values of `schema`, hostile where the schema allows. */
export function hostileArgs(schema: z.ZodType, sources: HostileSources): fc.Arbitrary<unknown> {
  const keys = sources.keys ?? PROTOTYPE_KEYS;
  const plain = sources.plain === true;
  const strings = plain ? [] : hostileStrings(keys);
  const known = (member: string | undefined) =>
    fc.nat().map((n) => {
      const ids = sources.ids(member);
      return ids.length === 0 ? '1' : (ids[n % ids.length] as string);
    });

  const plainJson = fc.dictionary(
    fc.constantFrom('id', 'name', 'amount', 'customer', 'tags'),
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.dictionary(fc.constantFrom('email', 'tier'), fc.string({ maxLength: 8 }), { maxKeys: 2 }),
    ),
    { minKeys: 1, maxKeys: 4 },
  );

  const walk = (node: z.ZodType, depth: number, member?: string): fc.Arbitrary<unknown> => {
    const def = defOf(node);
    const inner = (key: string) => walk(def[key] as z.ZodType, depth, member);
    switch (def.type) {
      case 'undefined':
        return fc.constant(undefined);
      case 'optional':
      case 'default':
        return fc.option(inner('innerType'), { nil: undefined, freq: 4 });
      case 'nullable':
        return fc.option(inner('innerType'), { nil: null, freq: 4 });
      case 'literal':
        return fc.constantFrom(...(def.values as unknown[]));
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
      case 'boolean':
        return fc.boolean();
      case 'number': {
        const ok = accepts(node);
        const pool = [
          0,
          1,
          2,
          3,
          15,
          100,
          499,
          500,
          1_000,
          2 ** 31,
          Number.MAX_SAFE_INTEGER,
          -1,
          0.5,
          1e308,
        ];
        const good = pool.filter(ok);
        return fc.oneof(
          { weight: 30, arbitrary: fc.constantFrom(...(good.length > 0 ? good : [0])) },
          { weight: plain ? 0 : 1, arbitrary: fc.constantFrom(...pool) },
        );
      }
      case 'string': {
        const ok = accepts(node);
        const pattern = check(def, 'string_format')?.pattern as RegExp | undefined;
        const random = pattern ? fc.stringMatching(pattern) : fc.string({ maxLength: 30 });
        // Valid strings found once, up front: filtering each draw could loop for ever on a
        // schema few random strings pass (a URL refinement, say).
        const valid = [
          ...strings,
          ...fc.sample(random, { numRuns: 100, seed: 14 }),
          'a',
          'Name',
          'https://example.com/path',
        ].filter(ok);
        if (valid.length === 0) return plain ? random : fc.constantFrom(...strings);
        const fallback = fc.constantFrom(...valid);
        const orValid = (arbitrary: fc.Arbitrary<string>) =>
          fc.tuple(arbitrary, fallback).map(([value, other]) => (ok(value) ? value : other));
        // Where the schema takes a key path, a path through a prototype key is the point; where
        // it takes an id, one the engine has gets past "not found" to the interesting code.
        const paths = strings.filter((text) => text.includes('.') && ok(text));
        const isId = member !== undefined && /(^id|Ids?)$/.test(member);
        return fc.oneof(
          { weight: isId ? 120 : 20, arbitrary: orValid(known(member)) },
          { weight: 12, arbitrary: fallback },
          { weight: paths.length > 0 ? 30 : 0, arbitrary: fc.constantFrom('a.b', ...paths) },
          { weight: 8, arbitrary: orValid(random) },
          { weight: plain ? 0 : 1, arbitrary: fc.constantFrom(...strings, '') },
        );
      }
      case 'array': {
        const min = (check(def, 'min_length')?.minimum as number | undefined) ?? 0;
        const max = (check(def, 'max_length')?.maximum as number | undefined) ?? 4;
        return fc.array(inner('element'), { minLength: min, maxLength: Math.min(max, min + 3) });
      }
      case 'tuple':
        return fc.tuple(...(def.items as z.ZodType[]).map((item) => walk(item, depth, member)));
      case 'union': {
        const options = (def.options as z.ZodType[]).filter(
          (option) => depth < MAX_SCHEMA_DEPTH || defOf(option).type !== 'lazy',
        );
        return fc.oneof(...options.map((option) => walk(option, depth + 1, member)));
      }
      case 'lazy': {
        const target = (def.getter as () => z.ZodType)();
        const deep = nested(
          20_000,
          { path: 'a', type: 'string', comparator: 'is', value: 'x' },
          (c) => ({
            operator: 'AND',
            conditions: [c],
          }),
        );
        return fc.oneof(
          { weight: 9, arbitrary: walk(target, depth + 1, member) },
          { weight: depth === 0 && !plain ? 1 : 0, arbitrary: fc.constant(deep) },
        );
      }
      case 'pipe':
        // A preprocess (a transform into a schema) takes what its schema takes.
        return defOf(def.in as z.ZodType).type === 'transform' ? inner('out') : inner('in');
      case 'record': {
        const key = walk(def.keyType as z.ZodType, depth);
        return fc
          .array(
            fc.tuple(plain ? key : fc.oneof(key, fc.constantFrom(...keys)), inner('valueType')),
            {
              minLength: 1,
              maxLength: 4,
            },
          )
          .map((entries) => withOwnKeys(entries as [string, unknown][]));
      }
      case 'object': {
        const shape = def.shape as Record<string, z.ZodType>;
        const members = Object.entries(shape).map(([name, schema]) =>
          fc.tuple(fc.constant(name), walk(schema, depth, name)),
        );
        const extra = fc.array(fc.tuple(fc.constantFrom(...keys), hostileJson(keys)), {
          maxLength: 1,
        });
        return fc
          .tuple(
            fc.tuple(...members),
            plain ? fc.constant([]) : fc.option(extra, { freq: 20, nil: [] }),
          )
          .map(([given, added]) =>
            withOwnKeys([
              ...given.filter(([, value]) => value !== undefined),
              ...(added as [string, unknown][]),
            ]),
          );
      }
      case 'unknown':
      case 'any':
        return plain ? plainJson : hostileJson(keys);
      default:
        throw new Error(`hostileArgs: no arbitrary for a zod ${def.type} (add one)`);
    }
  };
  return walk(schema, 0);
}

/**
 * The argument with one prototype key put in at one place, for each place and key: every string
 * replaced by the key and by key paths through it, every object given the key as an own member
 * (its value a small object with the key again) and its first member renamed to the key.
 */
export function keyVariants(base: unknown, keys: readonly string[] = PROTOTYPE_KEYS): unknown[] {
  const variants: unknown[] = [];
  const visit = (value: unknown, replace: (next: unknown) => unknown): void => {
    if (typeof value === 'string') {
      for (const key of keys) {
        for (const text of [key, `${key}.polluted`, `a.${key}.polluted`])
          variants.push(replace(text));
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, index) =>
        visit(item, (next) => replace(value.map((other, i) => (i === index ? next : other)))),
      );
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const key of keys) {
        variants.push(
          replace(withOwnKeys([...entries, [key, withOwnKeys([[key, { polluted: true }]])]])),
        );
        if (entries.length > 0) {
          variants.push(replace(withOwnKeys([[key, entries[0]![1]], ...entries.slice(1)])));
        }
      }
      entries.forEach(([name, item]) =>
        visit(item, (next) =>
          replace(withOwnKeys(entries.map(([other, old]) => [other, other === name ? next : old]))),
        ),
      );
    }
  };
  visit(base, (next) => next);
  if (base === undefined)
    for (const key of keys) variants.push(withOwnKeys([[key, { polluted: true }]]));
  return variants;
}
