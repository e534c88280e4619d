/**
 * What the sign-in flows and the signed-in runtime both need to know about accounts: their
 * profiles (stored ones and the embedded demo's), which keychain holds an account's secrets, the
 * demo portal, the clock, and how a failure becomes a message for the user. One instance per
 * AccountManager; it keeps no state of its own beyond the stored accounts.
 */
import type Database from 'better-sqlite3';
import { accountsUrl, type ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import type { ApiScheduler } from '../api/client/apiScheduler';
import { MetadataRepository } from '../store/mirror/metadataRepository';
import { UserFacingError } from '../bridge/dispatcher';
import { AccountRepository, type AccountRecord } from './accountRepository';
import { SignInError } from './browserSignIn';
import { DEMO_PROFILE_ID, DEMO_PROFILE_NAME, type DemoService } from './demoService';
import { LoopbackPortBusyError } from './loopbackListener';
import { OAuthError } from './oauthError';
import { oauthErrorField } from './oauthErrorMessage';
import { redactSecrets } from './redactSecrets';
import { checkScopeList } from './scopeList';
import { removeSignInPage } from './signInPage';
import { KeychainUnavailableError, type SecretStore } from './secretStore';
import { SignedOutError, type TokenClock } from './tokenManager';

/** The keychain's service name; entries are `<account id>:refresh_token` / `:client_secret`. */
export const KEYCHAIN_SERVICE = 'PortalDesk';
export const refreshTokenEntry = (accountId: string) => `${accountId}:refresh_token`;
export const clientSecretEntry = (accountId: string) => `${accountId}:client_secret`;

export interface AccountManagerOptions {
  db: Database.Database;
  /** The OS keychain (tests: an in-memory store). */
  secrets: SecretStore;
  /** The embedded demo portal; null where there is none (some tests). */
  demo: DemoService | null;
  /** Opens the system browser (Electron: shell.openExternal; web mode: the OS browser). */
  openExternal(url: string): unknown;
  /**
   * Where `openExternal` writes the private sign-in page (the data directory: signInPage.ts):
   * the page is removed there when a browser sign-in ends, and when the manager starts (a crash
   * may have left it). None: the opener writes no page (tests' window-less browsers).
   */
  signInPageDir?: string;
  /** For listing portals after a sign-in; the app's request scheduler when it has one. */
  scheduler?: ApiScheduler;
  clock?: TokenClock;
  fetch?: typeof globalThis.fetch;
  signInTimeoutMs?: number;
  log?: { warn(message: string): void };
  /**
   * The mirror's portals, which an account deleted with its local data takes along (the mirror
   * owns those tables); by default a repository on `db`.
   */
  mirror?: Pick<MetadataRepository, 'deleteAccountPortals'>;
}

/** Known failures become messages for the user; anything else stays a bug. */
export function userFacing(error: unknown): unknown {
  if (error instanceof OAuthError) {
    const field = oauthErrorField(error.code);
    return new UserFacingError(error.message, field ? { field } : {});
  }
  if (
    error instanceof SignInError ||
    error instanceof KeychainUnavailableError ||
    error instanceof LoopbackPortBusyError ||
    error instanceof SignedOutError
  ) {
    return new UserFacingError(error.message);
  }
  return error;
}

export class AccountContext {
  readonly repository: AccountRepository;
  readonly mirror: Pick<MetadataRepository, 'deleteAccountPortals'>;

  constructor(readonly options: AccountManagerOptions) {
    this.repository = new AccountRepository(options.db);
    this.mirror = options.mirror ?? new MetadataRepository(options.db);
  }

  get demo(): DemoService | null {
    return this.options.demo;
  }

  /** The demo portal, started if it is not running yet. */
  async startDemo() {
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

  /** A stored profile, or the demo's while it runs; undefined when there is none. */
  profileFor(profileId: string): ServiceProfile | undefined {
    if (profileId === DEMO_PROFILE_ID) return this.options.demo?.profile;
    return this.repository.profiles().profiles.find((profile) => profile.id === profileId);
  }

  /** A stored profile a sign-in can use; the demo and unknown ids are refused in words. */
  storedProfile(profileId: string): ServiceProfile {
    if (profileId === DEMO_PROFILE_ID) {
      throw new UserFacingError('Use "Try the demo portal" to sign in to the demo portal.', {
        field: 'profileId',
      });
    }
    const profile = this.repository.profiles().profiles.find((p) => p.id === profileId);
    if (!profile) {
      throw new UserFacingError(
        `No service profile "${profileId}" is known; nothing was sent. Add the profile first, or pick another.`,
        { field: 'profileId' },
      );
    }
    return profile;
  }

  profileName(profileId: string): string {
    if (profileId === DEMO_PROFILE_ID) return DEMO_PROFILE_NAME;
    return this.repository.profiles().profiles.find((p) => p.id === profileId)?.name ?? profileId;
  }

  /** The accounts server of a data center, or a refusal naming what the profile knows. */
  accountsServer(profile: ServiceProfile, dataCenter: string): string {
    if (!Object.hasOwn(profile.dataCenters, dataCenter)) {
      throw new UserFacingError(
        `${profile.name} has no data center "${dataCenter}"; it knows ${Object.keys(profile.dataCenters).join(', ')}. Nothing was sent.`,
        { field: 'dataCenter' },
      );
    }
    const server = accountsUrl(profile, dataCenter);
    if (!server) {
      throw new UserFacingError(
        `Data center ${dataCenter.toUpperCase()} of ${profile.name} serves the API only and has no sign-in; pick the data center where your account was created. Nothing was sent.`,
        { field: 'dataCenter' },
      );
    }
    return server;
  }

  checkScopes(text: string | readonly string[], profile: ServiceProfile): string[] {
    const checked = checkScopeList(text, profile);
    if (!checked.ok) throw new UserFacingError(checked.error, { field: 'scopes' });
    return checked.scopes;
  }

  /** The demo keeps its secrets apart from the OS keychain. */
  secretsFor(profileId: string): SecretStore {
    if (profileId === DEMO_PROFILE_ID && this.options.demo) return this.options.demo.secrets;
    return this.options.secrets;
  }

  async ensureSecretStore(profileId: string): Promise<void> {
    try {
      await this.secretsFor(profileId).ensureAvailable();
    } catch (error) {
      throw userFacing(error);
    }
  }

  requireAccount(accountId: string): AccountRecord {
    const account = this.repository.get(accountId);
    if (!account) {
      throw new UserFacingError(
        `No account "${accountId}" exists (it may have been removed); nothing was changed.`,
      );
    }
    return account;
  }

  now(): number {
    return this.options.clock?.now() ?? Date.now();
  }

  endpointOptions() {
    return this.options.fetch ? { fetch: this.options.fetch } : {};
  }

  log(message: string): void {
    this.options.log?.warn(redactSecrets(message));
  }

  /** The private sign-in page, gone (signInPage.ts); a failure to remove it is logged. */
  removeSignInPage(): void {
    if (this.options.signInPageDir === undefined) return;
    try {
      removeSignInPage(this.options.signInPageDir);
    } catch (error) {
      this.log(`The sign-in page could not be removed: ${String(error)}`);
    }
  }
}
