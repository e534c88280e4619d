import { setTimeout as delay } from 'node:timers/promises';

/** Time as the request scheduler sees it: injected, so tests run on a fake clock without waiting. */
export interface SchedulerClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason (an AbortError) when aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Wall-clock time at start-up advanced by the monotonic timer, so a clock change while running
 * cannot shrink or stretch a rate window, and persisted times stay comparable across restarts.
 */
export const systemClock: SchedulerClock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) =>
    delay(Math.max(0, ms), undefined, signal ? { signal } : undefined).then(() => undefined),
};
