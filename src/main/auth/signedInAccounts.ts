/**
 * The signed-in runtime: one token manager per signed-in account, restored at start-up (a demo
 * account once the demo portal runs), its secrets read from the keychain only when a refresh needs
 * them, and the account signed out, its data kept, when the service refuses its refresh token or
 * the keychain entry is gone. The sync engine reads accounts from here and listens for sign-ins,
 * refreshes and sign-outs.
 */
import { accountsUrl, type ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import type { TokenProvider } from '../api/client/tokenProvider';
import { AccessTokenLedger } from './accessTokenLedger';
import {
  clientSecretEntry,
  KEYCHAIN_SERVICE,
  refreshTokenEntry,
  type AccountContext,
} from './accountContext';
import { accountProfile } from './accountProfile';
import type { AccountRecord } from './accountRepository';
import { DEMO_PROFILE_ID } from './demoService';
import { SignedOutError, TokenManager, type TokenStatus } from './tokenManager';

/** What the sync engine gets for each account it may sync. */
export interface SignedInAccount {
  accountId: string;
  /** The account's name in the UI: its default portal's name. */
  label: string;
  /** The account's profile, its data center's API address being the token response's api_domain. */
  profile: ServiceProfile;
  dataCenter: string;
  tokens: TokenProvider;
}

/** A signed-in account's live part: its tokens and the profile its API calls use. */
export interface AccountRuntime {
  tokens: TokenManager;
  profile: ServiceProfile;
}

/** What a token manager needs to know of the grant it keeps fresh. */
export interface TokenManagerSpec {
  accountId: string;
  refreshTokenId: string;
  accountsUrl: string;
  clientId: string;
  profile: ServiceProfile;
  dataCenter: string;
  credentials: () => Promise<{ refreshToken: string; clientSecret: string }>;
  initial?: { accessToken: string; expiresAt: number };
}

export class SignedInAccounts {
  readonly ledger: AccessTokenLedger;
  private readonly runtimes = new Map<string, AccountRuntime>();
  private readonly signedInListeners = new Set<(account: SignedInAccount) => void>();
  private readonly signedOutListeners = new Set<(accountId: string) => void>();
  private readonly refreshedListeners = new Set<(accountId: string, expiresAt: number) => void>();
  private closed = false;

  /** `changed`: an account's state as the renderer shows it changed. */
  constructor(
    private readonly context: AccountContext,
    private readonly changed: () => void,
  ) {
    this.ledger = new AccessTokenLedger(context.options.db);
  }

  /** At start-up: every signed-in account gets its token manager. */
  restoreAll(): void {
    for (const account of this.context.repository.all()) this.restore(account);
  }

  /** Accounts with a usable refresh token (a demo account once its portal is running). */
  all(): SignedInAccount[] {
    return this.context.repository
      .all()
      .filter((account) => account.status === 'signed_in')
      .flatMap((account) => {
        const runtime = this.runtimes.get(account.id);
        return runtime ? [this.signedInAccount(account, runtime)] : [];
      });
  }

  onSignedIn(listener: (account: SignedInAccount) => void): () => void {
    this.signedInListeners.add(listener);
    return () => this.signedInListeners.delete(listener);
  }

  onTokenRefreshed(listener: (accountId: string, expiresAt: number) => void): () => void {
    this.refreshedListeners.add(listener);
    return () => this.refreshedListeners.delete(listener);
  }

  onSignedOut(listener: (accountId: string) => void): () => void {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  /** The account's token status and API profile, when it has a runtime. */
  runtime(accountId: string): { profile: ServiceProfile; status: TokenStatus } | undefined {
    const runtime = this.runtimes.get(accountId);
    return runtime && { profile: runtime.profile, status: runtime.tokens.status() };
  }

  /** A sign-in completed: the account's runtime replaces any earlier one (closed first). */
  install(accountId: string, runtime: () => AccountRuntime): void {
    this.runtimes.get(accountId)?.tokens.close();
    this.runtimes.set(accountId, runtime());
  }

  /** Tells the listeners an account can be synced now. */
  announce(account: AccountRecord): void {
    const runtime = this.runtimes.get(account.id);
    if (!runtime) return;
    for (const listener of this.signedInListeners) listener(this.signedInAccount(account, runtime));
  }

  /** Sign-out: the runtime goes, the ledger forgets the grant, listeners hear. */
  detach(account: AccountRecord): void {
    this.runtimes.get(account.id)?.tokens.close();
    this.runtimes.delete(account.id);
    if (account.refreshTokenId) this.ledger.forget(account.refreshTokenId);
  }

  /** Listeners hear the account was signed out (after detach and the repository's update). */
  announceSignedOut(accountId: string): void {
    for (const listener of this.signedOutListeners) listener(accountId);
  }

  close(): void {
    this.closed = true;
    for (const runtime of this.runtimes.values()) runtime.tokens.close();
    this.runtimes.clear();
  }

  tokenManager(spec: TokenManagerSpec): TokenManager {
    return new TokenManager({
      refreshTokenId: spec.refreshTokenId,
      accountsUrl: spec.accountsUrl,
      clientId: spec.clientId,
      context: {
        profileName: spec.profile.name,
        dataCenter: spec.dataCenter,
        clientId: spec.clientId,
      },
      credentials: spec.credentials,
      ledger: this.ledger,
      ...(this.context.options.clock ? { clock: this.context.options.clock } : {}),
      endpoint: this.context.endpointOptions(),
      ...(spec.initial ? { initial: spec.initial } : {}),
      onRefreshTokenRefused: (message) => this.refused(spec.accountId, message),
      onStatusChange: () => {
        if (this.runtimes.has(spec.accountId)) this.changed();
      },
      onRefreshed: (expiresAt) => {
        for (const listener of this.refreshedListeners) {
          try {
            listener(spec.accountId, expiresAt);
          } catch {
            // A listener's failure is its own; the token is issued either way.
          }
        }
      },
    });
  }

  /** Read from the keychain when a refresh needs them; a missing entry signs the account out. */
  async credentials(
    accountId: string,
    profileId: string,
  ): Promise<{ refreshToken: string; clientSecret: string }> {
    const store = this.context.secretsFor(profileId);
    const [refreshToken, clientSecret] = await Promise.all([
      store.getPassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId)),
      store.getPassword(KEYCHAIN_SERVICE, clientSecretEntry(accountId)),
    ]);
    if (refreshToken !== null && clientSecret !== null) return { refreshToken, clientSecret };
    // Linux answers "not found" when no Secret Service runs: tell that apart from a lost entry.
    await store.ensureAvailable();
    const message =
      'Its sign-in is no longer in the keychain (the entry was removed), so it is signed out. All local data and queued edits are kept; sign in again to sync them.';
    this.refused(accountId, message);
    throw new SignedOutError(message);
  }

  /** The service refused the account's refresh token: signed out, data kept, user told. */
  private refused(accountId: string, message: string): void {
    const account = this.context.repository.get(accountId);
    if (!account || account.status === 'signed_out') return;
    this.detach(account);
    this.context.repository.markSignedOut(accountId, message);
    const store = this.context.secretsFor(account.profileId);
    void store.deletePassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId)).catch(() => false);
    this.context.log(`Account ${accountId} signed out: ${message}`);
    this.announceSignedOut(accountId);
    this.changed();
  }

  /** A signed-in account gets its token manager (a demo one once the demo runs). */
  private restore(account: AccountRecord): void {
    if (account.status !== 'signed_in' || !account.refreshTokenId) return;
    if (account.profileId === DEMO_PROFILE_ID && !this.context.demo?.running) {
      // The demo's ports change every launch: its account is usable once the demo is running.
      void this.context
        .startDemo()
        .then(() => this.restoreDemo(account.id))
        .catch((error: unknown) =>
          this.context.log(`The demo portal did not start: ${String(error)}`),
        );
      return;
    }
    this.attach(account);
  }

  private restoreDemo(accountId: string): void {
    const account = this.context.repository.get(accountId);
    if (this.closed || this.runtimes.has(accountId) || account?.status !== 'signed_in') return;
    if (!this.attach(account)) return;
    this.changed();
    this.announce(account);
  }

  private attach(account: AccountRecord): AccountRuntime | undefined {
    const profile = this.context.profileFor(account.profileId);
    if (!profile || !account.refreshTokenId) return undefined;
    const isDemo = account.profileId === DEMO_PROFILE_ID;
    const runtime: AccountRuntime = {
      // The demo's addresses are this launch's, not the stored ones.
      profile: accountProfile(profile, account.dc, isDemo ? null : account.apiDomain),
      tokens: this.tokenManager({
        accountId: account.id,
        refreshTokenId: account.refreshTokenId,
        accountsUrl: isDemo
          ? (accountsUrl(profile, account.dc) ?? account.accountsUrl)
          : account.accountsUrl,
        clientId: account.clientId,
        profile,
        dataCenter: account.dc,
        credentials: () => this.credentials(account.id, account.profileId),
      }),
    };
    this.runtimes.set(account.id, runtime);
    return runtime;
  }

  private signedInAccount(account: AccountRecord, runtime: AccountRuntime): SignedInAccount {
    return {
      accountId: account.id,
      label: account.label,
      profile: runtime.profile,
      dataCenter: account.dc,
      tokens: runtime.tokens,
    };
  }
}
