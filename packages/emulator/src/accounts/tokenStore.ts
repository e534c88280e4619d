/**
 * Grant codes, refresh tokens and access tokens in the database, under the rules of
 * tokenRules.ts. `oauth_access_tokens` is what http/authenticate.ts checks on every API call: a
 * row deleted here (eviction, revocation) makes that token answer INVALID_OAUTHTOKEN.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorState } from '../state';
import {
  accessTokenTtlMs,
  ACCESS_TOKENS_PER_WINDOW,
  grantAllowance,
  REFRESH_TOKENS_PER_WINDOW,
  tokensToEvict,
  type Issued,
} from './tokenRules';
import type { AccessType } from './authRequest';

/** Tokens look like the service's: `1000.<hex>.<hex>`. */
export function newToken(): string {
  return `1000.${randomBytes(16).toString('hex')}.${randomBytes(16).toString('hex')}`;
}

export interface UserRow {
  zpuid: string;
  email: string;
  password: string;
  dc: string;
  status: string;
}

export function findUserByEmail(state: EmulatorState, email: string | null): UserRow | null {
  if (!email) return null;
  const row = state.db
    .prepare('SELECT zpuid, email, password, dc, status FROM users WHERE lower(email) = lower(?)')
    .get(email.trim()) as UserRow | undefined;
  return row ?? null;
}

/** The demo user: the admin of the first data center (the one --auto-approve signs in as). */
export function demoUser(state: EmulatorState, dc: string): UserRow {
  const row = state.db
    .prepare(
      `SELECT zpuid, email, password, dc, status FROM users
       WHERE role = 'admin' AND dc = ? ORDER BY id LIMIT 1`,
    )
    .get(dc) as UserRow | undefined;
  if (!row) throw new Error(`The emulator has no admin user in ${dc}.`);
  return row;
}

export interface GrantRow {
  code: string;
  client_id: string;
  zpuid: string;
  dc: string;
  scopes: string;
  redirect_uri: string | null;
  access_type: AccessType;
  code_challenge: string | null;
  created_ms: number;
  expires_ms: number;
  used: number;
}

export interface NewGrant {
  clientId: string;
  zpuid: string;
  dc: string;
  scopes: string[];
  /** Null for Self Client grants, which are exchanged without one. */
  redirectUri: string | null;
  accessType: AccessType;
  codeChallenge: string | null;
  ttlMs: number;
}

/** Issues a grant code, unless the client already has its 10 of the last 10 minutes. */
export function issueGrant(
  state: EmulatorState,
  grant: NewGrant,
): { code: string } | { refused: true; retryAfterMs: number } {
  return state.db.transaction(() => {
    const now = state.clock.now();
    const existing = state.db
      .prepare('SELECT created_ms FROM oauth_grants WHERE client_id = ?')
      .all(grant.clientId) as Issued[];
    const allowance = grantAllowance(existing, now);
    if (!allowance.allowed) return { refused: true as const, retryAfterMs: allowance.retryAfterMs };
    const code = newToken();
    state.db
      .prepare(
        `INSERT INTO oauth_grants (code, client_id, zpuid, dc, scopes, redirect_uri, access_type,
           code_challenge, created_ms, expires_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        code,
        grant.clientId,
        grant.zpuid,
        grant.dc,
        grant.scopes.join(' '),
        grant.redirectUri,
        grant.accessType,
        grant.codeChallenge,
        now,
        now + grant.ttlMs,
      );
    return { code };
  })();
}

export function findGrant(state: EmulatorState, code: string): GrantRow | null {
  const row = state.db.prepare('SELECT * FROM oauth_grants WHERE code = ?').get(code) as
    GrantRow | undefined;
  return row ?? null;
}

export interface RefreshRow {
  token: string;
  client_id: string;
  zpuid: string;
  dc: string;
  scopes: string;
  created_ms: number;
  revoked: number;
}

export function findRefreshToken(state: EmulatorState, token: string): RefreshRow | null {
  const row = state.db.prepare('SELECT * FROM oauth_refresh_tokens WHERE token = ?').get(token) as
    RefreshRow | undefined;
  return row ?? null;
}

interface Holder {
  clientId: string;
  zpuid: string;
  dc: string;
  scopes: string[];
}

/**
 * A new access token, evicting the oldest of the last 10 minutes when there are already 10 ("the
 * 11th deletes the first created"). Tokens of a refresh token count per refresh token; tokens of
 * an online grant (no refresh token) per client, user and data center.
 */
function insertAccessToken(
  state: EmulatorState,
  holder: Holder,
  refreshToken: string | null,
): { token: string; expiresMs: number } {
  const now = state.clock.now();
  const existing = (
    refreshToken === null
      ? state.db
          .prepare(
            `SELECT token, created_ms FROM oauth_access_tokens
             WHERE refresh_token IS NULL AND client_id = ? AND zpuid = ? AND dc = ?`,
          )
          .all(holder.clientId, holder.zpuid, holder.dc)
      : state.db
          .prepare('SELECT token, created_ms FROM oauth_access_tokens WHERE refresh_token = ?')
          .all(refreshToken)
  ) as (Issued & { token: string })[];
  const evict = state.db.prepare('DELETE FROM oauth_access_tokens WHERE token = ?');
  for (const old of tokensToEvict(existing, now, ACCESS_TOKENS_PER_WINDOW)) evict.run(old.token);
  const token = newToken();
  const expiresMs = now + accessTokenTtlMs(state.clock.scale, state.config.unscaledTokenLifetime);
  state.db
    .prepare(
      `INSERT INTO oauth_access_tokens (token, refresh_token, client_id, zpuid, dc, scopes, created_ms, expires_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      token,
      refreshToken,
      holder.clientId,
      holder.zpuid,
      holder.dc,
      holder.scopes.join(' '),
      now,
      expiresMs,
    );
  return { token, expiresMs };
}

/** Removes a refresh token's access tokens (without relying on the foreign keys' cascade). */
function deleteAccessTokensOf(state: EmulatorState, refreshToken: string): void {
  state.db.prepare('DELETE FROM oauth_access_tokens WHERE refresh_token = ?').run(refreshToken);
}

/** A new refresh token; the 21st of a client's last 10 minutes deletes the first (and its access tokens). */
function insertRefreshToken(state: EmulatorState, holder: Holder): string {
  const now = state.clock.now();
  const existing = state.db
    .prepare('SELECT token, created_ms FROM oauth_refresh_tokens WHERE client_id = ?')
    .all(holder.clientId) as (Issued & { token: string })[];
  for (const old of tokensToEvict(existing, now, REFRESH_TOKENS_PER_WINDOW)) {
    deleteAccessTokensOf(state, old.token);
    state.db.prepare('DELETE FROM oauth_refresh_tokens WHERE token = ?').run(old.token);
  }
  const token = newToken();
  state.db
    .prepare(
      `INSERT INTO oauth_refresh_tokens (token, client_id, zpuid, dc, scopes, created_ms)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(token, holder.clientId, holder.zpuid, holder.dc, holder.scopes.join(' '), now);
  return token;
}

export interface IssuedTokens {
  accessToken: string;
  expiresMs: number;
  refreshToken: string | null;
}

/** Spends a checked grant code: marks it used and issues its tokens, all in one transaction. */
export function redeemGrant(state: EmulatorState, grant: GrantRow): IssuedTokens {
  return state.db.transaction(() => {
    state.db.prepare('UPDATE oauth_grants SET used = 1 WHERE code = ?').run(grant.code);
    const holder: Holder = {
      clientId: grant.client_id,
      zpuid: grant.zpuid,
      dc: grant.dc,
      scopes: grant.scopes.split(' '),
    };
    const refreshToken = grant.access_type === 'offline' ? insertRefreshToken(state, holder) : null;
    const access = insertAccessToken(state, holder, refreshToken);
    return { accessToken: access.token, expiresMs: access.expiresMs, refreshToken };
  })();
}

/** A new access token from a checked refresh token, with the (possibly narrowed) scopes. */
export function refreshAccess(
  state: EmulatorState,
  refresh: RefreshRow,
  scopes: string[],
): { token: string; expiresMs: number } {
  return state.db.transaction(() =>
    insertAccessToken(
      state,
      { clientId: refresh.client_id, zpuid: refresh.zpuid, dc: refresh.dc, scopes },
      refresh.token,
    ),
  )();
}

/** Revokes a refresh token and deletes every access token made from it. */
export function revokeRefreshToken(state: EmulatorState, token: string): void {
  state.db.transaction(() => {
    deleteAccessTokensOf(state, token);
    state.db.prepare('UPDATE oauth_refresh_tokens SET revoked = 1 WHERE token = ?').run(token);
  })();
}
