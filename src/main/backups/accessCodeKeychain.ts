/**
 * Access codes kept in the OS keychain, per portal, when the admin opts in (the same keychain
 * sign-in keeps refresh tokens in): scheduled backups and later verification read them from
 * there. Never in SQLite, never in a log. Which portals have one is cached in memory, so the
 * Backups view can say so without asking the keychain each time.
 */
import type { SecretStore } from '../auth/secretStore';

export const ACCESS_CODE_SERVICE = 'PortalDesk backup access codes';
const entry = (portalId: string) => `portal:${portalId}`;

export class AccessCodeKeychain {
  private readonly kept = new Set<string>();

  constructor(private readonly secrets: SecretStore) {}

  /** Reads which of these portals have a code kept (once, at start). */
  async load(portalIds: readonly string[]): Promise<void> {
    for (const portalId of portalIds) {
      const code = await this.secrets
        .getPassword(ACCESS_CODE_SERVICE, entry(portalId))
        .catch(() => null);
      if (code) this.kept.add(portalId);
    }
  }

  has(portalId: string): boolean {
    return this.kept.has(portalId);
  }

  async get(portalId: string): Promise<string | null> {
    const code = await this.secrets.getPassword(ACCESS_CODE_SERVICE, entry(portalId));
    if (code) this.kept.add(portalId);
    else this.kept.delete(portalId);
    return code;
  }

  /** Throws KeychainUnavailableError (in words) when no keychain can hold it. */
  async keep(portalId: string, code: string): Promise<void> {
    await this.secrets.ensureAvailable();
    await this.secrets.setPassword(ACCESS_CODE_SERVICE, entry(portalId), code);
    this.kept.add(portalId);
  }

  /** Throws when the keychain refuses: the code is then still kept, and must be said so. */
  async forget(portalId: string): Promise<void> {
    await this.secrets.deletePassword(ACCESS_CODE_SERVICE, entry(portalId));
    this.kept.delete(portalId);
  }
}
