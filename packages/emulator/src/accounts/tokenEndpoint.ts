/**
 * `POST /oauth/v2/token` and `POST /oauth/v2/token/revoke`. Failures are `{"error": "..."}` with
 * HTTP 200, as the real service is reported to answer. Names from the spec's "OAuth errors":
 * invalid_client, invalid_code, invalid_redirect_uri; the spec has no name for a malformed request
 * or an unknown grant type, so those use RFC 6749's invalid_request, unsupported_grant_type and
 * invalid_scope.
 */
import type { ApiReply, ApiRequest } from '../http/types';
import { scopeCovers } from '../http/scopes';
import type { EmulatorState } from '../state';
import { checkScopes } from './authRequest';
import { clientMayGenerateAt, findClient, homeDataCenter, type OAuthClient } from './clients';
import { accessTokenTtlMs, pkceMatches, reportedLifetime } from './tokenRules';
import {
  findGrant,
  findRefreshToken,
  redeemGrant,
  refreshAccess,
  revokeRefreshToken,
} from './tokenStore';

export type TokenError =
  | 'invalid_client'
  | 'invalid_code'
  | 'invalid_redirect_uri'
  | 'invalid_request'
  | 'invalid_scope'
  | 'unsupported_grant_type';

class TokenFailure extends Error {
  constructor(readonly error: TokenError) {
    super(error);
  }
}

const failure = (error: TokenError): ApiReply => ({ status: 200, body: { error } });

/** What a client is told about a new access token's lifetime (real seconds and milliseconds). */
const accessTokenLifetime = (state: EmulatorState) =>
  reportedLifetime(
    accessTokenTtlMs(state.clock.scale, state.config.unscaledTokenLifetime),
    state.clock.scale,
  );

function param(params: URLSearchParams, name: string): string | null {
  const value = params.get(name);
  return value === null || value === '' ? null : value;
}

/**
 * invalid_client: unknown client id, wrong secret, a data center the client is not enabled in
 * (no Multi-DC), or another data center's secret under Multi-DC.
 */
function checkClient(
  state: EmulatorState,
  request: ApiRequest,
  params: URLSearchParams,
): OAuthClient {
  const client = findClient(state, param(params, 'client_id'));
  if (!client) throw new TokenFailure('invalid_client');
  const secret = param(params, 'client_secret');
  if (!clientMayGenerateAt(client, request.dc, homeDataCenter(state), secret)) {
    throw new TokenFailure('invalid_client');
  }
  return client;
}

function apiDomain(state: EmulatorState, dc: string): string {
  return state.addresses[dc]?.api ?? '';
}

/**
 * grant_type=authorization_code, parameters as form data (spec "Flow" 3). A code issued for
 * another data center (the user's) is refused here with invalid_client: the spec files
 * "data-center mismatch between registration and token generation" under it.
 */
function exchangeCode(state: EmulatorState, request: ApiRequest, form: URLSearchParams): ApiReply {
  const client = checkClient(state, request, form);
  const code = param(form, 'code');
  const grant = code === null ? null : findGrant(state, code);
  if (
    !grant ||
    grant.used === 1 ||
    grant.expires_ms <= state.clock.now() ||
    grant.client_id !== client.clientId
  ) {
    throw new TokenFailure('invalid_code');
  }
  if (grant.dc !== request.dc) throw new TokenFailure('invalid_client');
  // Self Client grants carry no redirect_uri and are exchanged without one.
  if (grant.redirect_uri !== null && param(form, 'redirect_uri') !== client.redirectUri) {
    throw new TokenFailure('invalid_redirect_uri');
  }
  const verifier = param(form, 'code_verifier');
  if (grant.code_challenge !== null) {
    if (verifier === null || !pkceMatches(verifier, grant.code_challenge)) {
      throw new TokenFailure('invalid_code');
    }
  } else if (verifier !== null) {
    // A verifier without a challenge is a downgraded PKCE flow (RFC 9700 2.1.1): refused.
    throw new TokenFailure('invalid_code');
  }

  const issued = redeemGrant(state, grant);
  const lifetime = accessTokenLifetime(state);
  return {
    body: {
      access_token: issued.accessToken,
      ...(issued.refreshToken !== null ? { refresh_token: issued.refreshToken } : {}),
      expires_in_sec: lifetime.seconds,
      scope: grant.scopes,
      api_domain: apiDomain(state, grant.dc),
      token_type: 'Bearer',
      // "expires_in: 3600000 in the authorization-code response" (milliseconds).
      expires_in: lifetime.ms,
    },
  };
}

/**
 * grant_type=refresh_token, parameters in the query string (spec "Flow" 5). The optional scope
 * may narrow the new token's scopes, never widen them; a redirect_uri, if sent, must be the
 * registered one. Response fields exactly as step 5 lists them.
 */
function refreshToken(state: EmulatorState, request: ApiRequest, query: URLSearchParams): ApiReply {
  const client = checkClient(state, request, query);
  const token = param(query, 'refresh_token');
  const refresh = token === null ? null : findRefreshToken(state, token);
  if (!refresh || refresh.revoked === 1 || refresh.client_id !== client.clientId) {
    throw new TokenFailure('invalid_code');
  }
  // "Refresh tokens are organization-specific": usable only at their own data center.
  if (refresh.dc !== request.dc) throw new TokenFailure('invalid_client');
  const redirectUri = param(query, 'redirect_uri');
  if (redirectUri !== null && redirectUri !== client.redirectUri) {
    throw new TokenFailure('invalid_redirect_uri');
  }
  const granted = refresh.scopes.split(' ');
  let scopes = granted;
  const scopeText = param(query, 'scope');
  if (scopeText !== null) {
    const asked = checkScopes(scopeText);
    if ('invalid' in asked) throw new TokenFailure('invalid_scope');
    if (!asked.scopes.every((scope) => granted.some((have) => scopeCovers(have, scope)))) {
      throw new TokenFailure('invalid_scope');
    }
    scopes = asked.scopes;
  }

  const issued = refreshAccess(state, refresh, scopes);
  return {
    body: {
      access_token: issued.token,
      scope: scopes.join(' '),
      token_type: 'Bearer',
      // "expires_in: ... 3600 in the refresh response" (seconds).
      expires_in: accessTokenLifetime(state).seconds,
    },
  };
}

/** The form's parameters with the query's over them: where both name one, the query wins. */
function withQuery(form: URLSearchParams, query: URLSearchParams): URLSearchParams {
  const merged = new URLSearchParams(form);
  for (const key of new Set(query.keys())) merged.set(key, query.get(key) ?? '');
  return merged;
}

/**
 * Each grant type reads its parameters from where the spec puts them: the code exchange from the
 * form body, the refresh from the query string, or (unless `strictOAuthPlacement`) from the form
 * body as standard clients send it, the query winning where both name a parameter. A code
 * exchange in the query is refused with invalid_request.
 */
export function tokenEndpoint(state: EmulatorState, request: ApiRequest): ApiReply {
  try {
    const query = request.query;
    const form = request.form();
    const fromQuery = param(query, 'grant_type');
    const fromForm = param(form, 'grant_type');
    const strict = state.config.strictOAuthPlacement;
    if (fromQuery === 'refresh_token') {
      return refreshToken(state, request, strict ? query : withQuery(form, query));
    }
    // Standard OAuth clients send a refresh's parameters in the body; the spec shows the query.
    if (fromForm === 'refresh_token' && !strict) {
      return refreshToken(state, request, withQuery(form, query));
    }
    if (fromForm === 'authorization_code') return exchangeCode(state, request, form);
    const grantType = fromQuery ?? fromForm;
    if (grantType === null || grantType === 'refresh_token' || grantType === 'authorization_code') {
      return failure('invalid_request');
    }
    return failure('unsupported_grant_type');
  } catch (error) {
    if (error instanceof TokenFailure) return failure(error.error);
    throw error;
  }
}

/**
 * `POST /oauth/v2/token/revoke?token=<REFRESH_TOKEN>`: "affects only that organization's token",
 * so a token of another data center, an access token or an unknown one is invalid_code and
 * nothing changes.
 */
export function revokeEndpoint(state: EmulatorState, request: ApiRequest): ApiReply {
  const token = param(request.query, 'token');
  const refresh = token === null ? null : findRefreshToken(state, token);
  if (!refresh || refresh.revoked === 1 || refresh.dc !== request.dc) {
    return failure('invalid_code');
  }
  revokeRefreshToken(state, refresh.token);
  return { body: { status: 'success' } };
}
