/** How a queued record change's option values follow a rename (pure). */
import { describe, expect, it } from 'vitest';
import { holdsValueOf, relabelFields } from '../../../src/main/configure/queuedRecordOptions';

const swap = new Map([
  ['A', 'B'],
  ['B', 'A'],
]);

describe('relabelFields', () => {
  it('relabels value and base of a pick list, a swap staying a swap', () => {
    expect(
      relabelFields(
        { cf_c: { value: 'A', base: 'B' }, name: { value: 'A', base: 'x' } },
        { apiName: 'cf_c', multi: false },
        swap,
      ),
    ).toEqual({ cf_c: { value: 'B', base: 'A' }, name: { value: 'A', base: 'x' } });
  });

  it('relabels each item of a multi-select and leaves other names and null alone', () => {
    expect(
      relabelFields(
        { cf_t: { value: ['A', 'C', 'B'], base: null } },
        { apiName: 'cf_t', multi: true },
        swap,
      ),
    ).toEqual({ cf_t: { value: ['B', 'C', 'A'], base: null } });
  });

  it('says nothing changed when the field is not set or holds no renamed name', () => {
    const field = { apiName: 'cf_c', multi: false };
    expect(relabelFields({ name: { value: 'A', base: null } }, field, swap)).toBeNull();
    expect(relabelFields({ cf_c: { value: 'C', base: null } }, field, swap)).toBeNull();
  });
});

describe('holdsValueOf', () => {
  it('looks at the value only, one name or each item, or (null) the field set or cleared', () => {
    const fields = { cf_c: { value: 'A', base: 'B' }, cf_t: { value: ['C'], base: [] } };
    expect(holdsValueOf(fields, 'cf_c', new Set(['A']))).toBe(true);
    expect(holdsValueOf(fields, 'cf_c', new Set(['B']))).toBe(false);
    expect(holdsValueOf(fields, 'cf_t', new Set(['C']))).toBe(true);
    expect(holdsValueOf(fields, 'cf_t', null)).toBe(true);
    expect(holdsValueOf({ cf_c: { value: null, base: 'A' } }, 'cf_c', null)).toBe(true);
    expect(holdsValueOf({ cf_c: { value: null, base: 'A' } }, 'cf_c', new Set(['A']))).toBe(false);
    expect(holdsValueOf(fields, 'cf_x', null)).toBe(false);
  });
});
