/**
 * The token provider the API client uses, for one account. It reuses an access token until
 * shortly before it expires; runs one refresh at a time (concurrent callers wait for it); never
 * asks for more than 10 access tokens per refresh token in 10 minutes (the persisted ledger says
 * when the next one may be asked for, and it waits rather than let the 11th silently delete the
 * first); and when the refresh token itself is refused (`invalid_code`) it reports the account
 * signed out instead of retrying.
 */
import { abortableSleep } from '../abortableSleep';
import type { TokenProvider } from '../api/client/tokenProvider';
import { accessTokenAllowance, tokensInWindow } from './accessTokenAllowance';
import type { AccessTokenLedger } from './accessTokenLedger';
import { OAuthError } from './oauthError';
import type { OAuthErrorContext } from './oauthErrorMessage';
import { REFRESH_MARGIN_MS } from './oauthLimits';
import { refreshAccessToken, type TokenEndpointOptions } from './tokenEndpoint';

export interface TokenClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: TokenClock = {
  now: () => Date.now(),
  sleep: abortableSleep,
};

export interface TokenCredentials {
  refreshToken: string;
  clientSecret: string;
}

export interface TokenManagerOptions {
  refreshTokenId: string;
  accountsUrl: string;
  clientId: string;
  /** For messages: the profile's name, the data center. */
  context: OAuthErrorContext;
  /** Read from the keychain when a refresh is needed (never kept longer than the call). */
  credentials(): Promise<TokenCredentials>;
  ledger: AccessTokenLedger;
  clock?: TokenClock;
  endpoint?: TokenEndpointOptions;
  /** The access token the code exchange returned, so the first call needs no refresh. */
  initial?: { accessToken: string; expiresAt: number };
  /** The refresh token was refused: the account is signed out (`message` is for the user). */
  onRefreshTokenRefused(message: string): void;
  /** A token was issued or a wait began or ended: the account page's status changed. */
  onStatusChange?(): void;
  /** A refresh issued a new access token (for the event router's authentication activity). */
  onRefreshed?(expiresAt: number): void;
}

export interface TokenStatus {
  /** Epoch ms the current access token expires, or null when none is held. */
  validUntil: number | null;
  /** Access tokens asked for from this refresh token in the last 10 minutes. */
  refreshesInWindow: number;
  /** When the ledger lets the next refresh go, while one is waiting. */
  waitingUntil: number | null;
}

/** The account was signed out: its refresh token is refused. `message` is for the user. */
export class SignedOutError extends Error {
  override name = 'SignedOutError';
}

export class TokenManager implements TokenProvider {
  private held: { token: string; expiresAt: number; lifetimeMs: number } | null = null;
  private inflight: Promise<string> | null = null;
  private signedOut: string | null = null;
  private waitingUntil: number | null = null;
  private readonly clock: TokenClock;
  private readonly closed = new AbortController();

  constructor(private readonly options: TokenManagerOptions) {
    this.clock = options.clock ?? realClock;
    if (options.initial) {
      const lifetimeMs = options.initial.expiresAt - this.clock.now();
      this.held = {
        token: options.initial.accessToken,
        expiresAt: options.initial.expiresAt,
        lifetimeMs,
      };
    }
  }

  async accessToken(): Promise<string> {
    if (this.signedOut !== null) throw new SignedOutError(this.signedOut);
    if (this.held && this.fresh(this.held)) return this.held.token;
    return this.renew();
  }

  async refresh(rejected: string): Promise<string> {
    if (this.signedOut !== null) throw new SignedOutError(this.signedOut);
    // Another caller's refresh already replaced the refused token.
    if (this.held && this.held.token !== rejected && this.fresh(this.held)) {
      return this.held.token;
    }
    if (this.inflight) return this.inflight;
    if (this.held?.token === rejected) this.held = null;
    return this.renew();
  }

  /** The access token held now, to hand over to another manager of the same grant. */
  current(): { accessToken: string; expiresAt: number } | null {
    return this.held ? { accessToken: this.held.token, expiresAt: this.held.expiresAt } : null;
  }

  status(): TokenStatus {
    const now = this.clock.now();
    return {
      validUntil: this.held && this.held.expiresAt > now ? this.held.expiresAt : null,
      refreshesInWindow: tokensInWindow(
        this.options.ledger.issuedAt(this.options.refreshTokenId, now),
        now,
      ),
      waitingUntil: this.waitingUntil,
    };
  }

  /** Stops any wait; later calls fail. */
  close(): void {
    this.signedOut ??= 'PortalDesk is closing.';
    this.closed.abort(new SignedOutError(this.signedOut));
  }

  private fresh(token: { expiresAt: number; lifetimeMs: number }): boolean {
    const margin = Math.min(REFRESH_MARGIN_MS, token.lifetimeMs / 10);
    return this.clock.now() < token.expiresAt - margin;
  }

  private renew(): Promise<string> {
    this.inflight ??= this.doRenew().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async doRenew(): Promise<string> {
    const { ledger, refreshTokenId } = this.options;
    for (;;) {
      const now = this.clock.now();
      const allowance = accessTokenAllowance(ledger.issuedAt(refreshTokenId, now), now);
      if (allowance.allowed) break;
      this.waitingUntil = now + allowance.waitMs;
      this.options.onStatusChange?.();
      try {
        await this.clock.sleep(allowance.waitMs, this.closed.signal);
      } finally {
        this.waitingUntil = null;
      }
    }
    if (this.signedOut !== null) throw new SignedOutError(this.signedOut);
    const credentials = await this.options.credentials();

    const askedAt = this.clock.now();
    const entry = ledger.record(refreshTokenId, askedAt);
    try {
      const issued = await refreshAccessToken(
        {
          accountsUrl: this.options.accountsUrl,
          clientId: this.options.clientId,
          clientSecret: credentials.clientSecret,
          refreshToken: credentials.refreshToken,
        },
        { ...this.options.context, during: 'renewing access' },
        this.options.endpoint,
      );
      ledger.settle(entry, this.clock.now());
      this.held = {
        token: issued.accessToken,
        expiresAt: askedAt + issued.lifetimeMs,
        lifetimeMs: issued.lifetimeMs,
      };
      this.options.onStatusChange?.();
      this.options.onRefreshed?.(this.held.expiresAt);
      return issued.accessToken;
    } catch (error) {
      // A refusal issued no token; a lost answer may have, as late as now, so it stays counted.
      if (error instanceof OAuthError && error.code !== 'network' && error.code !== 'bad_reply') {
        ledger.unrecord(entry);
      } else {
        ledger.settle(entry, this.clock.now());
      }
      if (error instanceof OAuthError && error.code === 'invalid_code') {
        const message = `${this.options.context.profileName} no longer accepts this account's sign-in (its refresh token was revoked, replaced or expired), so it is signed out. All local data and queued edits are kept; sign in again to sync them.`;
        this.signedOut = message;
        this.held = null;
        this.options.onRefreshTokenRefused(message);
        throw new SignedOutError(message);
      }
      throw error;
    }
  }
}
