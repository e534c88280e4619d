import { ApiError, apiErrors } from './apiError';
import type { Caller } from './types';
import { prepared } from '../model/prepared';
import type { EmulatorState } from '../state';

/**
 * "Every request carries the header Authorization: Bearer <ACCESS_TOKEN>. The earlier form of the
 * header used a vendor-named scheme": accepted as `<word>-oauthtoken <token>` for any vendor word
 * (case-insensitive), since real clients send their own vendor's word. Anything else names its
 * scheme back, so a client sees what it sent wrong.
 */
export type AuthorizationHeader = { token: string } | { scheme: string } | null;

export function readAuthorization(header: string | undefined): AuthorizationHeader {
  const text = header?.trim() ?? '';
  if (text === '') return null;
  const match = /^(bearer|[a-z0-9]+-oauthtoken)\s+(\S+)$/i.exec(text);
  if (match) return { token: match[2]! };
  return { scheme: (text.split(/\s+/)[0] ?? '').slice(0, 40) };
}

export function tokenFromHeader(header: string | undefined): string | undefined {
  const read = readAuthorization(header);
  return read && 'token' in read ? read.token : undefined;
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
  const read = readAuthorization(header);
  if (read === null) {
    throw new ApiError(
      401,
      'INVALID_OAUTHTOKEN',
      'No access token: send Authorization: Bearer <ACCESS_TOKEN>.',
    );
  }
  if (!('token' in read)) {
    throw new ApiError(
      401,
      'INVALID_OAUTHTOKEN',
      `Unsupported authorization scheme "${read.scheme}": send Authorization: Bearer <ACCESS_TOKEN> (or <vendor>-oauthtoken <ACCESS_TOKEN>).`,
    );
  }
  const { token } = read;
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
