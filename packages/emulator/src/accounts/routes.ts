/**
 * The accounts server of each data center (not the API-only ones): the authorization page with
 * its consent form, the token endpoint, revocation, and the Self Client admin route.
 */
import { apiErrors } from '../http/apiError';
import type { ApiReply, ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import { checkAuthRequest, redirectTo, type AuthRequest } from './authRequest';
import { findClient, homeDataCenter } from './clients';
import { CONSENT_PATH, consentPage, errorPage, redirect } from './pages';
import { selfClientRoute } from './selfClient';
import { revokeEndpoint, tokenEndpoint } from './tokenEndpoint';
import { GRANT_TTL_MS } from './tokenRules';
import { demoUser, findUserByEmail, issueGrant, type UserRow } from './tokenStore';

/** UAE and SG are "API only": their servers have no /oauth paths. */
function requireAccountsServer(state: EmulatorState, request: ApiRequest): void {
  if (!state.addresses[request.dc]?.accounts) throw apiErrors.urlRuleNotConfigured(request.path);
}

function checked(state: EmulatorState, params: URLSearchParams) {
  return checkAuthRequest(params, findClient(state, params.get('client_id')));
}

/**
 * Issues the grant for the user's own data center and sends the browser back: "the redirect
 * carries code, location (user's data center) and accounts-server". Past the grant limit the
 * (already verified) redirect_uri gets RFC 6749's `temporarily_unavailable`: the spec names no
 * error for it, and a redirect lets the waiting app finish instead of hanging.
 */
function approve(state: EmulatorState, request: AuthRequest, user: UserRow): ApiReply {
  const issued = issueGrant(state, {
    clientId: request.clientId,
    zpuid: user.zpuid,
    dc: user.dc,
    scopes: request.scopes,
    redirectUri: request.redirectUri,
    accessType: request.accessType,
    codeChallenge: request.codeChallenge,
    ttlMs: GRANT_TTL_MS,
  });
  if ('refused' in issued) {
    return redirect(
      redirectTo(request.redirectUri, { error: 'temporarily_unavailable', state: request.state }),
    );
  }
  return redirect(
    redirectTo(request.redirectUri, {
      code: issued.code,
      location: user.dc,
      'accounts-server': state.addresses[user.dc]?.accounts ?? '',
      state: request.state,
    }),
  );
}

/** --auto-approve signs in as the demo user, or as the active seeded user a login_hint names. */
function autoApproveUser(state: EmulatorState, request: AuthRequest): UserRow {
  const hinted = findUserByEmail(state, request.loginHint);
  if (hinted && hinted.status === 'active') return hinted;
  return demoUser(state, homeDataCenter(state));
}

const authorize: Route = {
  method: 'GET',
  template: '/oauth/v2/auth',
  kind: 'accounts',
  handle: (request, state) => {
    requireAccountsServer(state, request);
    const check = checked(state, request.query);
    if (!check.ok) return errorPage(check.error, check.detail);
    if (state.config.autoApprove)
      return approve(state, check.request, autoApproveUser(state, check.request));
    const client = findClient(state, check.request.clientId);
    return consentPage({
      request: check.request,
      clientName: client?.name ?? check.request.clientId,
      email: check.request.loginHint ?? '',
    });
  },
};

/** The consent form's answer. The request is checked again: hidden fields can be edited. */
const consent: Route = {
  method: 'POST',
  template: CONSENT_PATH,
  kind: 'accounts',
  handle: (request, state) => {
    requireAccountsServer(state, request);
    const form = request.form();
    const check = checked(state, form);
    if (!check.ok) return errorPage(check.error, check.detail);
    const auth = check.request;
    const decision = form.get('decision');
    if (decision === 'reject') {
      return redirect(redirectTo(auth.redirectUri, { error: 'access_denied', state: auth.state }));
    }
    const email = form.get('email') ?? '';
    const view = {
      request: auth,
      clientName: findClient(state, auth.clientId)?.name ?? auth.clientId,
      email,
    };
    if (decision !== 'accept') {
      return consentPage({ ...view, error: 'Choose Accept or Reject.' }, 400);
    }
    const user = findUserByEmail(state, email);
    if (!user || user.password !== (form.get('password') ?? '')) {
      return consentPage({ ...view, error: 'Wrong email or password.' }, 401);
    }
    if (user.status !== 'active') {
      return consentPage({ ...view, error: `This account is ${user.status}.` }, 401);
    }
    return approve(state, auth, user);
  },
};

export const accountsRoutes: Route[] = [
  authorize,
  consent,
  {
    method: 'POST',
    template: '/oauth/v2/token',
    kind: 'accounts',
    handle: (request, state) => {
      requireAccountsServer(state, request);
      return tokenEndpoint(state, request);
    },
  },
  {
    method: 'POST',
    template: '/oauth/v2/token/revoke',
    kind: 'accounts',
    handle: (request, state) => {
      requireAccountsServer(state, request);
      return revokeEndpoint(state, request);
    },
  },
  selfClientRoute,
];
