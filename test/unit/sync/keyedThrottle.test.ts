import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyedThrottle } from '../../../src/main/sync/keyedThrottle';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('KeyedThrottle', () => {
  it('passes the first notice at once and folds the rest of the interval into one', () => {
    const fired: string[] = [];
    const throttle = new KeyedThrottle<string>(1000, (key) => fired.push(key));
    throttle.notify('a');
    throttle.notify('a');
    throttle.notify('a');
    throttle.notify('b');
    expect(fired).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1000);
    // 'a' changed again within its interval: one more notice; 'b' did not.
    expect(fired).toEqual(['a', 'b', 'a']);
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual(['a', 'b', 'a']);
    throttle.notify('b');
    expect(fired).toEqual(['a', 'b', 'a', 'b']);
  });

  it('sends nothing after close', () => {
    const fired: string[] = [];
    const throttle = new KeyedThrottle<string>(1000, (key) => fired.push(key));
    throttle.notify('a');
    throttle.notify('a');
    throttle.close();
    vi.advanceTimersByTime(2000);
    expect(fired).toEqual(['a']);
  });
});
