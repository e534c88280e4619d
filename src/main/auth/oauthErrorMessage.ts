/**
 * Every OAuth error of the spec ("OAuth errors": the accounts page's ERROR_… codes and the token
 * endpoint's answers), the redirect's `access_denied`, and RFC 6749's names the service may use
 * where the spec has none, each as a message that says what happened and what to fix. Pure.
 */

export interface OAuthErrorContext {
  /** e.g. "PortalDesk demo portal". */
  profileName: string;
  /** The data center key (`us`, `eu`, …) the request went to, if known. */
  dataCenter?: string;
  clientId?: string;
  redirectUri?: string;
  /** What was being done, for the unknown-code message: "the sign-in", "renewing access". */
  during?: string;
}

/** The spec's errors, and those the app meets besides (RFC 6749 names, the redirect's own). */
export const OAUTH_ERROR_CODES = [
  'ERROR_invalid_response_type',
  'ERROR_invalid_client',
  'ERROR_invalid_redirect_uri',
  'ERROR_invalid_scope',
  'invalid_client',
  'invalid_code',
  'invalid_redirect_uri',
  'access_denied',
  'temporarily_unavailable',
  'invalid_request',
  'invalid_scope',
  'unsupported_grant_type',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

const NOTHING_STORED = 'Nothing was stored.';

export function oauthErrorMessage(code: string, context: OAuthErrorContext): string {
  const where = context.dataCenter
    ? `${context.profileName} (data center ${context.dataCenter.toUpperCase()})`
    : context.profileName;
  const client = context.clientId ? `"${context.clientId}"` : 'this client';
  const redirect = context.redirectUri ? `"${context.redirectUri}"` : 'the one you entered';
  switch (code as OAuthErrorCode) {
    case 'ERROR_invalid_response_type':
      return `${where} refused the sign-in request as malformed (ERROR_invalid_response_type: a mandatory parameter is missing). ${NOTHING_STORED} Check that the scopes are not empty, then try again; if it persists, the service profile's accounts address may be wrong.`;
    case 'ERROR_invalid_client':
      return `${where} does not know the client id ${client} (ERROR_invalid_client). ${NOTHING_STORED} Copy the client id again from the developer console, and make sure the client is registered in this data center.`;
    case 'ERROR_invalid_redirect_uri':
      return `The redirect URI registered for client ${client} is not ${redirect} (ERROR_invalid_redirect_uri). ${NOTHING_STORED} Enter exactly the redirect URI shown in the developer console, or add ${redirect} to the client's authorized redirect URIs.`;
    case 'ERROR_invalid_scope':
    case 'invalid_scope':
      return `${where} does not accept one of the scopes asked for (${code}). ${NOTHING_STORED} Enter a valid scope: service.name.OPERATION, comma-separated, for example PMS.portals.READ.`;
    case 'invalid_client':
      return `${where} refused client ${client} or its secret (invalid_client). ${NOTHING_STORED} Check the client secret; if the client is registered in another data center, enable Multi-DC for it in the developer console and enter the secret of this data center.`;
    case 'invalid_code':
      return `The grant code was refused (invalid_code): it expired (codes live 2 minutes), was already used, or belongs to another client. ${NOTHING_STORED} Sign in again, or generate a new Self Client code and paste it within its validity.`;
    case 'invalid_redirect_uri':
      return `The token request's redirect URI ${redirect} differs from the one registered for client ${client} (invalid_redirect_uri). ${NOTHING_STORED} Enter exactly the redirect URI registered in the developer console.`;
    case 'access_denied':
      return `The sign-in was rejected in the browser (access_denied). ${NOTHING_STORED} Start again and choose Accept to let PortalDesk read and change your portals.`;
    case 'temporarily_unavailable':
      return `${where} is not issuing sign-in codes right now (temporarily_unavailable; at most 10 codes per client in 10 minutes). ${NOTHING_STORED} Wait a few minutes and sign in again.`;
    case 'invalid_request':
      return `${where} found the token request malformed (invalid_request). ${NOTHING_STORED} This is a PortalDesk or service-profile problem: check the profile's accounts address, and report it if it persists.`;
    case 'unsupported_grant_type':
      return `${where} does not support this kind of token request (unsupported_grant_type). ${NOTHING_STORED} Check that the service profile points at the right accounts server.`;
    default:
      return `${where} answered ${context.during ?? 'the sign-in'} with the error "${code}". ${NOTHING_STORED} Try again; if it persists, check the client registration in the developer console.`;
  }
}

/**
 * Which argument of a sign-in an OAuth error is about (pure), so a form shows it beside that
 * control: the grant code, the client id or secret, the redirect URI or the scopes. Undefined for
 * the rest (the request as a whole, the service, the user's answer in the browser).
 */
export function oauthErrorField(code: string): string | undefined {
  switch (code as OAuthErrorCode) {
    case 'invalid_code':
      return 'code';
    case 'ERROR_invalid_client':
      return 'clientId';
    case 'invalid_client':
      // "refused client … or its secret": the secret is what is usually wrong.
      return 'clientSecret';
    case 'ERROR_invalid_redirect_uri':
    case 'invalid_redirect_uri':
      return 'redirectUri';
    case 'ERROR_invalid_scope':
    case 'invalid_scope':
      return 'scopes';
    default:
      return undefined;
  }
}
