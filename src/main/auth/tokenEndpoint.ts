/**
 * The accounts server's token endpoints (spec "Flow" 3, 5, 6). Parameter placement is the spec's
 * quirk: the code exchange sends form data, the refresh sends the query string, the revoke sends
 * `?token=`. Errors arrive with HTTP 200 as `{"error": "..."}`, so every reply body is read.
 */
import { z } from 'zod';
import { OAuthError } from './oauthError';
import { oauthErrorMessage, type OAuthErrorContext } from './oauthErrorMessage';
import { DEFAULT_ACCESS_TOKEN_LIFETIME_MS, TOKEN_REQUEST_TIMEOUT_MS } from './oauthLimits';

export interface TokenEndpointOptions {
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

export interface IssuedAccessToken {
  accessToken: string;
  /** How long the token lives, as the service said (ms). */
  lifetimeMs: number;
  scopes: string[];
}

export interface ExchangedTokens extends IssuedAccessToken {
  refreshToken: string | null;
  /** Where the API of this user is: "use api_domain from the token response". */
  apiDomain: string | null;
}

const ErrorReply = z.object({ error: z.string().min(1) });

const ExchangeReply = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in_sec: z.number().positive().optional(),
  /** "3600000 in the authorization-code response" (milliseconds). */
  expires_in: z.number().positive().optional(),
  scope: z.string().optional(),
  api_domain: z.string().optional(),
  token_type: z.string().optional(),
});

const RefreshReply = z.object({
  access_token: z.string().min(1),
  expires_in_sec: z.number().positive().optional(),
  /** "3600 in the refresh response" (seconds). */
  expires_in: z.number().positive().optional(),
  scope: z.string().optional(),
});

/** "scope (string, space-separated scopes)"; commas tolerated. */
function splitScopes(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).filter((scope) => scope !== '');
}

async function post(
  url: string,
  init: { body?: URLSearchParams },
  context: OAuthErrorContext,
  options: TokenEndpointOptions,
): Promise<unknown> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const origin = new URL(url).origin;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      ...(init.body ? { body: init.body } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? TOKEN_REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new OAuthError(
      'network',
      `Could not reach the accounts server ${origin} during ${context.during ?? 'the sign-in'} (${detail}). Nothing was changed; check the network connection and try again.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OAuthError(
      'bad_reply',
      `The accounts server ${origin} answered ${context.during ?? 'the sign-in'} with HTTP ${response.status} and no JSON. Nothing was changed; check the service profile's accounts address.`,
    );
  }
  const refused = ErrorReply.safeParse(body);
  if (refused.success) {
    throw new OAuthError(refused.data.error, oauthErrorMessage(refused.data.error, context));
  }
  if (!response.ok) {
    throw new OAuthError(
      'bad_reply',
      `The accounts server ${origin} answered ${context.during ?? 'the sign-in'} with HTTP ${response.status}. Nothing was changed; try again later.`,
    );
  }
  return body;
}

function badReply(context: OAuthErrorContext, what: string): OAuthError {
  return new OAuthError(
    'bad_reply',
    `The accounts server's answer to ${context.during ?? 'the sign-in'} had no usable ${what}. Nothing was stored; check that the service profile points at the right accounts server.`,
  );
}

/** grant_type=authorization_code, as form data. `redirectUri` is left out for Self Client codes. */
export async function exchangeCode(
  request: {
    accountsUrl: string;
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string | null;
    codeVerifier: string | null;
  },
  context: OAuthErrorContext,
  options: TokenEndpointOptions = {},
): Promise<ExchangedTokens> {
  const form = new URLSearchParams({
    code: request.code,
    client_id: request.clientId,
    client_secret: request.clientSecret,
    grant_type: 'authorization_code',
  });
  if (request.redirectUri !== null) form.set('redirect_uri', request.redirectUri);
  if (request.codeVerifier !== null) form.set('code_verifier', request.codeVerifier);
  const body = await post(
    `${request.accountsUrl}/oauth/v2/token`,
    { body: form },
    context,
    options,
  );
  const reply = ExchangeReply.safeParse(body);
  if (!reply.success) throw badReply(context, 'access token');
  const data = reply.data;
  const lifetimeMs =
    data.expires_in_sec !== undefined
      ? data.expires_in_sec * 1000
      : (data.expires_in ?? DEFAULT_ACCESS_TOKEN_LIFETIME_MS);
  return {
    accessToken: data.access_token,
    refreshToken: data.refresh_token ?? null,
    lifetimeMs,
    scopes: splitScopes(data.scope),
    apiDomain: data.api_domain ?? null,
  };
}

/** grant_type=refresh_token, in the query string (the spec's quirk). */
export async function refreshAccessToken(
  request: { accountsUrl: string; clientId: string; clientSecret: string; refreshToken: string },
  context: OAuthErrorContext,
  options: TokenEndpointOptions = {},
): Promise<IssuedAccessToken> {
  const url = new URL(`${request.accountsUrl}/oauth/v2/token`);
  url.searchParams.set('refresh_token', request.refreshToken);
  url.searchParams.set('client_id', request.clientId);
  url.searchParams.set('client_secret', request.clientSecret);
  url.searchParams.set('grant_type', 'refresh_token');
  const body = await post(url.toString(), {}, context, options);
  const reply = RefreshReply.safeParse(body);
  if (!reply.success) throw badReply(context, 'access token');
  const data = reply.data;
  const lifetimeMs =
    data.expires_in_sec !== undefined
      ? data.expires_in_sec * 1000
      : data.expires_in !== undefined
        ? data.expires_in * 1000
        : DEFAULT_ACCESS_TOKEN_LIFETIME_MS;
  return { accessToken: data.access_token, lifetimeMs, scopes: splitScopes(data.scope) };
}

/** `POST {accounts_url}/oauth/v2/token/revoke?token=<REFRESH_TOKEN>`. */
export async function revokeRefreshToken(
  request: { accountsUrl: string; refreshToken: string },
  context: OAuthErrorContext,
  options: TokenEndpointOptions = {},
): Promise<void> {
  const url = new URL(`${request.accountsUrl}/oauth/v2/token/revoke`);
  url.searchParams.set('token', request.refreshToken);
  await post(url.toString(), {}, context, options);
}
