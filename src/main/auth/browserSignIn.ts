/**
 * The authorization-code flow for a native app (RFC 8252): listen on the registered loopback
 * redirect, open the system browser at `{accounts}/oauth/v2/auth` with PKCE S256 and `state`,
 * wait for the answer, and exchange the code at the accounts server the answer names.
 */
import { randomBytes } from 'node:crypto';
import { accountsUrl, type ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { authorizationUrl } from './authorizationUrl';
import { exchangeTarget } from './exchangeTarget';
import { listenForRedirect } from './loopbackListener';
import { parseLoopbackRedirectUri } from './loopbackRedirectUri';
import { OAuthError } from './oauthError';
import { oauthErrorMessage, type OAuthErrorContext } from './oauthErrorMessage';
import { SIGN_IN_TIMEOUT_MS } from './oauthLimits';
import { createPkce } from './pkce';
import { exchangeCode, type ExchangedTokens, type TokenEndpointOptions } from './tokenEndpoint';

export interface BrowserSignInOptions {
  profile: ServiceProfile;
  /** The data center the user picked: its accounts server shows the sign-in page. */
  dataCenter: string;
  clientId: string;
  /** The client secret for a data center (Multi-DC: one per data center), or null if unknown. */
  clientSecretFor(dataCenter: string): string | null;
  redirectUri: string;
  scopes: readonly string[];
  /** Opens the system browser (Electron's shell.openExternal; web mode: the OS browser). */
  openExternal(url: string): unknown;
  /** Told the address once the listener is up, so the UI can offer "open it again". */
  onWaiting?(authUrl: string, deadline: number): void;
  signal?: AbortSignal;
  timeoutMs?: number;
  now?: () => number;
  endpoint?: TokenEndpointOptions;
}

export interface SignInResult {
  tokens: ExchangedTokens & { refreshToken: string };
  dataCenter: string;
  accountsUrl: string;
  /** When the exchange was sent: the access token's lifetime counts from then. */
  sentAt: number;
  /** When its answer came: the token counts against the refresh token's window until then + 10 min. */
  answeredAt: number;
}

/** A refusal the user can act on; nothing was stored. */
export class SignInError extends Error {
  override name = 'SignInError';
}

function describeDuration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`;
}

export async function browserSignIn(options: BrowserSignInOptions): Promise<SignInResult> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  const context: OAuthErrorContext = {
    profileName: options.profile.name,
    dataCenter: options.dataCenter,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
  };
  const redirect = parseLoopbackRedirectUri(options.redirectUri);
  if (!redirect.ok) throw new SignInError(redirect.error);
  const accounts = accountsUrl(options.profile, options.dataCenter);
  if (!accounts) {
    throw new SignInError(
      `Data center ${options.dataCenter.toUpperCase()} of ${options.profile.name} serves the API only and has no sign-in page. Pick the data center where your account was created.`,
    );
  }

  const pkce = createPkce();
  const state = randomBytes(16).toString('base64url');
  const pending = await listenForRedirect({
    redirect: redirect.redirect,
    state,
    timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const url = authorizationUrl({
    accountsUrl: accounts,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
    scopes: options.scopes,
    state,
    codeChallenge: pkce.challenge,
  });
  options.onWaiting?.(url, now() + timeoutMs);
  try {
    await options.openExternal(url);
  } catch {
    // The UI shows the address with "open the sign-in page", so the user can still go on.
  }

  const outcome = await pending.outcome;
  switch (outcome.kind) {
    case 'cancelled':
      throw new SignInError('The sign-in was cancelled; nothing was stored.');
    case 'timeout':
      throw new SignInError(
        `No answer came back from the browser within ${describeDuration(timeoutMs)}, so the sign-in was stopped and nothing was stored.${outcome.ignored > 0 ? ` ${outcome.ignored} answer(s) belonging to an older sign-in were ignored.` : ''} If the browser showed an error page, its ERROR_… code says what to fix; otherwise start the sign-in again and finish it in the browser.`,
      );
    case 'malformed':
      throw new SignInError(
        'The browser came back without a code or an error, so nothing was stored. Start the sign-in again.',
      );
    case 'error':
      throw new OAuthError(outcome.error, oauthErrorMessage(outcome.error, context));
    case 'code':
      break;
  }

  const target = exchangeTarget(options.profile, outcome, options.dataCenter);
  if (!target.ok) throw new SignInError(target.error);
  const secret = options.clientSecretFor(target.dataCenter);
  if (secret === null) {
    throw new SignInError(
      `Your account lives in data center ${target.dataCenter.toUpperCase()}, and with Multi-DC each data center has its own client secret. Nothing was stored: enter the client secret for ${target.dataCenter.toUpperCase()} from the developer console and sign in again.`,
    );
  }
  const sentAt = now();
  const tokens = await exchangeCode(
    {
      accountsUrl: target.accountsUrl,
      clientId: options.clientId,
      clientSecret: secret,
      code: outcome.code,
      redirectUri: options.redirectUri,
      codeVerifier: pkce.verifier,
    },
    { ...context, dataCenter: target.dataCenter },
    options.endpoint,
  );
  if (tokens.refreshToken === null) {
    throw new SignInError(
      `${options.profile.name} signed you in without a refresh token, so PortalDesk could not stay signed in; nothing was stored. Sign in again; if it persists, the client may not be allowed offline access.`,
    );
  }
  return {
    tokens: { ...tokens, refreshToken: tokens.refreshToken },
    dataCenter: target.dataCenter,
    accountsUrl: target.accountsUrl,
    sentAt,
    answeredAt: now(),
  };
}
