import { afterEach, describe, expect, it } from 'vitest';
import {
  applySchemaEdits,
  readStoredEdits,
  type SchemaEdit,
} from '../../../src/main/router/schema/schemaEdits';

const base = () => ({
  type: 'object',
  properties: { order: { type: 'string' } },
  required: ['order'],
});

/** What a polluted process shows: keys every object inherits. */
const inherited = () => Object.getOwnPropertyNames(Object.prototype).sort();
const clean = inherited();

afterEach(() => {
  // A failing test must not leave the rest of the run polluted.
  for (const key of inherited()) {
    if (!clean.includes(key)) delete (Object.prototype as Record<string, unknown>)[key];
  }
});

describe('hand edits of a schema', () => {
  it('never write through __proto__, even when such an edit was stored before issue 14', () => {
    const stored: SchemaEdit[] = [
      { op: 'add', path: '__proto__.polluted', type: 'string', required: true },
      { op: 'add', path: '__proto__', type: 'object', required: true },
      { op: 'remove', path: 'a.__proto__.type' },
    ];
    const schema = applySchemaEdits(base(), stored);
    expect(inherited()).toEqual(clean);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(schema).toEqual(base());
  });

  it('treat constructor and prototype as the plain keys they are', () => {
    const schema = applySchemaEdits(base(), [
      { op: 'add', path: 'constructor.prototype', type: 'string', required: true },
      { op: 'add', path: 'toString', type: 'boolean', required: false },
    ]);
    expect(schema.properties).toEqual({
      order: { type: 'string' },
      constructor: {
        type: 'object',
        properties: { prototype: { type: 'string' } },
        required: ['prototype'],
      },
      toString: { type: 'boolean' },
    });
    expect(Object.getOwnPropertyNames(Object).sort()).not.toContain('properties');
    const removed = applySchemaEdits(schema, [{ op: 'remove', path: 'constructor.prototype' }]);
    expect(removed.properties).toMatchObject({ constructor: { type: 'object', properties: {} } });
    // Removing a key the schema does not have leaves everything, prototypes included, alone.
    expect(applySchemaEdits(base(), [{ op: 'remove', path: 'constructor' }])).toEqual(base());
    expect(typeof ({} as { constructor: unknown }).constructor).toBe('function');
  });

  it('drop stored edits that would reach a prototype, keeping the others in order', () => {
    const stored = JSON.stringify([
      { op: 'add', path: 'a', type: 'string', required: false },
      { op: 'add', path: '__proto__.polluted', type: 'string', required: true },
      { op: 'remove', path: 'constructor' },
      { op: 'remove', path: 'x.__proto__' },
    ]);
    expect(readStoredEdits(stored)).toEqual({
      edits: [
        { op: 'add', path: 'a', type: 'string', required: false },
        { op: 'remove', path: 'constructor' },
      ],
      dropped: 2,
    });
  });
});
