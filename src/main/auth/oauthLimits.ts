/**
 * The numbers sign-in lives by: the spec's "Token validity" table (001_…, "Token validity") and
 * the issue's own limits. Every other auth module takes them from here.
 */

const MINUTE_MS = 60_000;

/**
 * "Refresh token: ... max 10 access tokens from one refresh token per 10 minutes" and "Access
 * token: ... max 10 per 10 minutes; generating the 11th deletes the first created".
 */
export const ACCESS_TOKENS_PER_WINDOW = 10;
/** The window of every "per 10 minutes" rule of the spec's token table. */
export const TOKEN_WINDOW_MS = 10 * MINUTE_MS;

/** "Access token: valid 1 hour": assumed only when a token response leaves its lifetime out. */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_MS = 60 * MINUTE_MS;

/**
 * Ours: an access token is replaced this long before it expires, so a request sent just before
 * the expiry does not arrive with a dead token. Never more than a tenth of the token's life (an
 * emulator with `--time-scale` hands out tokens that live seconds).
 */
export const REFRESH_MARGIN_MS = MINUTE_MS;

/** The issue: the loopback listener "times out after 5 minutes with a clear message". */
export const SIGN_IN_TIMEOUT_MS = 5 * MINUTE_MS;

/** Ours: one token-endpoint call (exchange, refresh, revoke) is abandoned after this long. */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;
