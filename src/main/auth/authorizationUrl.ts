import { PKCE_METHOD } from './pkce';

export interface AuthorizationRequest {
  /** `{accounts_url}` of the data center the user picked. */
  accountsUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  codeChallenge: string;
}

/**
 * `{accounts_url}/oauth/v2/auth` with the spec's parameters ("Flow" 1): scopes comma-separated,
 * `access_type=offline` (the only way to get a refresh token), plus PKCE S256 and `state`.
 */
export function authorizationUrl(request: AuthorizationRequest): string {
  const url = new URL(`${request.accountsUrl}/oauth/v2/auth`);
  url.searchParams.set('scope', request.scopes.join(','));
  url.searchParams.set('client_id', request.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  url.searchParams.set('code_challenge', request.codeChallenge);
  url.searchParams.set('code_challenge_method', PKCE_METHOD);
  return url.toString();
}
