/**
 * Issue 19: which keys of a schema are required is the user's choice. sampleKeyPaths lists the
 * keys of a sample the user may tick (the renderer shows it, the engine checks ticks against it);
 * `require` edits apply the choice on top of every inference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SCHEMA_DEPTH } from '../../../src/shared/ipc/areas/router';
import { sampleKeyPaths } from '../../../src/shared/routerSchema/sampleKeyPaths';
import {
  applySchemaEdits,
  withRequiredChoices,
  type SchemaEdit,
} from '../../../src/main/router/schema/schemaEdits';
import { mergeSample, snapshotToSchema } from '../../../src/main/router/schema/inferenceSnapshot';
import { schemaPaths } from '../../../src/main/router/schema/schemaPaths';

/** The plain recursive reading of the same rule, to compare with. */
function naivePaths(value: unknown, prefix = '', depth = 1): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    if (key === '' || key.includes('.') || key === '__proto__') return [];
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...(depth < MAX_SCHEMA_DEPTH ? naivePaths(child, path, depth + 1) : [])];
  });
}

const key = fc.constantFrom('a', 'b', 'order', 'constructor', 'x.y', '', 'items', 'toString');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 4 })),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const sample = fc.dictionary(key, json, { maxKeys: 5 });

describe('the keys of a sample a user may tick as required', () => {
  it('are its object keys, parents before children, in the sample order, not inside arrays', () => {
    expect(
      sampleKeyPaths({
        order: 'A-1',
        customer: { email: 'a@example.com', address: { city: 'Oslo' } },
        items: [{ sku: 'x' }],
        amount: 3,
      }),
    ).toEqual({
      paths: [
        'order',
        'customer',
        'customer.email',
        'customer.address',
        'customer.address.city',
        'items',
        'amount',
      ],
      unnamed: 0,
      truncated: false,
    });
  });

  it('leave out keys no path can name, counting them', () => {
    const parsed = JSON.parse(
      '{"a.b": {"c": 1}, "": 2, "__proto__": {"d": 3}, "ok": 4}',
    ) as unknown;
    expect(sampleKeyPaths(parsed)).toEqual({ paths: ['ok'], unnamed: 3, truncated: false });
  });

  it('stop at the schema depth and at the limit, without recursion', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 100_000; i++) deep = { n: deep };
    const { paths } = sampleKeyPaths(deep);
    expect(paths).toHaveLength(MAX_SCHEMA_DEPTH);
    expect(paths.at(-1)!.split('.')).toHaveLength(MAX_SCHEMA_DEPTH);
    expect(sampleKeyPaths({ a: 1, b: 2, c: 3 }, 2)).toEqual({
      paths: ['a', 'b'],
      unnamed: 0,
      truncated: true,
    });
  });

  it('equal the plain recursive reading, and the keys of the schema generated from the sample', () => {
    fc.assert(
      fc.property(sample, (value) => {
        const { paths } = sampleKeyPaths(value);
        expect(paths).toEqual(naivePaths(value));
        // Every listed key is a key of the generated schema (what the user ticks exists there).
        const schemaKeys = new Set(
          schemaPaths(snapshotToSchema(mergeSample(value, null))).map((p) => p.path),
        );
        for (const path of paths) expect(schemaKeys.has(path)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('required choices as schema edits', () => {
  const schema = () =>
    snapshotToSchema(
      mergeSample({ order: 'A', customer: { email: 'e@x.io', name: 'N' }, amount: 1 }, null),
    );
  const requiredPaths = (value: Record<string, unknown>) =>
    schemaPaths(value)
      .filter((p) => p.required)
      .map((p) => p.path);

  it('make a key required or optional where the schema has it, and change nothing elsewhere', () => {
    const edited = applySchemaEdits(schema(), [
      { op: 'require', path: 'order', required: true },
      { op: 'require', path: 'customer.email', required: true },
      { op: 'require', path: 'customer.phone', required: true },
      { op: 'require', path: 'missing.deep', required: true },
    ]);
    expect(requiredPaths(edited)).toEqual(['order', 'customer.email']);
    // A key that is not there is not invented, nor the objects on its way.
    expect(schemaPaths(edited).map((p) => p.path)).toEqual(
      schemaPaths(schema()).map((p) => p.path),
    );
    const undone = applySchemaEdits(edited, [{ op: 'require', path: 'order', required: false }]);
    expect(requiredPaths(undone)).toEqual(['customer.email']);
  });

  it('apply in order with added and removed keys', () => {
    const edited = applySchemaEdits(schema(), [
      { op: 'add', path: 'coupon', type: 'string', required: true },
      { op: 'require', path: 'coupon', required: false },
      { op: 'require', path: 'amount', required: true },
      { op: 'remove', path: 'amount' },
    ]);
    expect(requiredPaths(edited)).toEqual([]);
  });

  it('replacing earlier choices for the same keys gives the same schema as appending', () => {
    const path = fc.constantFrom(
      'order',
      'amount',
      'customer',
      'customer.email',
      'customer.x',
      'coupon',
    );
    const edit: fc.Arbitrary<SchemaEdit> = fc.oneof(
      fc.record({
        op: fc.constant('add' as const),
        path,
        type: fc.constantFrom('string' as const, 'object' as const),
        required: fc.boolean(),
      }),
      fc.record({ op: fc.constant('remove' as const), path }),
      fc.record({ op: fc.constant('require' as const), path, required: fc.boolean() }),
    );
    const choice = fc.record({ path, required: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(edit, { maxLength: 8 }),
        fc.array(choice, { maxLength: 4 }),
        (edits, choices) => {
          // Only the last choice per path counts, as the engine sends one per path.
          const last = [...new Map(choices.map((c) => [c.path, c])).values()];
          const appended: SchemaEdit[] = [
            ...edits,
            ...last.map((c): SchemaEdit => ({ op: 'require', ...c })),
          ];
          expect(applySchemaEdits(schema(), withRequiredChoices(edits, last))).toEqual(
            applySchemaEdits(schema(), appended),
          );
          // And the stored list holds at most one choice per path.
          const stored = withRequiredChoices(withRequiredChoices(edits, last), last);
          const requires = stored.filter((e) => e.op === 'require').map((e) => e.path);
          expect(stored.length).toBe(withRequiredChoices(edits, last).length);
          expect(requires.filter((p) => last.some((c) => c.path === p))).toHaveLength(last.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
