/**
 * A target's invocation rate limit (issue 8: 1-300 per second): hands out start times at most
 * `perSecond` per (virtual) second, evenly spaced, first come first served.
 */
export class TokenPacer {
  private nextFree = -Infinity;

  constructor(private readonly perSecond: number) {}

  /** The virtual time at which the next call may start (now, if the target is idle enough). */
  reserve(now: number): number {
    const interval = 1000 / this.perSecond;
    const start = Math.max(now, this.nextFree);
    this.nextFree = start + interval;
    return start;
  }
}
