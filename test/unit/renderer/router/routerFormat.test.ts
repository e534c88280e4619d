import { describe, expect, it } from 'vitest';
import { formatAgo } from '../../../../src/renderer/src/features/router/routerFormat';

describe('how long ago, in words', () => {
  it.each([
    [-2_000, 'just now'],
    [4_999, 'just now'],
    [5_000, '5 s ago'],
    [59_999, '59 s ago'],
    [60_000, '1 min ago'],
    [3_599_999, '59 min ago'],
    [3_600_000, '1 h ago'],
    [47 * 3_600_000, '47 h ago'],
    [48 * 3_600_000, '2 days ago'],
    [10 * 86_400_000 + 5, '10 days ago'],
  ])('%i ms back is "%s"', (ms, words) => {
    expect(formatAgo(ms)).toBe(words);
  });
});
