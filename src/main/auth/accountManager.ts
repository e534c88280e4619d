/**
 * Accounts: a service profile + a data center + a client registration + the user's portals.
 * Signs in (the browser flow, a pasted Self Client code, the embedded demo), keeps the refresh
 * token and client secret in the keychain and nothing secret anywhere else, gives the sync
 * engine one token provider per signed-in account, and signs out. Several accounts live side by
 * side; one is active in the UI.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  AccountsState,
  AccountSummary,
  ProfileSummary,
  SelfClientArgs,
  SignInArgs,
} from '../../shared/contracts/accounts';
import { accountsUrl, type ServiceProfile } from '../../shared/serviceProfile';
import { createApiClient } from '../api/client/apiClient';
import type { ApiScheduler } from '../api/client/apiScheduler';
import { passThroughScheduler } from '../api/client/passThroughScheduler';
import type { TokenProvider } from '../api/client/tokenProvider';
import { UserFacingError } from '../bridge/dispatcher';
import { AccessTokenLedger } from './accessTokenLedger';
import { accountProfile } from './accountProfile';
import {
  AccountRepository,
  type AccountKind,
  type AccountPortal,
  type AccountRecord,
} from './accountRepository';
import { browserSignIn, SignInError, type SignInResult } from './browserSignIn';
import { defaultScopes } from './defaultScopes';
import { DEMO_PROFILE_ID, DEMO_PROFILE_NAME, DemoService } from './demoService';
import { followRedirects } from './followRedirects';
import { LoopbackPortBusyError } from './loopbackListener';
import { OAuthError } from './oauthError';
import { ACCESS_TOKENS_PER_WINDOW } from './oauthLimits';
import { redactSecrets } from './redactSecrets';
import { checkScopeList } from './scopeList';
import { KeychainUnavailableError, type SecretStore } from './secretStore';
import { exchangeCode, revokeRefreshToken } from './tokenEndpoint';
import { SignedOutError, TokenManager, type TokenClock } from './tokenManager';

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

/** The keychain's service name; entries are `<account id>:refresh_token` / `:client_secret`. */
export const KEYCHAIN_SERVICE = 'PortalDesk';
const refreshTokenEntry = (accountId: string) => `${accountId}:refresh_token`;
const clientSecretEntry = (accountId: string) => `${accountId}:client_secret`;

export interface AccountManagerOptions {
  db: Database.Database;
  /** The OS keychain (tests: an in-memory store). */
  secrets: SecretStore;
  /** The embedded demo portal; null where there is none (some tests). */
  demo: DemoService | null;
  /** Opens the system browser (Electron: shell.openExternal; web mode: the OS browser). */
  openExternal(url: string): unknown;
  /** For listing portals after a sign-in; the app's request scheduler when it has one. */
  scheduler?: ApiScheduler;
  clock?: TokenClock;
  fetch?: typeof globalThis.fetch;
  signInTimeoutMs?: number;
  log?: { warn(message: string): void };
}

interface Runtime {
  tokens: TokenManager;
  profile: ServiceProfile;
}

interface Pending {
  controller: AbortController;
  profileName: string;
  dataCenter: string;
  authUrl: string | null;
  deadline: number | null;
}

const newId = (prefix: string) => `${prefix}${randomBytes(9).toString('base64url')}`;

/** Known failures become messages for the user; anything else stays a bug. */
function userFacing(error: unknown): unknown {
  if (
    error instanceof SignInError ||
    error instanceof OAuthError ||
    error instanceof KeychainUnavailableError ||
    error instanceof LoopbackPortBusyError ||
    error instanceof SignedOutError
  ) {
    return new UserFacingError(error.message);
  }
  return error;
}

export class AccountManager {
  private readonly repository: AccountRepository;
  private readonly ledger: AccessTokenLedger;
  private readonly runtimes = new Map<string, Runtime>();
  private readonly signedInListeners = new Set<(account: SignedInAccount) => void>();
  private readonly signedOutListeners = new Set<(accountId: string) => void>();
  private readonly refreshedListeners = new Set<(accountId: string, expiresAt: number) => void>();
  private readonly changeListeners = new Set<(state: AccountsState) => void>();
  private pending: Pending | null = null;
  private closed = false;

  constructor(private readonly options: AccountManagerOptions) {
    this.repository = new AccountRepository(options.db);
    this.ledger = new AccessTokenLedger(options.db);
    for (const account of this.repository.all()) this.restore(account);
  }

  // ---- what the sync engine uses ---------------------------------------------------------------

  /** Accounts with a usable refresh token (a demo account once its portal is running). */
  signedIn(): SignedInAccount[] {
    return this.repository
      .all()
      .filter((account) => account.status === 'signed_in')
      .flatMap((account) => {
        const runtime = this.runtimes.get(account.id);
        return runtime ? [this.signedInAccount(account, runtime)] : [];
      });
  }

  /** After a sign-in, and when a restored demo account's portal is up: sync starts a first sync. */
  onSignedIn(listener: (account: SignedInAccount) => void): () => void {
    this.signedInListeners.add(listener);
    return () => this.signedInListeners.delete(listener);
  }

  /** After a refresh issued an account a new access token (never the token itself). */
  onTokenRefreshed(listener: (accountId: string, expiresAt: number) => void): () => void {
    this.refreshedListeners.add(listener);
    return () => this.refreshedListeners.delete(listener);
  }

  /** After a sign-out, or when the service refused an account's refresh token. */
  onSignedOut(listener: (accountId: string) => void): () => void {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  /** The renderer's view changed (`accounts.changed`). */
  onChanged(listener: (state: AccountsState) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Origins the OS browser may be sent to: the accounts servers of every known profile. */
  accountsOrigins(): string[] {
    const origins = new Set<string>(this.options.demo?.accountsOrigins() ?? []);
    for (const profile of this.repository.profiles().profiles) {
      for (const dc of Object.values(profile.dataCenters)) {
        if (dc.accounts) origins.add(new URL(dc.accounts).origin);
      }
    }
    return [...origins];
  }

  close(): void {
    this.closed = true;
    this.pending?.controller.abort();
    for (const runtime of this.runtimes.values()) runtime.tokens.close();
    this.runtimes.clear();
  }

  // ---- what the renderer asks for ------------------------------------------------------------------

  state(): AccountsState {
    const accounts = this.repository.all().map((account) => this.summary(account));
    return {
      accounts,
      activeAccountId: accounts.find((account) => account.active)?.accountId ?? null,
      pendingSignIn: this.pending
        ? {
            profileName: this.pending.profileName,
            dataCenter: this.pending.dataCenter,
            authUrl: this.pending.authUrl,
            deadline: this.pending.deadline,
          }
        : null,
    };
  }

  profiles(): ProfileSummary[] {
    const summaries: ProfileSummary[] = [];
    const demo = this.options.demo;
    if (demo) {
      const profile = demo.profile ?? DemoService.profileTemplate;
      summaries.push({
        id: DEMO_PROFILE_ID,
        name: DEMO_PROFILE_NAME,
        isDemo: true,
        multiDc: false,
        dataCenters: Object.keys(profile.dataCenters).map((key) => ({
          key,
          label: key.toUpperCase(),
          hasAccounts: true,
        })),
        defaultScopes: {
          read: defaultScopes(profile, 'read'),
          write: defaultScopes(profile, 'write'),
        },
        suggestedRedirectUri: null,
      });
    }
    for (const profile of this.repository.profiles().profiles) {
      summaries.push({
        id: profile.id,
        name: profile.name,
        isDemo: false,
        multiDc: profile.multiDc,
        dataCenters: Object.entries(profile.dataCenters).map(([key, dc]) => ({
          key,
          label: dc.label ?? key.toUpperCase(),
          hasAccounts: dc.accounts !== undefined,
        })),
        defaultScopes: {
          read: defaultScopes(profile, 'read'),
          write: defaultScopes(profile, 'write'),
        },
        suggestedRedirectUri: 'http://127.0.0.1:53682/callback',
      });
    }
    return summaries;
  }

  addProfile(profile: ServiceProfile): ProfileSummary[] {
    if (profile.id === DEMO_PROFILE_ID) {
      throw new UserFacingError(
        `The profile id "${DEMO_PROFILE_ID}" belongs to the built-in demo portal; nothing was saved. Give the profile another id.`,
      );
    }
    this.repository.saveProfile(profile);
    this.changed();
    return this.profiles();
  }

  setActive(accountId: string): AccountsState {
    this.requireAccount(accountId);
    this.repository.setActive(accountId);
    return this.changed();
  }

  cancelSignIn(): { cancelled: boolean } {
    if (!this.pending) return { cancelled: false };
    this.pending.controller.abort();
    return { cancelled: true };
  }

  /** The browser flow for a new account (or the same one again: see `matchingAccount`). */
  async signIn(args: SignInArgs): Promise<AccountSummary> {
    const profile = this.storedProfile(args.profileId);
    const scopes = this.checkScopes(args.scopes, profile);
    const secrets = { ...args.otherSecrets, [args.dataCenter]: args.clientSecret };
    return this.runBrowserSignIn({
      profile,
      dataCenter: args.dataCenter,
      clientId: args.clientId,
      clientSecretFor: (dc) => secrets[dc] ?? (profile.multiDc ? null : args.clientSecret),
      redirectUri: args.redirectUri,
      scopes,
      kind: 'browser',
      accountId: null,
    });
  }

  /** "Try the demo portal": the embedded emulator, signed in to through the same flow. */
  async signInDemo(): Promise<AccountSummary> {
    const demo = await this.startDemo();
    const existing = this.repository.all().find((account) => account.profileId === DEMO_PROFILE_ID);
    return this.runBrowserSignIn({
      profile: demo.profile,
      dataCenter: Object.keys(demo.profile.dataCenters)[0] as string,
      clientId: demo.client.clientId,
      clientSecretFor: () => demo.client.clientSecret,
      redirectUri: demo.client.redirectUri,
      scopes: defaultScopes(demo.profile, 'write'),
      kind: 'demo',
      accountId: existing?.id ?? null,
      // It approves at once: the engine follows the redirects itself, no window opens.
      openExternal: async (url) => void (await followRedirects(url, this.options.fetch)),
    });
  }

  /** Sign a signed-out (or any) account in again with its stored registration and secret. */
  async signInAgain(accountId: string): Promise<AccountSummary> {
    const account = this.requireAccount(accountId);
    if (account.profileId === DEMO_PROFILE_ID) return this.signInDemo();
    const profile = this.storedProfile(account.profileId);
    const store = this.secretsFor(account.profileId);
    const secret = await store.getPassword(KEYCHAIN_SERVICE, clientSecretEntry(accountId));
    if (secret === null || account.redirectUri === null) {
      throw new UserFacingError(
        `PortalDesk no longer has the client secret${account.redirectUri === null ? ' and redirect URI' : ''} of "${account.label}", so it cannot sign it in again by itself. Local data is kept: use "Sign in to a service" with the same client to continue.`,
      );
    }
    return this.runBrowserSignIn({
      profile,
      dataCenter: account.dc,
      clientId: account.clientId,
      clientSecretFor: (dc) => (dc === account.dc || !profile.multiDc ? secret : null),
      redirectUri: account.redirectUri,
      scopes: account.scopes,
      kind: account.kind,
      accountId,
    });
  }

  /** A Self Client grant code pasted from the developer console ("exchanged like any other"). */
  async selfClient(args: SelfClientArgs): Promise<AccountSummary> {
    const isDemo = args.profileId === DEMO_PROFILE_ID;
    const profile = isDemo ? (await this.startDemo()).profile : this.storedProfile(args.profileId);
    const scopes = this.checkScopes(args.scopes, profile);
    let clientId = args.clientId;
    let clientSecret = args.clientSecret;
    if (isDemo) {
      const demo = await this.startDemo();
      clientId ??= demo.client.clientId;
      clientSecret ??= demo.client.clientSecret;
    }
    if (clientId === undefined || clientSecret === undefined) {
      throw new UserFacingError(
        'Enter the client id and client secret of your Self Client (developer console, Self Client, Client Secret tab); nothing was sent.',
      );
    }
    const accounts = this.accountsServer(profile, args.dataCenter);
    await this.ensureSecretStore(profile.id);
    const context = {
      profileName: profile.name,
      dataCenter: args.dataCenter,
      clientId,
      during: 'the Self Client code exchange',
    };
    try {
      const sentAt = this.now();
      const tokens = await exchangeCode(
        {
          accountsUrl: accounts,
          clientId,
          clientSecret,
          code: args.code,
          redirectUri: null,
          codeVerifier: null,
        },
        context,
        this.endpointOptions(),
      );
      if (tokens.refreshToken === null) {
        throw new SignInError(
          `${profile.name} exchanged the code without a refresh token, so PortalDesk could not stay signed in; nothing was stored. Generate a new Self Client code and try again.`,
        );
      }
      const result: SignInResult = {
        tokens: { ...tokens, refreshToken: tokens.refreshToken },
        dataCenter: args.dataCenter,
        accountsUrl: accounts,
        sentAt,
        answeredAt: this.now(),
      };
      if (tokens.scopes.length === 0) result.tokens.scopes = scopes;
      return await this.completeSignIn(result, {
        profile,
        clientId,
        clientSecret,
        redirectUri: null,
        kind: 'self_client',
        accountId: null,
      });
    } catch (error) {
      throw userFacing(error);
    }
  }

  /** The demo's developer console: a Self Client code, scopes checked first. */
  async demoSelfClientCode(scopesText: string): Promise<{ code: string; expiresInSec: number }> {
    const demo = await this.startDemo();
    const scopes = this.checkScopes(scopesText, demo.profile);
    try {
      return await demo.selfClientCode(scopes.join(','));
    } catch (error) {
      throw new UserFacingError(
        `The demo console did not issue a code: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
  }

  /**
   * Revokes the refresh token, removes the keychain entries, and keeps the account (signed out,
   * its local data kept) or deletes it with everything mirrored for it.
   */
  async signOut(
    accountId: string,
    deleteLocalData: boolean,
  ): Promise<{ state: AccountsState; message: string }> {
    const account = this.requireAccount(accountId);
    const store = this.secretsFor(account.profileId);
    let revokeNote = '';
    if (account.status === 'signed_in') {
      revokeNote = await this.revoke(account, store);
    }
    this.runtimes.get(accountId)?.tokens.close();
    this.runtimes.delete(accountId);
    if (account.refreshTokenId) this.ledger.forget(account.refreshTokenId);
    await store.deletePassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId)).catch(() => false);
    await store.deletePassword(KEYCHAIN_SERVICE, clientSecretEntry(accountId)).catch(() => false);
    let message: string;
    if (deleteLocalData) {
      this.repository.delete(accountId, true);
      const next = this.repository.all()[0];
      if (account.active && next) this.repository.setActive(next.id);
      message = `Signed out of "${account.label}" and deleted its local data.${revokeNote}`;
    } else {
      message = `Signed out of "${account.label}". Its local data and queued edits are kept; sign in again to sync them.${revokeNote}`;
      this.repository.markSignedOut(accountId, message);
    }
    for (const listener of this.signedOutListeners) listener(accountId);
    return { state: this.changed(), message };
  }

  // ---- sign-in ---------------------------------------------------------------------------------------

  private async runBrowserSignIn(request: {
    profile: ServiceProfile;
    dataCenter: string;
    clientId: string;
    clientSecretFor(dc: string): string | null;
    redirectUri: string;
    scopes: readonly string[];
    kind: AccountKind;
    accountId: string | null;
    openExternal?: (url: string) => unknown;
  }): Promise<AccountSummary> {
    if (this.pending) {
      throw new UserFacingError(
        `A sign-in to ${this.pending.profileName} is still waiting for the browser. Finish it there, or cancel it, before starting another.`,
      );
    }
    this.accountsServer(request.profile, request.dataCenter);
    const controller = new AbortController();
    this.pending = {
      controller,
      profileName: request.profile.name,
      dataCenter: request.dataCenter,
      authUrl: null,
      deadline: null,
    };
    this.changed();
    try {
      await this.ensureSecretStore(request.profile.id);
      const result = await browserSignIn({
        profile: request.profile,
        dataCenter: request.dataCenter,
        clientId: request.clientId,
        clientSecretFor: request.clientSecretFor,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        openExternal: request.openExternal ?? this.options.openExternal,
        onWaiting: (authUrl, deadline) => {
          if (this.pending?.controller !== controller) return;
          this.pending = { ...this.pending, authUrl, deadline };
          this.changed();
        },
        signal: controller.signal,
        now: () => this.now(),
        endpoint: this.endpointOptions(),
        ...(this.options.signInTimeoutMs !== undefined
          ? { timeoutMs: this.options.signInTimeoutMs }
          : {}),
      });
      if (this.pending?.controller === controller) this.pending = null;
      const secret = request.clientSecretFor(result.dataCenter) as string;
      return await this.completeSignIn(result, {
        profile: request.profile,
        clientId: request.clientId,
        clientSecret: secret,
        redirectUri: request.redirectUri,
        kind: request.kind,
        accountId: request.accountId,
      });
    } catch (error) {
      this.log(`Sign-in to ${request.profile.name} failed: ${String(error)}`);
      throw userFacing(error);
    } finally {
      if (this.pending?.controller === controller) {
        this.pending = null;
        this.changed();
      }
    }
  }

  /** Stores the grant (keychain first, then SQLite), lists the portals, announces the account. */
  private async completeSignIn(
    result: SignInResult,
    registration: {
      profile: ServiceProfile;
      clientId: string;
      clientSecret: string;
      redirectUri: string | null;
      kind: AccountKind;
      accountId: string | null;
    },
  ): Promise<AccountSummary> {
    const { profile } = registration;
    const { tokens } = result;
    const derived = accountProfile(profile, result.dataCenter, tokens.apiDomain);
    const refreshTokenId = newId('rt_');
    this.ledger.record(refreshTokenId, result.answeredAt);
    const credentials = {
      refreshToken: tokens.refreshToken,
      clientSecret: registration.clientSecret,
    };
    const manager = this.tokenManager({
      accountId: registration.accountId ?? 'new',
      refreshTokenId,
      accountsUrl: result.accountsUrl,
      clientId: registration.clientId,
      profile,
      dataCenter: result.dataCenter,
      credentials: async () => credentials,
      initial: {
        accessToken: tokens.accessToken,
        expiresAt: result.sentAt + tokens.lifetimeMs,
      },
    });
    const portals = await this.listPortals(derived, result.dataCenter, manager);
    const accountId =
      registration.accountId ??
      this.matchingAccount(profile.id, result.dataCenter, registration.clientId, portals)?.id ??
      newId('acc_');
    const previous = this.repository.get(accountId);
    const store = this.secretsFor(profile.id);
    const replaced =
      previous?.status === 'signed_in'
        ? await store.getPassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId)).catch(() => null)
        : null;
    try {
      await store.setPassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId), tokens.refreshToken);
      await store.setPassword(
        KEYCHAIN_SERVICE,
        clientSecretEntry(accountId),
        registration.clientSecret,
      );
    } catch (error) {
      // The grant cannot be kept: give it back rather than leave a live token nobody holds.
      await revokeRefreshToken(
        { accountsUrl: result.accountsUrl, refreshToken: tokens.refreshToken },
        { profileName: profile.name },
        this.endpointOptions(),
      ).catch(() => undefined);
      this.ledger.forget(refreshTokenId);
      throw error;
    }
    const label =
      portals.find((portal) => portal.isDefault)?.name ??
      portals[0]?.name ??
      `${profile.name} (${result.dataCenter.toUpperCase()})`;
    this.repository.saveSignIn({
      id: accountId,
      profileId: profile.id,
      dc: result.dataCenter,
      apiDomain: derived.dataCenters[result.dataCenter]?.api ?? '',
      accountsUrl: result.accountsUrl,
      clientId: registration.clientId,
      redirectUri: registration.redirectUri,
      kind: registration.kind,
      scopes: tokens.scopes,
      label,
      refreshTokenId,
      portals,
    });
    if (!this.repository.all().some((account) => account.active))
      this.repository.setActive(accountId);

    // The account's old grant, if any, is replaced: give it back and forget its ledger.
    this.runtimes.get(accountId)?.tokens.close();
    if (previous?.refreshTokenId) this.ledger.forget(previous.refreshTokenId);
    this.runtimes.set(accountId, {
      profile: derived,
      tokens: this.tokenManager({
        accountId,
        refreshTokenId,
        accountsUrl: result.accountsUrl,
        clientId: registration.clientId,
        profile,
        dataCenter: result.dataCenter,
        credentials: () => this.credentials(accountId, profile.id),
        initial: manager.current() ?? {
          accessToken: tokens.accessToken,
          expiresAt: result.sentAt + tokens.lifetimeMs,
        },
      }),
    });
    manager.close();
    if (replaced !== null && replaced !== tokens.refreshToken) {
      // "max 20 refresh tokens per 10 minutes per client id": the replaced one is given back.
      void revokeRefreshToken(
        { accountsUrl: previous?.accountsUrl ?? result.accountsUrl, refreshToken: replaced },
        { profileName: profile.name, during: 'giving back the replaced sign-in' },
        this.endpointOptions(),
      ).catch((error: unknown) =>
        this.log(`Revoking a replaced refresh token failed: ${String(error)}`),
      );
    }

    const account = this.requireAccount(accountId);
    this.changed();
    const runtime = this.runtimes.get(accountId) as Runtime;
    for (const listener of this.signedInListeners) listener(this.signedInAccount(account, runtime));
    return this.summary(account);
  }

  /**
   * The same user signing in again with the same client reaches the same portals: that account
   * gets the new grant instead of a twin appearing beside it.
   */
  private matchingAccount(
    profileId: string,
    dc: string,
    clientId: string,
    portals: AccountPortal[],
  ): AccountRecord | undefined {
    if (portals.length === 0) return undefined;
    const ids = portals
      .map((portal) => portal.portalId)
      .sort()
      .join(',');
    return this.repository.all().find(
      (account) =>
        account.profileId === profileId &&
        account.dc === dc &&
        account.clientId === clientId &&
        account.portals
          .map((portal) => portal.portalId)
          .sort()
          .join(',') === ids,
    );
  }

  private async listPortals(
    profile: ServiceProfile,
    dataCenter: string,
    tokens: TokenProvider,
  ): Promise<AccountPortal[]> {
    try {
      const client = createApiClient({
        profile,
        dataCenter,
        tokens,
        scheduler: this.options.scheduler ?? passThroughScheduler(),
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        retry: { attempts: 2 },
      });
      const reply = await client.listPortals({ query: { per_page: 200 } }, { priority: 'user' });
      return reply.items.map((portal) => ({
        portalId: portal.id,
        name: portal.portal_name,
        isDefault: portal.is_default_portal === true,
      }));
    } catch (error) {
      // The account still works (sync lists portals itself); only its label is plainer.
      this.log(`Listing the portals after sign-in failed: ${String(error)}`);
      return [];
    }
  }

  // ---- tokens ------------------------------------------------------------------------------------

  private tokenManager(spec: {
    accountId: string;
    refreshTokenId: string;
    accountsUrl: string;
    clientId: string;
    profile: ServiceProfile;
    dataCenter: string;
    credentials: () => Promise<{ refreshToken: string; clientSecret: string }>;
    initial?: { accessToken: string; expiresAt: number };
  }): TokenManager {
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
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      endpoint: this.endpointOptions(),
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
  private async credentials(
    accountId: string,
    profileId: string,
  ): Promise<{ refreshToken: string; clientSecret: string }> {
    const store = this.secretsFor(profileId);
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
    const account = this.repository.get(accountId);
    if (!account || account.status === 'signed_out') return;
    this.runtimes.get(accountId)?.tokens.close();
    this.runtimes.delete(accountId);
    if (account.refreshTokenId) this.ledger.forget(account.refreshTokenId);
    this.repository.markSignedOut(accountId, message);
    const store = this.secretsFor(account.profileId);
    void store.deletePassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId)).catch(() => false);
    this.log(`Account ${accountId} signed out: ${message}`);
    for (const listener of this.signedOutListeners) listener(accountId);
    this.changed();
  }

  private async revoke(account: AccountRecord, store: SecretStore): Promise<string> {
    const refreshToken = await store
      .getPassword(KEYCHAIN_SERVICE, refreshTokenEntry(account.id))
      .catch(() => null);
    if (refreshToken === null) return '';
    try {
      await revokeRefreshToken(
        { accountsUrl: account.accountsUrl, refreshToken },
        { profileName: this.profileName(account.profileId), during: 'the sign-out' },
        this.endpointOptions(),
      );
      return '';
    } catch (error) {
      // Already revoked elsewhere: nothing left to give back.
      if (error instanceof OAuthError && error.code === 'invalid_code') return '';
      return ` The service could not be told to revoke the sign-in (${error instanceof Error ? error.message : String(error)}); revoke PortalDesk's access in the service's account settings if this computer is not yours.`;
    }
  }

  /** At start-up: a signed-in account gets its token manager (a demo one once the demo runs). */
  private restore(account: AccountRecord): void {
    if (account.status !== 'signed_in' || !account.refreshTokenId) return;
    if (account.profileId === DEMO_PROFILE_ID && !this.options.demo?.running) {
      // The demo's ports change every launch: its account is usable once the demo is running.
      void this.startDemo()
        .then(() => this.restoreDemo(account.id))
        .catch((error: unknown) => this.log(`The demo portal did not start: ${String(error)}`));
      return;
    }
    this.attach(account);
  }

  private restoreDemo(accountId: string): void {
    const account = this.repository.get(accountId);
    if (this.closed || this.runtimes.has(accountId) || account?.status !== 'signed_in') return;
    const runtime = this.attach(account);
    if (!runtime) return;
    this.changed();
    for (const listener of this.signedInListeners) listener(this.signedInAccount(account, runtime));
  }

  private attach(account: AccountRecord): Runtime | undefined {
    const profile = this.profileFor(account.profileId);
    if (!profile || !account.refreshTokenId) return undefined;
    const isDemo = account.profileId === DEMO_PROFILE_ID;
    const runtime: Runtime = {
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

  // ---- helpers -------------------------------------------------------------------------------------

  private async startDemo() {
    const demo = this.options.demo;
    if (!demo) {
      throw new UserFacingError(
        'This PortalDesk has no demo portal; sign in to a service instead.',
      );
    }
    try {
      return await demo.start();
    } catch (error) {
      throw new UserFacingError(
        `The demo portal could not start (${error instanceof Error ? error.message : String(error)}); nothing was changed. Try again, or sign in to a service.`,
      );
    }
  }

  private profileFor(profileId: string): ServiceProfile | undefined {
    if (profileId === DEMO_PROFILE_ID) return this.options.demo?.profile;
    return this.repository.profiles().profiles.find((profile) => profile.id === profileId);
  }

  private storedProfile(profileId: string): ServiceProfile {
    if (profileId === DEMO_PROFILE_ID) {
      throw new UserFacingError('Use "Try the demo portal" to sign in to the demo portal.');
    }
    const profile = this.repository.profiles().profiles.find((p) => p.id === profileId);
    if (!profile) {
      throw new UserFacingError(
        `No service profile "${profileId}" is known; nothing was sent. Add the profile first, or pick another.`,
      );
    }
    return profile;
  }

  private profileName(profileId: string): string {
    if (profileId === DEMO_PROFILE_ID) return DEMO_PROFILE_NAME;
    return this.repository.profiles().profiles.find((p) => p.id === profileId)?.name ?? profileId;
  }

  private accountsServer(profile: ServiceProfile, dataCenter: string): string {
    if (!Object.hasOwn(profile.dataCenters, dataCenter)) {
      throw new UserFacingError(
        `${profile.name} has no data center "${dataCenter}"; it knows ${Object.keys(profile.dataCenters).join(', ')}. Nothing was sent.`,
      );
    }
    const server = accountsUrl(profile, dataCenter);
    if (!server) {
      throw new UserFacingError(
        `Data center ${dataCenter.toUpperCase()} of ${profile.name} serves the API only and has no sign-in; pick the data center where your account was created. Nothing was sent.`,
      );
    }
    return server;
  }

  private checkScopes(text: string | readonly string[], profile: ServiceProfile): string[] {
    const checked = checkScopeList(text, profile);
    if (!checked.ok) throw new UserFacingError(checked.error);
    return checked.scopes;
  }

  private secretsFor(profileId: string): SecretStore {
    if (profileId === DEMO_PROFILE_ID && this.options.demo) return this.options.demo.secrets;
    return this.options.secrets;
  }

  private async ensureSecretStore(profileId: string): Promise<void> {
    try {
      await this.secretsFor(profileId).ensureAvailable();
    } catch (error) {
      throw userFacing(error);
    }
  }

  private requireAccount(accountId: string): AccountRecord {
    const account = this.repository.get(accountId);
    if (!account) {
      throw new UserFacingError(
        `No account "${accountId}" exists (it may have been removed); nothing was changed.`,
      );
    }
    return account;
  }

  private signedInAccount(account: AccountRecord, runtime: Runtime): SignedInAccount {
    return {
      accountId: account.id,
      label: account.label,
      profile: runtime.profile,
      dataCenter: account.dc,
      tokens: runtime.tokens,
    };
  }

  private summary(account: AccountRecord): AccountSummary {
    const runtime = this.runtimes.get(account.id);
    const status = runtime?.tokens.status();
    const profile = this.profileFor(account.profileId);
    const dcLabel = profile?.dataCenters[account.dc]?.label ?? account.dc.toUpperCase();
    return {
      accountId: account.id,
      label: account.label,
      profileId: account.profileId,
      profileName: this.profileName(account.profileId),
      kind: account.kind,
      dataCenter: account.dc,
      dataCenterLabel: dcLabel,
      apiDomain: runtime?.profile.dataCenters[account.dc]?.api ?? account.apiDomain,
      accountsUrl: account.accountsUrl,
      clientId: account.clientId,
      redirectUri: account.redirectUri,
      scopes: account.scopes,
      portals: account.portals,
      status: account.status,
      statusMessage: account.statusMessage,
      active: account.active,
      tokens:
        status && account.status === 'signed_in'
          ? {
              validUntil: status.validUntil,
              refreshesInWindow: status.refreshesInWindow,
              refreshLimit: ACCESS_TOKENS_PER_WINDOW,
              waitingUntil: status.waitingUntil,
            }
          : null,
    };
  }

  private changed(): AccountsState {
    const state = this.state();
    for (const listener of this.changeListeners) listener(state);
    return state;
  }

  private now(): number {
    return this.options.clock?.now() ?? Date.now();
  }

  private endpointOptions() {
    return this.options.fetch ? { fetch: this.options.fetch } : {};
  }

  private log(message: string): void {
    this.options.log?.warn(redactSecrets(message));
  }
}
