import { ApiError, apiErrors } from './apiError';
import type { Caller } from './types';
import { prepared } from '../model/prepared';
import type { EmulatorState } from '../state';

/**
 * "Every request carries the header Authorization: Bearer <ACCESS_TOKEN>. The earlier form of the
 * header used a vendor-named scheme" — accepted as `PMS-oauthtoken <token>`.
 */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const match = /^(?:Bearer|PMS-oauthtoken)\s+(\S+)$/i.exec(header?.trim() ?? '');
  return match?.[1];
}

interface AccessTokenRow {
  zpuid: string;
  client_id: string;
  scopes: string;
  dc: string;
  expires_ms: number;
}

/**
 * A missing header is 401 Unauthorized; a token that is unknown, expired, deleted by the 11th
 * token rule, or from another data center is 400 INVALID_OAUTHTOKEN, as the errorCode table says.
 */
export function authenticate(state: EmulatorState, header: string | undefined, dc: string): Caller {
  const token = tokenFromHeader(header);
  if (!token) {
    throw new ApiError(
      401,
      'INVALID_OAUTHTOKEN',
      'No access token: send Authorization: Bearer <ACCESS_TOKEN>.',
    );
  }
  const row = prepared(
    state.db,
    'SELECT zpuid, client_id, scopes, dc, expires_ms FROM oauth_access_tokens WHERE token = ?',
  ).get(token) as AccessTokenRow | undefined;
  if (!row) throw apiErrors.invalidOauthToken('unknown or revoked token');
  if (row.expires_ms <= state.clock.now()) {
    throw apiErrors.invalidOauthToken('the token has expired');
  }
  if (row.dc !== dc) {
    throw apiErrors.invalidOauthToken(
      `the token was issued in the ${row.dc.toUpperCase()} data center; call that data center's API`,
    );
  }
  return { zpuid: row.zpuid, clientId: row.client_id, scopes: row.scopes.split(' '), dc: row.dc };
}
