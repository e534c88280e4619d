import type { Clock } from '../clock';

/**
 * The spec's rate limit: "each API endpoint may be called up to 200 times in a 2-minute window,
 * counted per API endpoint"; "on exceeding, that API alone is blocked for 10 minutes; all its
 * requests fail; Retry-After (seconds remaining) is returned; the API reopens automatically".
 */
export const DEFAULT_RATE_LIMIT = { calls: 200, windowMs: 2 * 60_000, blockMs: 10 * 60_000 };

export interface RateLimitConfig {
  calls: number;
  windowMs: number;
  blockMs: number;
  /** Benchmarks turn the limiter off to measure the server itself. */
  enabled: boolean;
}

export interface RateVerdict {
  allowed: boolean;
  /** Headers for every response ("Rate headers on every response"). */
  headers: Record<string, string>;
}

interface EndpointState {
  windowStart: number;
  count: number;
  blockedUntil: number;
}

/**
 * Window semantics are "not shown" in the spec; ours is a fixed window that opens at an endpoint's
 * first call and lasts 2 minutes (so a client that paces itself by a sliding window never trips
 * it). The call past the limit starts the block; calls during the block are refused and do not
 * count; after the block a fresh window opens.
 */
export class RateLimiter {
  private readonly endpoints = new Map<string, EndpointState>();
  throttled = 0;

  constructor(
    private readonly clock: Clock,
    readonly config: RateLimitConfig,
  ) {}

  check(key: string): RateVerdict {
    const { calls, windowMs, blockMs } = this.config;
    const now = this.clock.now();
    const windowSeconds = String(this.clock.toRealSeconds(windowMs));
    const base = {
      RateLimit: String(calls),
      'RateLimit-Window': windowSeconds,
      'RateLimit-Window-Unit': 'seconds',
    };
    if (!this.config.enabled) {
      return { allowed: true, headers: { ...base, 'RateLimit-Remaining': String(calls) } };
    }
    let state = this.endpoints.get(key);
    if (state && state.blockedUntil > now) {
      this.throttled++;
      return {
        allowed: false,
        headers: {
          ...base,
          'RateLimit-Remaining': '0',
          'Retry-After': String(this.clock.toRealSeconds(state.blockedUntil - now)),
        },
      };
    }
    if (!state || state.blockedUntil > 0 || now - state.windowStart >= windowMs) {
      state = { windowStart: now, count: 0, blockedUntil: 0 };
      this.endpoints.set(key, state);
    }
    state.count++;
    if (state.count > calls) {
      state.blockedUntil = now + blockMs;
      this.throttled++;
      return {
        allowed: false,
        headers: {
          ...base,
          'RateLimit-Remaining': '0',
          'Retry-After': String(this.clock.toRealSeconds(blockMs)),
        },
      };
    }
    return {
      allowed: true,
      headers: { ...base, 'RateLimit-Remaining': String(calls - state.count) },
    };
  }

  /** Endpoints blocked right now, with the real seconds left, for the admin stats. */
  blocked(): { key: string; retryAfterSeconds: number }[] {
    const now = this.clock.now();
    return [...this.endpoints]
      .filter(([, state]) => state.blockedUntil > now)
      .map(([key, state]) => ({
        key,
        retryAfterSeconds: this.clock.toRealSeconds(state.blockedUntil - now),
      }));
  }

  reset(): void {
    this.endpoints.clear();
    this.throttled = 0;
  }
}
