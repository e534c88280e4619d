/**
 * Where refresh tokens and client secrets are kept: keytar's API (service + account → password),
 * so the OS keychain (keychainSecretStore.ts) and an in-memory store for tests are
 * interchangeable.
 */
export interface SecretStore {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  /** True when an entry was deleted. */
  deletePassword(service: string, account: string): Promise<boolean>;
  /**
   * Resolves when secrets can be stored now; rejects with KeychainUnavailableError (with the
   * reason and how to enable a keychain) when they cannot. Asked before a sign-in starts.
   */
  ensureAvailable(): Promise<void>;
}

/** No keychain can be used: sign-in refuses instead of keeping a secret in clear text. */
export class KeychainUnavailableError extends Error {
  override name = 'KeychainUnavailableError';
}
