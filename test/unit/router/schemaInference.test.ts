import { describe, expect, it } from 'vitest';
import { mergeSample, snapshotToSchema } from '../../../src/main/router/inferenceSnapshot';
import { applySchemaEdits } from '../../../src/main/router/schemaEdits';
import { schemaPaths } from '../../../src/main/router/schemaPaths';
import { SchemaValidator } from '../../../src/main/router/schemaValidator';

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
  it('emits draft 2020-12 with types and formats, every key required', () => {
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
    expect(new Set(schema.required as string[])).toEqual(new Set(Object.keys(sample)));
  });

  it('merges samples: keys missing from one become optional, mixed types survive storage', () => {
    let snapshot = mergeSample({ name: 'A', code: 1 }, null);
    snapshot = mergeSample(
      { name: 'B', code: 'X1', extra: true },
      JSON.parse(JSON.stringify(snapshot)),
    );
    const schema = snapshotToSchema(snapshot);
    expect(schema.required).toEqual(['name', 'code']);
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
    expect(paths).toContain('created:datetime:true');
    expect(paths).toContain('amount:number:true');
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
    expect(validator.validate(schema, withoutPaid)).toEqual([
      "(data): must have required property 'paid'",
    ]);
  });
});
