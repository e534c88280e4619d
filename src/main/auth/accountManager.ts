/**
 * Accounts: a service profile + a data center + a client registration + the user's portals.
 * Signs in (signInFlows.ts: the browser flow, a pasted Self Client code, the embedded demo), keeps
 * the refresh token and client secret in the keychain and nothing secret anywhere else, gives the
 * sync engine one token provider per signed-in account (signedInAccounts.ts), and signs out.
 * Several accounts live side by side; one is active in the UI. This class is what the handlers and
 * the engine hold: the renderer's view of accounts, and the two halves put together.
 */
import type {
  AccountsState,
  AccountSummary,
  ProfileSummary,
  SelfClientArgs,
  SignInArgs,
} from '../../shared/ipc/areas/accounts';
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { UserFacingError } from '../bridge/dispatcher';
import {
  AccountContext,
  clientSecretEntry,
  KEYCHAIN_SERVICE,
  refreshTokenEntry,
  type AccountManagerOptions,
} from './accountContext';
import type { AccountRecord } from './accountRepository';
import { defaultScopes } from './defaultScopes';
import { DEMO_PROFILE_ID, DEMO_PROFILE_NAME, DemoService } from './demoService';
import { OAuthError } from './oauthError';
import { ACCESS_TOKENS_PER_WINDOW } from './oauthLimits';
import type { SecretStore } from './secretStore';
import { SignedInAccounts, type SignedInAccount } from './signedInAccounts';
import { SignInFlows } from './signInFlows';
import { revokeRefreshToken } from './tokenEndpoint';

export { KEYCHAIN_SERVICE, type AccountManagerOptions } from './accountContext';
export type { SignedInAccount } from './signedInAccounts';

export class AccountManager {
  private readonly context: AccountContext;
  private readonly accounts: SignedInAccounts;
  private readonly flows: SignInFlows;
  private readonly changeListeners = new Set<(state: AccountsState) => void>();

  constructor(options: AccountManagerOptions) {
    this.context = new AccountContext(options);
    // Its sign-in died with the process that wrote it.
    this.context.removeSignInPage();
    this.accounts = new SignedInAccounts(this.context, () => this.changed());
    this.flows = new SignInFlows(
      this.context,
      this.accounts,
      () => this.changed(),
      (account) => this.summary(account),
    );
    this.accounts.restoreAll();
  }

  // ---- what the sync engine uses ---------------------------------------------------------------

  /** Accounts with a usable refresh token (a demo account once its portal is running). */
  signedIn(): SignedInAccount[] {
    return this.accounts.all();
  }

  /** After a sign-in, and when a restored demo account's portal is up: sync starts a first sync. */
  onSignedIn(listener: (account: SignedInAccount) => void): () => void {
    return this.accounts.onSignedIn(listener);
  }

  /** After a refresh issued an account a new access token (never the token itself). */
  onTokenRefreshed(listener: (accountId: string, expiresAt: number) => void): () => void {
    return this.accounts.onTokenRefreshed(listener);
  }

  /** After a sign-out, or when the service refused an account's refresh token. */
  onSignedOut(listener: (accountId: string) => void): () => void {
    return this.accounts.onSignedOut(listener);
  }

  /** The renderer's view changed (`accounts.changed`). */
  onChanged(listener: (state: AccountsState) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Origins the OS browser may be sent to: the accounts servers of every known profile. */
  accountsOrigins(): string[] {
    const origins = new Set<string>(this.context.demo?.accountsOrigins() ?? []);
    for (const profile of this.context.repository.profiles().profiles) {
      for (const dc of Object.values(profile.dataCenters)) {
        if (dc.accounts) origins.add(new URL(dc.accounts).origin);
      }
    }
    return [...origins];
  }

  close(): void {
    this.flows.close();
    this.accounts.close();
  }

  // ---- what the renderer asks for ------------------------------------------------------------------

  state(): AccountsState {
    const accounts = this.context.repository.all().map((account) => this.summary(account));
    return {
      accounts,
      activeAccountId: accounts.find((account) => account.active)?.accountId ?? null,
      pendingSignIn: this.flows.waiting(),
    };
  }

  profiles(): ProfileSummary[] {
    const summaries: ProfileSummary[] = [];
    const demo = this.context.demo;
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
    for (const profile of this.context.repository.profiles().profiles) {
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
        { field: 'profile' },
      );
    }
    this.context.repository.saveProfile(profile);
    this.changed();
    return this.profiles();
  }

  setActive(accountId: string): AccountsState {
    this.context.requireAccount(accountId);
    this.context.repository.setActive(accountId);
    return this.changed();
  }

  cancelSignIn(): { cancelled: boolean } {
    return this.flows.cancel();
  }

  /** The browser flow for a new account (or the same one again). */
  signIn(args: SignInArgs): Promise<AccountSummary> {
    return this.flows.signIn(args);
  }

  /** "Try the demo portal": the embedded emulator, signed in to through the same flow. */
  signInDemo(): Promise<AccountSummary> {
    return this.flows.signInDemo();
  }

  /** Sign a signed-out (or any) account in again with its stored registration and secret. */
  signInAgain(accountId: string): Promise<AccountSummary> {
    return this.flows.signInAgain(accountId);
  }

  /** A Self Client grant code pasted from the developer console ("exchanged like any other"). */
  selfClient(args: SelfClientArgs): Promise<AccountSummary> {
    return this.flows.selfClient(args);
  }

  /** The demo's developer console: a Self Client code, scopes checked first. */
  demoSelfClientCode(scopesText: string): Promise<{ code: string; expiresInSec: number }> {
    return this.flows.demoSelfClientCode(scopesText);
  }

  /**
   * Revokes the refresh token, removes the keychain entries, and keeps the account (signed out,
   * its local data kept) or deletes it with everything mirrored for it.
   */
  async signOut(
    accountId: string,
    deleteLocalData: boolean,
  ): Promise<{ state: AccountsState; message: string }> {
    const account = this.context.requireAccount(accountId);
    const store = this.context.secretsFor(account.profileId);
    let revokeNote = '';
    if (account.status === 'signed_in') {
      revokeNote = await this.revoke(account, store);
    }
    this.accounts.detach(account);
    await store.deletePassword(KEYCHAIN_SERVICE, refreshTokenEntry(accountId)).catch(() => false);
    await store.deletePassword(KEYCHAIN_SERVICE, clientSecretEntry(accountId)).catch(() => false);
    let message: string;
    if (deleteLocalData) {
      this.context.repository.delete(accountId, () =>
        this.context.mirror.deleteAccountPortals(accountId),
      );
      const next = this.context.repository.all()[0];
      if (account.active && next) this.context.repository.setActive(next.id);
      message = `Signed out of "${account.label}" and deleted its local data.${revokeNote}`;
    } else {
      message = `Signed out of "${account.label}". Its local data and queued edits are kept; sign in again to sync them.${revokeNote}`;
      this.context.repository.markSignedOut(accountId, message);
    }
    this.accounts.announceSignedOut(accountId);
    return { state: this.changed(), message };
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private async revoke(account: AccountRecord, store: SecretStore): Promise<string> {
    const refreshToken = await store
      .getPassword(KEYCHAIN_SERVICE, refreshTokenEntry(account.id))
      .catch(() => null);
    if (refreshToken === null) return '';
    try {
      await revokeRefreshToken(
        { accountsUrl: account.accountsUrl, refreshToken },
        { profileName: this.context.profileName(account.profileId), during: 'the sign-out' },
        this.context.endpointOptions(),
      );
      return '';
    } catch (error) {
      // Already revoked elsewhere: nothing left to give back.
      if (error instanceof OAuthError && error.code === 'invalid_code') return '';
      return ` The service could not be told to revoke the sign-in (${error instanceof Error ? error.message : String(error)}); revoke PortalDesk's access in the service's account settings if this computer is not yours.`;
    }
  }

  private summary(account: AccountRecord): AccountSummary {
    const runtime = this.accounts.runtime(account.id);
    const status = runtime?.status;
    const profile = this.context.profileFor(account.profileId);
    const dcLabel = profile?.dataCenters[account.dc]?.label ?? account.dc.toUpperCase();
    return {
      accountId: account.id,
      label: account.label,
      profileId: account.profileId,
      profileName: this.context.profileName(account.profileId),
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
}
