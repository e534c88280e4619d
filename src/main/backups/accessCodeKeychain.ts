/**
 * Access codes kept in the OS keychain, per portal, when the admin opts in (the same keychain
 * sign-in keeps refresh tokens in): scheduled backups and later verification read them from
 * there. Never in SQLite, never in a log. What the keychain last said of each portal is cached in
 * memory, so the Backups view can say so without asking the keychain each time; a keychain that
 * could not be read (locked, its service down) is remembered as that, not as "no code kept": a
 * code may well be kept in it.
 */
import type { SecretStore } from '../auth/secretStore';

export const ACCESS_CODE_SERVICE = 'PortalDesk backup access codes';
const entry = (portalId: string) => `portal:${portalId}`;

/** What the keychain last said of a portal's code; `unreadable` with the keychain's words. */
export type KeptCode =
  { state: 'kept' } | { state: 'none' } | { state: 'unreadable'; reason: string };

const words = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class AccessCodeKeychain {
  private readonly known = new Map<string, KeptCode>();
  /** Portals the keychain is being asked about for the first time, by `load`. */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly secrets: SecretStore) {}

  /**
   * Reads what these portals have kept, once per portal (at start, and for a portal mirrored
   * since): a portal already asked about is not asked again; one being asked is waited for. A
   * keychain that refuses is noted.
   */
  async load(portalIds: readonly string[]): Promise<void> {
    for (const portalId of portalIds) {
      if (this.known.has(portalId)) continue;
      let read = this.loading.get(portalId);
      if (!read) {
        read = this.get(portalId).then(
          () => undefined,
          () => undefined,
        );
        this.loading.set(portalId, read);
        void read.finally(() => this.loading.delete(portalId));
      }
      await read;
    }
  }

  /** Whether the keychain was asked about this portal (so `state` says what it said). */
  asked(portalId: string): boolean {
    return this.known.has(portalId);
  }

  /** A portal the keychain was never asked about has no code kept by this data directory. */
  state(portalId: string): KeptCode {
    return this.known.get(portalId) ?? { state: 'none' };
  }

  /** The kept code or null; throws (and remembers it) when the keychain cannot be read. */
  async get(portalId: string): Promise<string | null> {
    let code: string | null;
    try {
      code = await this.secrets.getPassword(ACCESS_CODE_SERVICE, entry(portalId));
    } catch (error) {
      this.known.set(portalId, { state: 'unreadable', reason: words(error) });
      throw error;
    }
    this.known.set(portalId, { state: code ? 'kept' : 'none' });
    return code;
  }

  /** Throws KeychainUnavailableError (in words) when no keychain can hold it. */
  async keep(portalId: string, code: string): Promise<void> {
    await this.secrets.ensureAvailable();
    await this.secrets.setPassword(ACCESS_CODE_SERVICE, entry(portalId), code);
    this.known.set(portalId, { state: 'kept' });
  }

  /** Throws when the keychain refuses: the code is then still kept, and must be said so. */
  async forget(portalId: string): Promise<void> {
    await this.secrets.deletePassword(ACCESS_CODE_SERVICE, entry(portalId));
    this.known.set(portalId, { state: 'none' });
  }
}
