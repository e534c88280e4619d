/**
 * The OS keychain through keytar's API, from `@napi-rs/keyring/keytar` (maintained and prebuilt
 * for Windows, macOS and Linux; keytar itself was archived in 2022). macOS Keychain, Windows
 * Credential Manager, or a Secret Service on Linux. Never falls back to anything else.
 */
import type * as KeytarModule from '@napi-rs/keyring/keytar';
import { keychainHelp } from './keychainHelp';
import { KeychainUnavailableError, type SecretStore } from './secretStore';

type Keytar = typeof KeytarModule;

const PROBE_SERVICE = 'PortalDesk keychain check';
const PROBE_ACCOUNT = 'probe';

export class KeychainSecretStore implements SecretStore {
  private keytar: Promise<Keytar> | undefined;

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** Loaded on first use: a platform without the native module fails here, not at start-up. */
  private load(): Promise<Keytar> {
    // The full file name: the package has no "exports" map, so Node's ESM resolution of the
    // built app (unlike Vite's in tests) finds only `keytar.js`, not `keytar`.
    this.keytar ??= import('@napi-rs/keyring/keytar.js').catch((error: unknown) => {
      this.keytar = undefined;
      throw this.unavailable(error);
    });
    return this.keytar;
  }

  private unavailable(error: unknown): KeychainUnavailableError {
    const detail = error instanceof Error ? error.message : String(error);
    return new KeychainUnavailableError(
      `No keychain is available to keep your sign-in safe (${detail}), so PortalDesk did not sign in and stored nothing: it never keeps a token in clear text. ${keychainHelp(this.platform)}`,
    );
  }

  /**
   * A write, a read and a delete of a probe entry: on Linux without a Secret Service a read
   * simply answers "nothing stored", so only a write tells.
   */
  async ensureAvailable(): Promise<void> {
    const keytar = await this.load();
    const value = `probe-${Date.now()}`;
    try {
      await keytar.setPassword(PROBE_SERVICE, PROBE_ACCOUNT, value);
      const read = await keytar.getPassword(PROBE_SERVICE, PROBE_ACCOUNT);
      await keytar.deletePassword(PROBE_SERVICE, PROBE_ACCOUNT);
      if (read !== value) throw new Error('an entry just written could not be read back');
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async getPassword(service: string, account: string): Promise<string | null> {
    const keytar = await this.load();
    try {
      return await keytar.getPassword(service, account);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async setPassword(service: string, account: string, password: string): Promise<void> {
    const keytar = await this.load();
    try {
      await keytar.setPassword(service, account, password);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async deletePassword(service: string, account: string): Promise<boolean> {
    const keytar = await this.load();
    try {
      return await keytar.deletePassword(service, account);
    } catch (error) {
      throw this.unavailable(error);
    }
  }
}
