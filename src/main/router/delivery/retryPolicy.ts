/**
 * When and whether a delivery is tried again. Spec 000: "Retry count default and delay between
 * attempts: not shown"; our choices (README, "Retries"): exponential backoff from one minute,
 * doubling, at most one hour apart, so ten retries span about five hours of (virtual) time.
 */
export const RETRY_BASE_DELAY_MS = 60_000;
export const RETRY_MAX_DELAY_MS = 60 * 60_000;
/** A Retry-After beyond a day is read as a day: the sandbox should not park a delivery forever. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60_000;

export type AttemptVerdict = 'success' | 'retry' | 'failed';

/**
 * 2xx is delivered. No answer (timeout, refused), 408, 429 and 5xx may succeed later; 410 Gone and
 * other 4xx say the request itself is wrong, so repeating it cannot help.
 */
export function classifyAttempt(status: number | null): AttemptVerdict {
  if (status === null) return 'retry';
  if (status >= 200 && status < 300) return 'success';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed';
}

/** Milliseconds to wait after failed attempt number `attempt` (1-based). */
export function backoffDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_DELAY_MS);
}

/** A Retry-After header (delay-seconds or an HTTP date) as milliseconds from now, or null. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

/**
 * What happens after an attempt: done, or the next attempt's delay. The target's Retry-After, when
 * given, replaces the backoff (the target said when it can take the next one).
 */
export function planNextAttempt(input: {
  attempt: number;
  retryCount: number;
  status: number | null;
  retryAfterMs: number | null;
}): { verdict: 'success' | 'failed' } | { verdict: 'retry'; delayMs: number } {
  const verdict = classifyAttempt(input.status);
  if (verdict !== 'retry') return { verdict };
  if (input.attempt > input.retryCount) return { verdict: 'failed' };
  return { verdict: 'retry', delayMs: input.retryAfterMs ?? backoffDelayMs(input.attempt) };
}
