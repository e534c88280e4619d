import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_SAMPLE_BYTES,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_KEYS,
} from '../../../src/shared/ipc/areas/router';
import { RouterInputError } from '../../../src/main/router/engine/routerErrors';
import { mergeSample, snapshotToSchema } from '../../../src/main/router/schema/inferenceSnapshot';
import { applySchemaEdits } from '../../../src/main/router/schema/schemaEdits';
import { schemaPaths } from '../../../src/main/router/schema/schemaPaths';
import { SchemaValidator } from '../../../src/main/router/schema/schemaValidator';

const sample = {
  id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  email: 'ada@example.com',
  website: 'https://example.com',
  created: '2024-05-15T10:00:00Z',
  due: '2024-05-20',
  amount: 12.5,
  count: 3,
  paid: false,
  customer: { name: 'Ada', tier: 'gold' },
  tags: ['a', 'b'],
};

describe('schema inference from samples', () => {
  it('emits draft 2020-12 with types and formats, no key required (issue 19: the user chooses)', () => {
    const schema = snapshotToSchema(mergeSample(sample, null));
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.properties).toMatchObject({
      id: { type: 'string', format: 'uuid' },
      email: { type: 'string', format: 'email' },
      website: { type: 'string', format: 'uri' },
      created: { type: 'string', format: 'date-time' },
      due: { type: 'string', format: 'date' },
      amount: { type: 'number' },
      count: { type: 'integer' },
      paid: { type: 'boolean' },
      customer: { type: 'object', properties: { name: { type: 'string' } } },
      tags: { type: 'array', items: { type: 'string' } },
    });
    expect(schema).not.toHaveProperty('required');
    expect((schema.properties as { customer: object }).customer).not.toHaveProperty('required');
  });

  it('merges samples: keys missing from one become optional, mixed types survive storage', () => {
    let snapshot = mergeSample({ name: 'A', code: 1 }, null);
    snapshot = mergeSample(
      { name: 'B', code: 'X1', extra: true },
      JSON.parse(JSON.stringify(snapshot)),
    );
    const schema = snapshotToSchema(snapshot);
    // Keys every sample had first; none required (that is the user's choice).
    expect(Object.keys(schema.properties as object)).toEqual(['name', 'code', 'extra']);
    expect(schema).not.toHaveProperty('required');
    expect((schema.properties as Record<string, unknown>).extra).toEqual({ type: 'boolean' });
    // The stored snapshot is JSON text: the alternatives of a mixed-type key must survive it.
    expect((schema.properties as Record<string, unknown>).code).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    });
  });

  it('keys added or removed by hand apply on top of the inference', () => {
    const schema = snapshotToSchema(mergeSample(sample, null));
    const edited = applySchemaEdits(schema, [
      { op: 'remove', path: 'tags' },
      { op: 'add', path: 'customer.vip', type: 'boolean', required: true },
      { op: 'add', path: 'shipping.city', type: 'string', required: false },
    ]);
    const paths = schemaPaths(edited).map((p) => `${p.path}:${p.type}:${p.required}`);
    expect(paths).not.toContain('tags:null:true');
    expect(paths).toContain('customer.vip:boolean:true');
    expect(paths).toContain('shipping.city:string:false');
    expect(paths).toContain('created:datetime:false');
    expect(paths).toContain('amount:number:false');
    expect(schema.properties).toHaveProperty('tags');
  });

  it('validates data against the schema with formats (Ajv 2020 + ajv-formats)', () => {
    const schema = snapshotToSchema(mergeSample(sample, null));
    const validator = new SchemaValidator();
    expect(validator.validate(schema, sample)).toEqual([]);
    const errors = validator.validate(schema, { ...sample, email: 'not an email', count: 'three' });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/email: must match format "email"/),
        expect.stringMatching(/^\/count: must be integer/),
      ]),
    );
    const withoutPaid: Record<string, unknown> = { ...sample };
    delete withoutPaid.paid;
    expect(validator.validate(schema, withoutPaid)).toEqual([]);
    const paidRequired = applySchemaEdits(schema, [
      { op: 'require', path: 'paid', required: true },
    ]);
    expect(validator.validate(paidRequired, withoutPaid)).toEqual([
      "(data): must have required property 'paid'",
    ]);
  });
});

describe('schema inference on hostile or unusual samples (issue 14)', () => {
  const wide = (keys: number) =>
    Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));
  const deep = (levels: number) => {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < levels; i++) value = { next: value };
    return value;
  };

  it('refuses a sample with more keys than a schema may hold, saying so, instead of working for minutes', () => {
    // 5,000 keys in 63 KB: the sample, which held the engine for 24 s.
    const sample = wide(5_000);
    expect(JSON.stringify(sample).length).toBeLessThan(MAX_SAMPLE_BYTES);
    expect(() => mergeSample(sample, null)).toThrow(RouterInputError);
    expect(() => mergeSample(sample, null)).toThrow(
      `more than ${MAX_SCHEMA_KEYS} keys (nested ones included), the most a schema may. The schema was not changed`,
    );
    expect(() => mergeSample(wide(MAX_SCHEMA_KEYS), null)).not.toThrow();
  });

  it('refuses samples nested too deeply or larger than an event, with what to do', () => {
    expect(() => mergeSample(deep(1_200), null)).toThrow(
      `deeper than ${MAX_SCHEMA_DEPTH} levels, the most a schema may. The schema was not changed`,
    );
    expect(() => mergeSample(deep(MAX_SCHEMA_DEPTH - 2), null)).not.toThrow();
    expect(() => mergeSample({ text: 'x'.repeat(MAX_SAMPLE_BYTES) }, null)).toThrow(
      `larger than ${MAX_SAMPLE_BYTES / 1024} KB as JSON`,
    );
  });

  it('keeps constructor and prototype as keys, and refuses __proto__ without touching any prototype', () => {
    const schema = snapshotToSchema(
      mergeSample({ constructor: 'c', prototype: { toString: 1 }, hasOwnProperty: true }, null),
    );
    expect(schema.properties).toEqual({
      constructor: { type: 'string' },
      prototype: {
        type: 'object',
        properties: { toString: { type: 'integer' } },
      },
      hasOwnProperty: { type: 'boolean' },
    });
    const hostile = JSON.parse('{"a": {"__proto__": {"polluted": 1}}}') as unknown;
    expect(() => mergeSample(hostile, null)).toThrow('At a the sample has a key named "__proto__"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads inferences stored by @jsonhero/schema-infer, dropping a __proto__ key it kept', () => {
    // Written by the library for {"__proto__": 1, "code": 1} then {"code": "X", "__proto__": 2}.
    const stored =
      '{"type":"object","properties":{"required":{"__proto__":{"type":"int","range":{"min":1,"max":2}},"code":{"type":"any","schemas":{"$set":[{"type":"int","range":{"min":1,"max":1}},{"type":"string"}]}}},"optional":{}}}';
    expect(snapshotToSchema(stored)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { code: { anyOf: [{ type: 'integer' }, { type: 'string' }] } },
    });
    const merged = snapshotToSchema(mergeSample({ code: 2.5, note: null }, stored));
    expect(merged.properties).toEqual({
      code: { anyOf: [{ type: 'number' }, { type: 'string' }] },
      note: { type: 'null' },
    });
  });

  it('every sample merged is valid under the schema inferred from them all', () => {
    const validator = new SchemaValidator();
    // Keys from a small pool so that samples share keys with different types.
    const key = fc.constantFrom('id', 'name', 'constructor', 'prototype', 'tags', 'when', 'n');
    const leaf = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom('2024-05-15T10:00:00Z', '2024-05-15', 'ada@example.com', 'https://x.io/a'),
      fc.string({ maxLength: 8 }),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    }));
    const sample = fc.dictionary(key, value, { maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 5 }), (samples) => {
        let snapshot: string | null = null;
        for (const one of samples) snapshot = mergeSample(one, snapshot);
        const schema = snapshotToSchema(snapshot as string);
        for (const one of samples) expect(validator.validate(schema, one)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
