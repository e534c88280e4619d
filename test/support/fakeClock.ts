import type { SchedulerClock } from '../../src/main/api/schedulerClock';

interface Timer {
  at: number;
  order: number;
  fire: () => void;
}

/** Lets pending promise callbacks and I/O-free work run: a few turns of the event loop. */
function settle(): Promise<void> {
  return new Promise((resolve) => {
    let turns = 10;
    const next = (): void => {
      if (--turns === 0) resolve();
      else setImmediate(next);
    };
    setImmediate(next);
  });
}

/**
 * A clock for tests: time stands still until a test advances it, or, with `run`, jumps to the
 * next timer only once every piece of work is waiting for one. Nothing really waits.
 */
export class FakeClock implements SchedulerClock {
  private current: number;
  private timers: Timer[] = [];
  private order = 0;

  constructor(start = Date.UTC(2025, 0, 6, 9, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.timers = this.timers.filter((entry) => entry !== timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        at: this.current + Math.max(0, ms),
        order: this.order++,
        fire: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
      this.timers.sort((a, b) => a.at - b.at || a.order - b.order);
    });
  }

  /** Sleepers not yet woken. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Lets everything that can run without time passing run. */
  settle(): Promise<void> {
    return settle();
  }

  /** Moves time forward by `ms`, waking sleepers in order and letting each one's work run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + Math.max(0, ms);
    await settle();
    for (;;) {
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = Math.max(this.current, next.at);
      next.fire();
      await settle();
    }
    this.current = target;
    await settle();
  }

  /**
   * Runs until `promise` settles: time jumps to the next sleeper only when nothing else can run.
   * Fails instead of hanging when the work waits for a timer that does not exist.
   */
  async run<T>(promise: Promise<T>, options: { maxMs?: number } = {}): Promise<T> {
    const deadline = this.current + (options.maxMs ?? 365 * 24 * 3_600_000);
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (;;) {
      await settle();
      if (done) return promise;
      const next = this.timers.shift();
      if (!next) throw new Error('FakeClock.run: the work waits, but no timer is left to wake it.');
      if (next.at > deadline) throw new Error('FakeClock.run: still waiting at the deadline.');
      this.current = Math.max(this.current, next.at);
      next.fire();
    }
  }
}
