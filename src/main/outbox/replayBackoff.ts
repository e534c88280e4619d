/**
 * How long an operation waits after a transient failure (5xx, timeout, no connection) before the
 * next try. The spec says nothing about retries; ours: exponential from 2 s, capped at 5 minutes,
 * with jitter so records that failed together do not come back together. Pure.
 */

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** `attempt` counts failed tries from 1; `random` in [0, 1). Between half and all of the cap. */
export function replayBackoff(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}
