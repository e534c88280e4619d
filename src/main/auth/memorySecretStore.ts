import { KeychainUnavailableError, type SecretStore } from './secretStore';

/**
 * Secrets in memory, gone with the process: for tests, which must not touch the user's keychain.
 * `unavailable` makes it behave like a machine without a keychain.
 */
export class MemorySecretStore implements SecretStore {
  readonly entries = new Map<string, string>();
  unavailable: string | null = null;

  private key(service: string, account: string): string {
    return `${service}\u0000${account}`;
  }

  ensureAvailable(): Promise<void> {
    return this.unavailable === null
      ? Promise.resolve()
      : Promise.reject(new KeychainUnavailableError(this.unavailable));
  }

  async getPassword(service: string, account: string): Promise<string | null> {
    return this.entries.get(this.key(service, account)) ?? null;
  }

  async setPassword(service: string, account: string, password: string): Promise<void> {
    await this.ensureAvailable();
    this.entries.set(this.key(service, account), password);
  }

  async deletePassword(service: string, account: string): Promise<boolean> {
    return this.entries.delete(this.key(service, account));
  }
}
