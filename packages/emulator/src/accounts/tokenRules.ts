/**
 * The spec's "Token validity" table as numbers, and the pure decisions built on them (what a new
 * token evicts, whether a grant may be issued, what lifetime a client is told). The accounts
 * routes only read the database and apply these.
 */
import { createHash } from 'node:crypto';

const MINUTE_MS = 60_000;

/**
 * "Grant token: single use; valid 2 minutes by default ... one statement gives 1 minute for the
 * redirection flow". We use the default, 2 minutes, for every redirect-flow grant.
 */
export const GRANT_TTL_MS = 2 * MINUTE_MS;
/** "extendable for self clients": the console offers 3 to 10 minutes; 3 is preselected. */
export const SELF_CLIENT_VALIDITY_MINUTES = [3, 4, 5, 6, 7, 8, 9, 10] as const;
export const SELF_CLIENT_DEFAULT_MINUTES = 3;
/** "max 10 per 10 minutes per client id" (grant tokens); the 11th is refused. */
export const GRANTS_PER_WINDOW = 10;
/** The window of every "per 10 minutes" rule in the table. */
export const TOKEN_WINDOW_MS = 10 * MINUTE_MS;

/** "Access token: valid 1 hour". */
export const ACCESS_TOKEN_TTL_MS = 60 * MINUTE_MS;
/**
 * An access token's lifetime in emulated time. Normally the spec's hour passes `scale` times
 * faster like every other duration; with `--unscaled-token-lifetime` it lasts a real hour
 * (`scale` emulated hours), so a client that renews five minutes early (a margin in real time)
 * still has a usable token at high time scales.
 */
export function accessTokenTtlMs(scale: number, unscaled: boolean): number {
  return unscaled ? ACCESS_TOKEN_TTL_MS * scale : ACCESS_TOKEN_TTL_MS;
}
/** "max 10 access tokens from one refresh token per 10 minutes"; the 11th deletes the first. */
export const ACCESS_TOKENS_PER_WINDOW = 10;
/** "max 20 refresh tokens per 10 minutes per client id; the 21st deletes the first created". */
export const REFRESH_TOKENS_PER_WINDOW = 20;

export interface Issued {
  created_ms: number;
}

/** The items created within the window that ends at `now`, oldest first. */
export function inWindow<T extends Issued>(items: readonly T[], now: number): T[] {
  return items
    .filter((item) => item.created_ms > now - TOKEN_WINDOW_MS && item.created_ms <= now)
    .sort((a, b) => a.created_ms - b.created_ms);
}

/**
 * The tokens a new one evicts under a "max N per 10 minutes; the N+1th deletes the first
 * created" rule: the oldest of the window, as many as it takes to leave room for the new one.
 */
export function tokensToEvict<T extends Issued>(
  existing: readonly T[],
  now: number,
  limit: number,
): T[] {
  const recent = inWindow(existing, now);
  return recent.slice(0, Math.max(0, recent.length - limit + 1));
}

/**
 * Whether one more grant token may be issued for a client that issued `existing` ones. Refused
 * grants are not recorded, so `retryAfterMs` is when the oldest one leaves the window.
 */
export function grantAllowance(
  existing: readonly Issued[],
  now: number,
): { allowed: true } | { allowed: false; retryAfterMs: number } {
  const recent = inWindow(existing, now);
  if (recent.length < GRANTS_PER_WINDOW) return { allowed: true };
  const oldest = recent[recent.length - GRANTS_PER_WINDOW] as Issued;
  return { allowed: false, retryAfterMs: oldest.created_ms + TOKEN_WINDOW_MS - now };
}

/**
 * Lifetimes are kept in emulated time; a client waits in real time, so with --time-scale N it is
 * told the emulated lifetime divided by N. Rounded down (but at least 1) so a client that renews
 * at the reported expiry is never late.
 */
export function reportedLifetime(
  emulatedMs: number,
  scale: number,
): { seconds: number; ms: number } {
  const realMs = emulatedMs / scale;
  return {
    seconds: Math.max(1, Math.floor(realMs / 1000)),
    ms: Math.max(1, Math.floor(realMs)),
  };
}

/**
 * PKCE (RFC 7636). Only `S256` is accepted: `plain` gives no protection against a leaked code.
 * A challenge is the base64url SHA-256 of a 43-128 character verifier, so 43 characters itself.
 */
export const PKCE_METHOD = 'S256';
const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isCodeChallenge(text: string): boolean {
  return CHALLENGE_PATTERN.test(text);
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function pkceMatches(verifier: string, challenge: string): boolean {
  return VERIFIER_PATTERN.test(verifier) && pkceChallenge(verifier) === challenge;
}
