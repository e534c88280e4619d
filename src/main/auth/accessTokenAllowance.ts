/**
 * Whether one more access token may be asked for from a refresh token that already produced
 * tokens at `issuedAt`: "max 10 access tokens from one refresh token per 10 minutes", and the
 * 11th silently deletes the first, which may still be in use. So the 11th waits until the oldest
 * of the window leaves it. Pure.
 */
import { ACCESS_TOKENS_PER_WINDOW, TOKEN_WINDOW_MS } from './oauthLimits';

export type AccessTokenAllowance = { allowed: true } | { allowed: false; waitMs: number };

export function accessTokenAllowance(
  issuedAt: readonly number[],
  now: number,
  limit = ACCESS_TOKENS_PER_WINDOW,
  windowMs = TOKEN_WINDOW_MS,
): AccessTokenAllowance {
  const recent = issuedAt.filter((at) => at > now - windowMs).sort((a, b) => a - b);
  if (recent.length < limit) return { allowed: true };
  // The entry that must leave the window so that only limit - 1 remain.
  const blocking = recent[recent.length - limit] as number;
  return { allowed: false, waitMs: Math.max(1, blocking + windowMs - now + 1) };
}

/** How many tokens were asked for in the window ending at `now` (the account page shows it). */
export function tokensInWindow(
  issuedAt: readonly number[],
  now: number,
  windowMs = TOKEN_WINDOW_MS,
): number {
  return issuedAt.filter((at) => at > now - windowMs).length;
}
