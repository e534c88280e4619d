/**
 * Web mode's download links: a browser's download (a link, or a file dragged out with
 * Chromium's `DownloadURL` drag data) cannot carry the launch secret in a header, and the secret
 * must not sit in a URL. So each link names one backup through its own random token, valid for a
 * while; the web server asks here which file a token opens.
 */
import { randomBytes } from 'node:crypto';
import { BACKUP_FILE_PATH_PREFIX } from '../../shared/ipc/webProtocol';

/** Ours: a link works for an hour; the Backups view asks for a new one before that. */
export const LINK_TTL_MS = 3_600_000;

export class DownloadLinks {
  private readonly tokens = new Map<string, { backupId: string; expiresAt: number }>();

  /** `prefix`: the web server's path for these links (backups' by default; exports have their own). */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly prefix: string = BACKUP_FILE_PATH_PREFIX,
  ) {}

  mint(backupId: string): { path: string; expiresAt: string } {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + LINK_TTL_MS;
    this.tokens.set(token, { backupId, expiresAt });
    return {
      path: `${this.prefix}${token}`,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The backup a token names, or null (unknown, malformed or expired). */
  resolve(token: string): string | null {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const link = this.tokens.get(token);
    if (!link) return null;
    if (link.expiresAt <= this.now()) {
      this.tokens.delete(token);
      return null;
    }
    return link.backupId;
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, link] of this.tokens) if (link.expiresAt <= now) this.tokens.delete(token);
  }
}
