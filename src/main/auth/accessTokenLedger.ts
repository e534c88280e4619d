/**
 * The persisted ledger of access tokens asked for, per refresh token (see accessTokenAllowance.ts).
 * An entry is written before the request is sent (a request whose answer is lost may still have
 * produced a token), moved to when the answer came (the service's count starts when it created
 * the token, which may be as late as that), and removed only when the service clearly issued none.
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import accountsSql from './queries/accounts.sql?raw';
import { TOKEN_WINDOW_MS } from './oauthLimits';

const queries = requireQueries(
  parseNamedQueries(accountsSql, 'accounts.sql'),
  [
    'ledgerSince',
    'ledgerInsert',
    'ledgerMove',
    'ledgerRemove',
    'ledgerPrune',
    'ledgerForget',
  ] as const,
  'accounts.sql',
);

export class AccessTokenLedger {
  private readonly since: Database.Statement<
    { refreshTokenId: string; since: number },
    { issuedAt: number }
  >;
  private readonly insert: Database.Statement<
    { refreshTokenId: string; issuedAt: number },
    { entryId: number }
  >;
  private readonly move: Database.Statement<{ entryId: number; issuedAt: number }>;
  private readonly remove: Database.Statement<{ entryId: number }>;
  private readonly prune: Database.Statement<{ before: number }>;
  private readonly forgetAll: Database.Statement<{ refreshTokenId: string }>;

  constructor(db: Database.Database) {
    this.since = db.prepare(queries.ledgerSince);
    this.insert = db.prepare(queries.ledgerInsert);
    this.move = db.prepare(queries.ledgerMove);
    this.remove = db.prepare(queries.ledgerRemove);
    this.prune = db.prepare(queries.ledgerPrune);
    this.forgetAll = db.prepare(queries.ledgerForget);
  }

  /** Times (epoch ms) of the tokens asked for within the window that ends at `now`. */
  issuedAt(refreshTokenId: string, now: number): number[] {
    return this.since
      .all({ refreshTokenId, since: now - TOKEN_WINDOW_MS })
      .map((row) => row.issuedAt);
  }

  /** Records one token asked for at `at`; returns the entry's id for `unrecord`. */
  record(refreshTokenId: string, at: number): number {
    this.prune.run({ before: at - TOKEN_WINDOW_MS });
    const row = this.insert.get({ refreshTokenId, issuedAt: at });
    return row?.entryId ?? -1;
  }

  /**
   * The answer came (or the wait for it ended) at `at`: the service created the token somewhere
   * between the send and then, so the later time is the one that keeps the window safe.
   */
  settle(entryId: number, at: number): void {
    this.move.run({ entryId, issuedAt: at });
  }

  /** The service answered with an error: that request produced no token. */
  unrecord(entryId: number): void {
    this.remove.run({ entryId });
  }

  /** The refresh token is gone (signed out, replaced): its entries mean nothing any more. */
  forget(refreshTokenId: string): void {
    this.forgetAll.run({ refreshTokenId });
  }
}
