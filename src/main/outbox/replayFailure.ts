/**
 * What a failed send means for the replay (pure): the service refused the change for good (the
 * record's queue stops with its reason), the connection is gone (the whole replay holds until it
 * is back), or something passing (this operation waits and retries).
 */
import { ApiError, CLIENT_ERROR_CODES } from '../api/client/apiError';
import { replayBackoff } from './replayBackoff';

/** Ours: a signed-out account's changes are looked at again after this long (or at sign-in). */
export const SIGNED_OUT_RETRY_MS = 60_000;

/**
 * A change the replay itself finds impossible (what it addresses is gone from here): refused like
 * a 4xx, with words for the user.
 */
export class ChangeRefused extends Error {
  override name = 'ChangeRefused';
}

/** Ours: how long an operation waiting for another one's answer waits before it looks again. */
export const DEPENDENCY_WAIT_MS = 2_000;

/**
 * An operation that needs another one's answer first (a layout of a module still being created):
 * it waits and looks again, without counting as a failure of its own; the message says for what.
 */
export class DependencyPending extends Error {
  override name = 'DependencyPending';
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** No answer at all: the network is down or the call timed out. */
export function isNetwork(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === null &&
    (error.errorCode === CLIENT_ERROR_CODES.network ||
      error.errorCode === CLIENT_ERROR_CODES.timeout)
  );
}

/**
 * The service answered 2xx, so it made the change, though the answer could not be read (a reply
 * PortalDesk cannot parse is refused like a 4xx): what was sent stays on the operation, so a retry
 * looks for what it made instead of making it again.
 */
export const serviceActed = (error: unknown) =>
  error instanceof ApiError && error.status !== null && error.status >= 200 && error.status < 300;

export function isAbort(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

export type FailureVerdict =
  /** Refused for good (a 4xx, a module no longer mirrored): the record's queue stops. */
  | { kind: 'refused'; message: string }
  /** No connection: the whole replay holds (its backoff counts the replay's failures in a row). */
  | { kind: 'offline'; message: string }
  /**
   * Passing (5xx, rate limit, signed out): this operation waits `waitMs`. `unexpected`: not an
   * answer of the service at all, worth a line in the log.
   */
  | { kind: 'retry'; message: string; waitMs: number; unexpected: boolean };

/** `attempts`: the operation's failed attempts so far; `random` spreads the backoff. */
export function classifyFailure(
  error: unknown,
  attempts: number,
  random: () => number,
): FailureVerdict {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && error.kind === 'permanent') return { kind: 'refused', message };
  if (error instanceof ChangeRefused) return { kind: 'refused', message };
  if (error instanceof DependencyPending) {
    return { kind: 'retry', message, waitMs: DEPENDENCY_WAIT_MS, unexpected: false };
  }
  if (isNetwork(error)) return { kind: 'offline', message };
  const waitMs =
    error instanceof ApiError && error.kind === 'rate' && error.retryAfterSeconds !== null
      ? error.retryAfterSeconds * 1000
      : error instanceof ApiError && error.kind === 'auth'
        ? SIGNED_OUT_RETRY_MS
        : replayBackoff(attempts + 1, random);
  return { kind: 'retry', message, waitMs, unexpected: !(error instanceof ApiError) };
}
