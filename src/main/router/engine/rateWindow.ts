/**
 * The ingress limit per publisher (issue 8, the real service's documented limit): 500 requests per
 * minute, then 429 for 60 seconds. A fixed window opened by the first request, like the emulator's
 * API limit; requests refused during the block do not count.
 */
export class RateWindow {
  private windowStart = -Infinity;
  private count = 0;
  private blockedUntil = -Infinity;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly blockMs: number,
  ) {}

  /** Counts a request at `now`; returns the ms until it may retry when refused, else null. */
  take(now: number): number | null {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += 1;
    if (this.count > this.limit) {
      this.blockedUntil = now + this.blockMs;
      this.windowStart = -Infinity;
      return this.blockMs;
    }
    return null;
  }
}
