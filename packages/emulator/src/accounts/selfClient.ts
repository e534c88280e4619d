/**
 * The developer console's Self Client, as an admin route: "a grant token is generated ... by
 * entering comma-separated scopes, a validity duration and a description; invalid scopes yield an
 * 'Enter a valid scope' error". The code is exchanged like any other, without a redirect_uri, and
 * always yields a refresh token (a self client is a server-side client).
 */
import { bodyObject, text } from '../api/common';
import { ApiError, apiErrors } from '../http/apiError';
import type { Route } from '../http/types';
import { checkScopes } from './authRequest';
import { findClient, homeDataCenter } from './clients';
import {
  GRANTS_PER_WINDOW,
  reportedLifetime,
  SELF_CLIENT_DEFAULT_MINUTES,
  SELF_CLIENT_VALIDITY_MINUTES,
} from './tokenRules';
import { demoUser, findUserByEmail, issueGrant } from './tokenStore';

/** The console's description box; its limit is not shown in the spec, so ours is 250. */
const DESCRIPTION_MAX = 250;

export const selfClientRoute: Route = {
  method: 'POST',
  template: '/__emulator/self-client',
  kind: 'admin',
  handle: (request, state) => {
    const body = bodyObject(request);
    const scopes = typeof body.scopes === 'string' ? checkScopes(body.scopes) : null;
    if (!scopes || 'invalid' in scopes) throw apiErrors.invalidParameter('Enter a valid scope');

    let user = demoUser(state, homeDataCenter(state));
    const email = text(body, 'email', 200);
    if (email !== undefined) {
      const found = findUserByEmail(state, email);
      if (!found) throw apiErrors.invalidParameter(`email: no user has the address "${email}".`);
      if (found.status !== 'active') {
        throw apiErrors.invalidParameter(`email: the user "${email}" is ${found.status}.`);
      }
      user = found;
    }

    const minutes = body.validity_minutes ?? SELF_CLIENT_DEFAULT_MINUTES;
    if (!SELF_CLIENT_VALIDITY_MINUTES.some((allowed) => allowed === minutes)) {
      throw apiErrors.invalidParameter(
        `validity_minutes must be one of ${SELF_CLIENT_VALIDITY_MINUTES.join(', ')}.`,
      );
    }
    text(body, 'description', DESCRIPTION_MAX);

    const clientId = text(body, 'client_id', 200) ?? state.config.client.clientId;
    if (!findClient(state, clientId)) {
      throw apiErrors.invalidParameter(`client_id: no client is registered as "${clientId}".`);
    }

    const ttlMs = (minutes as number) * 60_000;
    const issued = issueGrant(state, {
      clientId,
      zpuid: user.zpuid,
      dc: user.dc,
      scopes: scopes.scopes,
      redirectUri: null,
      accessType: 'offline',
      codeChallenge: null,
      ttlMs,
    });
    if ('refused' in issued) {
      const seconds = state.clock.toRealSeconds(issued.retryAfterMs);
      throw new ApiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        `At most ${GRANTS_PER_WINDOW} grant tokens per 10 minutes per client id; try again in ${seconds} s.`,
        { 'Retry-After': String(seconds) },
      );
    }
    return {
      body: {
        code: issued.code,
        expires_in_sec: reportedLifetime(ttlMs, state.clock.scale).seconds,
        location: user.dc,
        accounts_server: state.addresses[user.dc]?.accounts ?? '',
      },
    };
  },
};
