/**
 * The ways into an account: the browser flow (a new account, the demo portal, or an account signed
 * in again with its stored registration) and a pasted Self Client code. Each ends the same way
 * (completeSignIn): the grant goes to the keychain first, then the account to SQLite with its
 * portals, and its runtime replaces any earlier one. One sign-in waits for the browser at a time.
 */
import { randomBytes } from 'node:crypto';
import type { AccountSummary, SelfClientArgs, SignInArgs } from '../../shared/ipc/areas/accounts';
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { createApiClient } from '../api/client/apiClient';
import { passThroughScheduler } from '../api/client/passThroughScheduler';
import type { TokenProvider } from '../api/client/tokenProvider';
import { UserFacingError } from '../bridge/dispatcher';
import {
  clientSecretEntry,
  KEYCHAIN_SERVICE,
  refreshTokenEntry,
  userFacing,
  type AccountContext,
} from './accountContext';
import { accountProfile } from './accountProfile';
import type { AccountKind, AccountPortal, AccountRecord } from './accountRepository';
import { browserSignIn, SignInError, type SignInResult } from './browserSignIn';
import { defaultScopes } from './defaultScopes';
import { DEMO_PROFILE_ID } from './demoService';
import { followRedirects } from './followRedirects';
import type { AccountRuntime, SignedInAccounts } from './signedInAccounts';
import type { TokenManager } from './tokenManager';
import { exchangeCode, revokeRefreshToken } from './tokenEndpoint';

/** A browser sign-in waiting for the user, as the renderer shows it. */
export interface PendingSignIn {
  profileName: string;
  dataCenter: string;
  authUrl: string | null;
  deadline: number | null;
}

interface Pending extends PendingSignIn {
  controller: AbortController;
}

interface Registration {
  profile: ServiceProfile;
  clientId: string;
  clientSecret: string;
  redirectUri: string | null;
  kind: AccountKind;
  accountId: string | null;
}

const newId = (prefix: string) => `${prefix}${randomBytes(9).toString('base64url')}`;

export class SignInFlows {
  private pending: Pending | null = null;

  /**
   * `changed` announces the accounts' state to the renderer; `summary` is what a finished
   * sign-in returns.
   */
  constructor(
    private readonly context: AccountContext,
    private readonly accounts: SignedInAccounts,
    private readonly changed: () => void,
    private readonly summary: (account: AccountRecord) => AccountSummary,
  ) {}

  /** The sign-in waiting for the browser, if any. */
  waiting(): PendingSignIn | null {
    if (!this.pending) return null;
    const { profileName, dataCenter, authUrl, deadline } = this.pending;
    return { profileName, dataCenter, authUrl, deadline };
  }

  cancel(): { cancelled: boolean } {
    if (!this.pending) return { cancelled: false };
    this.pending.controller.abort();
    return { cancelled: true };
  }

  close(): void {
    this.pending?.controller.abort();
  }

  /** The browser flow for a new account (or the same one again: see `matchingAccount`). */
  async signIn(args: SignInArgs): Promise<AccountSummary> {
    const profile = this.context.storedProfile(args.profileId);
    const scopes = this.context.checkScopes(args.scopes, profile);
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
    const demo = await this.context.startDemo();
    const existing = this.context.repository
      .all()
      .find((account) => account.profileId === DEMO_PROFILE_ID);
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
      openExternal: async (url) => void (await followRedirects(url, this.context.options.fetch)),
    });
  }

  /** Sign a signed-out (or any) account in again with its stored registration and secret. */
  async signInAgain(accountId: string): Promise<AccountSummary> {
    const account = this.context.requireAccount(accountId);
    if (account.profileId === DEMO_PROFILE_ID) return this.signInDemo();
    const profile = this.context.storedProfile(account.profileId);
    const store = this.context.secretsFor(account.profileId);
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
    const profile = isDemo
      ? (await this.context.startDemo()).profile
      : this.context.storedProfile(args.profileId);
    const scopes = this.context.checkScopes(args.scopes, profile);
    let clientId = args.clientId;
    let clientSecret = args.clientSecret;
    if (isDemo) {
      const demo = await this.context.startDemo();
      clientId ??= demo.client.clientId;
      clientSecret ??= demo.client.clientSecret;
    }
    if (clientId === undefined || clientSecret === undefined) {
      throw new UserFacingError(
        'Enter the client id and client secret of your Self Client (developer console, Self Client, Client Secret tab); nothing was sent.',
        { field: clientId === undefined ? 'clientId' : 'clientSecret' },
      );
    }
    const accounts = this.context.accountsServer(profile, args.dataCenter);
    await this.context.ensureSecretStore(profile.id);
    const exchange = {
      profileName: profile.name,
      dataCenter: args.dataCenter,
      clientId,
      during: 'the Self Client code exchange',
    };
    try {
      const sentAt = this.context.now();
      const tokens = await exchangeCode(
        {
          accountsUrl: accounts,
          clientId,
          clientSecret,
          code: args.code,
          redirectUri: null,
          codeVerifier: null,
        },
        exchange,
        this.context.endpointOptions(),
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
        answeredAt: this.context.now(),
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
    const demo = await this.context.startDemo();
    const scopes = this.context.checkScopes(scopesText, demo.profile);
    try {
      return await demo.selfClientCode(scopes.join(','));
    } catch (error) {
      throw new UserFacingError(
        `The demo console did not issue a code: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
  }

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
    this.context.accountsServer(request.profile, request.dataCenter);
    const controller = new AbortController();
    this.pending = {
      controller,
      profileName: request.profile.name,
      dataCenter: request.dataCenter,
      authUrl: null,
      deadline: null,
    };
    this.changed();
    const { options } = this.context;
    try {
      await this.context.ensureSecretStore(request.profile.id);
      const result = await browserSignIn({
        profile: request.profile,
        dataCenter: request.dataCenter,
        clientId: request.clientId,
        clientSecretFor: request.clientSecretFor,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        openExternal: request.openExternal ?? options.openExternal,
        onWaiting: (authUrl, deadline) => {
          if (this.pending?.controller !== controller) return;
          this.pending = { ...this.pending, authUrl, deadline };
          this.changed();
        },
        signal: controller.signal,
        now: () => this.context.now(),
        endpoint: this.context.endpointOptions(),
        ...(options.signInTimeoutMs !== undefined ? { timeoutMs: options.signInTimeoutMs } : {}),
      }).finally(() => {
        // The browser's part is over (its code came back, or never will): the page naming its
        // state and challenge goes now, before the grant is stored.
        this.context.removeSignInPage();
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
      this.context.log(`Sign-in to ${request.profile.name} failed: ${String(error)}`);
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
    registration: Registration,
  ): Promise<AccountSummary> {
    const { profile } = registration;
    const { tokens } = result;
    const { repository } = this.context;
    const ledger = this.accounts.ledger;
    const derived = accountProfile(profile, result.dataCenter, tokens.apiDomain);
    const refreshTokenId = newId('rt_');
    ledger.record(refreshTokenId, result.answeredAt);
    const credentials = {
      refreshToken: tokens.refreshToken,
      clientSecret: registration.clientSecret,
    };
    const manager = this.accounts.tokenManager({
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
    const previous = repository.get(accountId);
    const store = this.context.secretsFor(profile.id);
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
        this.context.endpointOptions(),
      ).catch(() => undefined);
      ledger.forget(refreshTokenId);
      throw error;
    }
    const label =
      portals.find((portal) => portal.isDefault)?.name ??
      portals[0]?.name ??
      `${profile.name} (${result.dataCenter.toUpperCase()})`;
    repository.saveSignIn({
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
    if (!repository.all().some((account) => account.active)) repository.setActive(accountId);

    // The account's old grant, if any, is replaced: give it back and forget its ledger.
    this.accounts.install(accountId, () => {
      if (previous?.refreshTokenId) ledger.forget(previous.refreshTokenId);
      return this.newRuntime(accountId, derived, result, registration, refreshTokenId, manager);
    });
    manager.close();
    if (replaced !== null && replaced !== tokens.refreshToken) {
      // "max 20 refresh tokens per 10 minutes per client id": the replaced one is given back.
      void revokeRefreshToken(
        { accountsUrl: previous?.accountsUrl ?? result.accountsUrl, refreshToken: replaced },
        { profileName: profile.name, during: 'giving back the replaced sign-in' },
        this.context.endpointOptions(),
      ).catch((error: unknown) =>
        this.context.log(`Revoking a replaced refresh token failed: ${String(error)}`),
      );
    }

    const account = this.context.requireAccount(accountId);
    this.changed();
    this.accounts.announce(account);
    return this.summary(account);
  }

  /** The runtime of a freshly signed-in account, carrying on the sign-in's access token. */
  private newRuntime(
    accountId: string,
    derived: ServiceProfile,
    result: SignInResult,
    registration: Registration,
    refreshTokenId: string,
    manager: TokenManager,
  ): AccountRuntime {
    const { tokens } = result;
    return {
      profile: derived,
      tokens: this.accounts.tokenManager({
        accountId,
        refreshTokenId,
        accountsUrl: result.accountsUrl,
        clientId: registration.clientId,
        profile: registration.profile,
        dataCenter: result.dataCenter,
        credentials: () => this.accounts.credentials(accountId, registration.profile.id),
        initial: manager.current() ?? {
          accessToken: tokens.accessToken,
          expiresAt: result.sentAt + tokens.lifetimeMs,
        },
      }),
    };
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
    return this.context.repository.all().find(
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
    const { options } = this.context;
    try {
      const client = createApiClient({
        profile,
        dataCenter,
        tokens,
        scheduler: options.scheduler ?? passThroughScheduler(),
        ...(options.fetch ? { fetch: options.fetch } : {}),
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
      this.context.log(`Listing the portals after sign-in failed: ${String(error)}`);
      return [];
    }
  }
}
