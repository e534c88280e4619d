/**
 * When a failed request is sent again, and after how long. The spec says nothing about retries;
 * these are ours.
 *
 * - Only transient failures are retried: 5xx (not 501), 408, network errors, timeouts, resets.
 * - GET, PUT and DELETE are idempotent: sending one twice leaves the service as sending it once;
 *   but a PUT that "adds or updates" (sections, fields) adds when its body names no `id`, and two
 *   sends add twice (or the second is refused as a duplicate name, the first unknown to us).
 * - POST and PATCH are retried only when the request certainly did not reach the server
 *   (connection refused, name lookup failed): a reset or a timeout may come after the server
 *   acted, and a 5xx answer means it received the request, so a second one could act twice.
 * - Delays grow exponentially with full jitter (a random delay between 0 and the cap), so many
 *   clients failing together do not come back together.
 */
import type { HttpMethod } from './endpoints';

export interface RetryPolicy {
  /** Sends in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Four sends over at most ~3.5 s of waiting (0.5 + 1 + 2 s caps), then the caller decides. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

/** How the previous send failed, as far as retrying is concerned. */
export type TransientFailure = 'answered' | 'unreached' | 'maybe-reached';

/** Whether sending this call twice leaves the service as sending it once. */
export function isIdempotentCall(
  method: HttpMethod,
  addsWithoutId: boolean,
  body: unknown,
): boolean {
  if (!IDEMPOTENT.has(method)) return false;
  if (!addsWithoutId) return true;
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  return id !== undefined && id !== null && id !== '';
}

/** `idempotent`: isIdempotentCall's verdict for the call that failed. */
export function mayRetry(idempotent: boolean, failure: TransientFailure): boolean {
  return idempotent || failure === 'unreached';
}

/** Full jitter: uniform in [0, min(max, base × 2^(retry − 1))]; `retry` counts from 1. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * cap);
}

/** `Retry-After` in seconds (delta form only; the spec's rate limit sends seconds). */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header);
}
