/**
 * What an interactive component test file needs besides its `// @vitest-environment happy-dom`
 * docblock. Vitest runs without globals here, so Testing Library cannot register its own cleanup
 * or act environment (testing-library docs, "Auto Cleanup in Vitest"): this does it, once per file.
 */
import { act, cleanup } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, vi } from 'vitest';

/** Call at the top level of a test file. */
export function useDomTestEnvironment(): void {
  // React 19 warns about updates outside act() only where this flag says a test runs.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // Testing Library advances only Jest's fake timers while it waits for React
  // (react-testing-library#1197); Vitest's are the same @sinonjs clock, so lend it the name.
  (globalThis as { jest?: unknown }).jest = {
    advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms),
  };
  // happy-dom 20 caches `selectedOptions` until the DOM changes, so a list box's second pick or
  // un-pick reads the first one's options; browsers compute it afresh, and so does this.
  Object.defineProperty(HTMLSelectElement.prototype, 'selectedOptions', {
    configurable: true,
    get(this: HTMLSelectElement) {
      return [...this.options].filter((option) => option.selected);
    },
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    localStorage.clear();
  });
}

/**
 * Fakes the timers the components use (a typed filter waits before it applies), then a user who
 * types and clicks without the real pauses between keys.
 */
export function setupUser() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

/** Lets `ms` of fake time pass, with React and the engine's answers settling in between. */
export async function pass(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}
