import { describe, expect, it } from 'vitest';
import { rateCeilingSeconds } from '../../../src/main/api/rateCeiling';

describe('rateCeilingSeconds', () => {
  it('is (⌈calls ÷ limit⌉ − 1) × window for the busiest endpoint key', () => {
    // 450 calls on the busiest key: 200 at once, 200 a window later, 50 two windows later.
    expect(rateCeilingSeconds([120, 450, 3], 200, 12)).toBe(24);
    expect(rateCeilingSeconds(new Map([['a', 2_000]]).values(), 200, 120)).toBe(9 * 120);
  });

  it('is zero while everything fits in the first window', () => {
    expect(rateCeilingSeconds([200, 1], 200, 120)).toBe(0);
    expect(rateCeilingSeconds([201], 200, 120)).toBe(120);
    expect(rateCeilingSeconds([], 200, 120)).toBe(0);
  });

  it('refuses a limit or window that makes no sense', () => {
    expect(() => rateCeilingSeconds([10], 0, 120)).toThrow(RangeError);
    expect(() => rateCeilingSeconds([10], 2.5, 120)).toThrow(RangeError);
    expect(() => rateCeilingSeconds([10], 200, -1)).toThrow(RangeError);
  });
});
