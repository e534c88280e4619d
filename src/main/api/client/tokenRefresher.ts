/**
 * One shared refresh per refused token ("a 400 INVALID_OAUTHTOKEN or 401 triggers one shared
 * refresh, never one per request"). Requests that fail together with the same token wait for the
 * same refresh; a request that fails later with that old token gets the token the refresh already
 * produced instead of starting another. The service caps access tokens at 10 per 10 minutes and
 * the 11th deletes the first, so a refresh per request would soon invalidate tokens in use.
 */
import type { TokenProvider } from './tokenProvider';

/** Refused tokens remembered; a token lives an hour, so a handful covers any burst. */
const REMEMBERED_REFRESHES = 16;

export class TokenRefresher {
  private readonly refreshes = new Map<string, Promise<string>>();

  constructor(private readonly provider: TokenProvider) {}

  /** The token to use instead of `rejected`; starts a refresh only if none ran for it. */
  refresh(rejected: string): Promise<string> {
    const known = this.refreshes.get(rejected);
    if (known) return known;
    const pending = Promise.resolve()
      .then(() => this.provider.refresh(rejected))
      .catch((error: unknown) => {
        // A failed refresh is not remembered: the next failure may try again.
        this.refreshes.delete(rejected);
        throw error;
      });
    this.refreshes.set(rejected, pending);
    while (this.refreshes.size > REMEMBERED_REFRESHES) {
      const oldest = this.refreshes.keys().next().value as string;
      this.refreshes.delete(oldest);
    }
    return pending;
  }
}
