/**
 * The emulator's notion of time. `--time-scale N` makes every server-side duration pass N times
 * faster (rate windows, blocks, token lifetimes, backup reuse, the 30-day restore window), and
 * the admin surface can jump it forward. Everything in the emulator reads time from here.
 */
export interface Clock {
  /** Emulated epoch milliseconds. */
  now(): number;
  /** How much faster than real time emulated time passes. */
  readonly scale: number;
  /** Jumps emulated time forward. */
  advance(ms: number): void;
  /** Converts an emulated duration to the real seconds a client will wait (headers, expiries). */
  toRealSeconds(emulatedMs: number): number;
}

export function createClock(scale = 1, realNow: () => number = Date.now): Clock {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new Error(`--time-scale must be a positive number, not ${scale}.`);
  }
  const realStart = realNow();
  let offset = 0;
  return {
    scale,
    now: () => realStart + (realNow() - realStart) * scale + offset,
    advance: (ms) => {
      if (!(ms >= 0)) throw new Error('The clock only moves forward.');
      offset += ms;
    },
    toRealSeconds: (emulatedMs) => Math.max(0, Math.ceil(emulatedMs / scale / 1000)),
  };
}
