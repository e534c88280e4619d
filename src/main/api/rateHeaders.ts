import type { ServerReading } from './rateBudget';

/**
 * The spec's "Rate headers on every response: RateLimit (allowed in window),
 * RateLimit-Remaining, RateLimit-Window (seconds, e.g. 120), RateLimit-Window-Unit (e.g. seconds);
 * Retry-After only after the limit is exceeded".
 */
export interface RateHeaders extends ServerReading {
  /** From `Retry-After`: seconds ("seconds remaining" in the spec) or an HTTP date. */
  retryAfterMs?: number;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
};

const WHOLE = /^\s*(\d{1,15})\s*$/;
const DECIMAL = /^\s*(\d{1,15}(?:\.\d+)?)\s*$/;

function whole(value: string | null): number | undefined {
  const match = value === null ? null : WHOLE.exec(value);
  return match ? Number(match[1]) : undefined;
}

/**
 * Reads the rate headers; anything missing or unreadable is left out rather than guessed, so the
 * budget keeps what it knew. `now` (epoch ms) turns an HTTP-date Retry-After into a delay.
 */
export function readRateHeaders(headers: Headers, now: number): RateHeaders {
  const reading: RateHeaders = {};
  const limit = whole(headers.get('RateLimit'));
  if (limit !== undefined && limit >= 1) reading.limit = limit;
  const remaining = whole(headers.get('RateLimit-Remaining'));
  if (remaining !== undefined) reading.remaining = remaining;

  const windowMatch = DECIMAL.exec(headers.get('RateLimit-Window') ?? '');
  const unit = (headers.get('RateLimit-Window-Unit') ?? 'seconds').trim().toLowerCase();
  const unitMs = UNIT_MS[unit];
  if (windowMatch && unitMs !== undefined) {
    // Rounded up: a window read slightly too long only makes us slower, never blocked.
    const windowMs = Math.ceil(Number(windowMatch[1]) * unitMs);
    if (windowMs > 0) reading.windowMs = windowMs;
  }

  const retryAfter = headers.get('Retry-After');
  if (retryAfter !== null) {
    const seconds = DECIMAL.exec(retryAfter);
    if (seconds) {
      reading.retryAfterMs = Math.ceil(Number(seconds[1]) * 1000);
    } else {
      const date = Date.parse(retryAfter);
      if (Number.isFinite(date)) reading.retryAfterMs = Math.max(0, Math.ceil(date - now));
    }
  }
  return reading;
}
