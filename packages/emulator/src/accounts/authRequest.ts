/**
 * Validation of an authorization request (`GET /oauth/v2/auth`, and again when the consent form
 * comes back, since its hidden fields are the client's to tamper with). Pure: the caller looks the
 * client up.
 */
import { parseScopeList } from '../http/scopes';
import { isCodeChallenge, PKCE_METHOD } from './tokenRules';
import type { OAuthClient } from './clients';

/** The spec's "OAuth errors" shown on the accounts server's page (never sent to a redirect_uri). */
export type AuthPageError =
  | 'ERROR_invalid_response_type'
  | 'ERROR_invalid_client'
  | 'ERROR_invalid_redirect_uri'
  | 'ERROR_invalid_scope';

export type AccessType = 'online' | 'offline';

export interface AuthRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  accessType: AccessType;
  state: string | null;
  codeChallenge: string | null;
  loginHint: string | null;
}

export type AuthRequestCheck =
  { ok: true; request: AuthRequest } | { ok: false; error: AuthPageError; detail: string };

/** Services whose scopes the emulated API knows: `PMS.*` and the file service's `PMSFiles.*`. */
const KNOWN_SERVICES = new Set(['pms', 'pmsfiles']);

/**
 * A comma-separated scope list ("Multiple scopes are comma-separated in the request"). Invalid:
 * empty, not `service.name.OPERATION`, or a service other than PMS / PMSFiles.
 */
export function checkScopes(text: string | null): { scopes: string[] } | { invalid: string } {
  const { scopes, invalid } = parseScopeList(text ?? '');
  if (scopes.length === 0) return { invalid: '(none)' };
  const bad =
    invalid[0] ??
    scopes.find((scope) => !KNOWN_SERVICES.has(scope.split('.')[0]?.toLowerCase() ?? ''));
  if (bad !== undefined) return { invalid: bad };
  return { scopes: [...new Set(scopes)] };
}

const fail = (error: AuthPageError, detail: string): AuthRequestCheck => ({
  ok: false,
  error,
  detail,
});

/**
 * Checks in the order of the spec's table. "ERROR_invalid_response_type: response_type is not
 * `code`, or mandatory keys missing" also covers a missing scope, an access_type other than
 * online/offline and a malformed PKCE pair (our choice: they are malformed requests too).
 */
export function checkAuthRequest(
  params: URLSearchParams,
  client: OAuthClient | null,
): AuthRequestCheck {
  const get = (name: string) => {
    const value = params.get(name);
    return value === null || value === '' ? null : value;
  };
  const responseType = get('response_type');
  if (responseType !== 'code') {
    return fail(
      'ERROR_invalid_response_type',
      responseType === null
        ? 'response_type is missing; it must be "code".'
        : `response_type must be "code", not "${responseType}".`,
    );
  }
  const clientId = get('client_id');
  if (clientId === null) return fail('ERROR_invalid_client', 'client_id is missing.');
  if (!client || client.clientId !== clientId) {
    return fail('ERROR_invalid_client', `No client is registered with the id "${clientId}".`);
  }
  const redirectUri = get('redirect_uri');
  if (redirectUri !== client.redirectUri) {
    return fail(
      'ERROR_invalid_redirect_uri',
      redirectUri === null
        ? 'redirect_uri is missing.'
        : 'redirect_uri differs from the one registered for this client.',
    );
  }
  const scopeText = get('scope');
  if (scopeText === null) return fail('ERROR_invalid_response_type', 'scope is missing.');
  const accessType = get('access_type') ?? 'online';
  if (accessType !== 'online' && accessType !== 'offline') {
    return fail(
      'ERROR_invalid_response_type',
      `access_type must be "online" or "offline", not "${accessType}".`,
    );
  }
  const codeChallenge = get('code_challenge');
  const method = get('code_challenge_method');
  if (codeChallenge !== null || method !== null) {
    if (method !== PKCE_METHOD) {
      return fail(
        'ERROR_invalid_response_type',
        `code_challenge_method must be "${PKCE_METHOD}", not "${method ?? ''}".`,
      );
    }
    if (codeChallenge === null || !isCodeChallenge(codeChallenge)) {
      return fail(
        'ERROR_invalid_response_type',
        'code_challenge must be the 43-character base64url SHA-256 of the code verifier.',
      );
    }
  }
  const scopes = checkScopes(scopeText);
  if ('invalid' in scopes) {
    return fail('ERROR_invalid_scope', `The scope "${scopes.invalid}" is not valid.`);
  }
  return {
    ok: true,
    request: {
      clientId,
      redirectUri,
      scopes: scopes.scopes,
      accessType,
      state: params.get('state'),
      codeChallenge,
      loginHint: get('login_hint'),
    },
  };
}

/** The fields that carry a checked request through the consent form. */
export function authRequestFields(request: AuthRequest): Record<string, string> {
  const fields: Record<string, string> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scopes.join(','),
    access_type: request.accessType,
  };
  if (request.state !== null) fields.state = request.state;
  if (request.codeChallenge !== null) {
    fields.code_challenge = request.codeChallenge;
    fields.code_challenge_method = PKCE_METHOD;
  }
  return fields;
}

/** The redirect_uri with the given parameters added (any query it already has is kept). */
export function redirectTo(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== null) url.searchParams.set(name, value);
  }
  return url.toString();
}
