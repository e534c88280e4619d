/**
 * The data directory is its owner's alone (0700): the mirror, the SQLite file and its WAL,
 * backups and exports are the user's business data, not for other accounts of this computer.
 * A directory made by an older PortalDesk, or by the user, may be 0755 with world-readable files
 * in it; closing the directory closes every path below it, so only the directory is changed.
 */
import { chmodSync, statSync } from 'node:fs';

/** Ours: rwx for the owner, nothing for anyone else. */
export const DATA_DIR_MODE = 0o700;
const STICKY = 0o1000;

export type DataDirChange =
  { kind: 'none' } | { kind: 'chmod'; mode: number } | { kind: 'refuse'; reason: string };

/**
 * What to do with the data directory as found. Windows keeps app data private by its ACLs; a
 * directory another account owns, or one shared on purpose (the sticky bit, as /tmp has), is not
 * ours to close, even for a process running as root.
 */
export function dataDirChange(found: {
  platform: NodeJS.Platform;
  mode: number;
  ownerUid: number;
  processUid: number | null;
}): DataDirChange {
  if (found.platform === 'win32') return { kind: 'none' };
  if ((found.mode & 0o077) === 0) return { kind: 'none' };
  if (found.processUid !== null && found.ownerUid !== found.processUid) {
    return { kind: 'refuse', reason: 'it belongs to another account' };
  }
  if (found.mode & STICKY) {
    return { kind: 'refuse', reason: 'it is a shared directory (its sticky bit is set)' };
  }
  return { kind: 'chmod', mode: DATA_DIR_MODE };
}

/** Makes `dir` private; quiet when done or already so, one warning when it cannot be. */
export function makeDataDirPrivate(dir: string, warn: (message: string) => void): void {
  const problem = (reason: string) =>
    warn(
      `The data directory ${dir} could not be made private (${reason}), so other accounts of this computer may read PortalDesk's data in it. Nothing else changed; run "chmod 700 ${dir}" or pick another directory with --data-dir.`,
    );
  try {
    const stats = statSync(dir);
    const change = dataDirChange({
      platform: process.platform,
      mode: stats.mode,
      ownerUid: stats.uid,
      processUid: process.getuid?.() ?? null,
    });
    if (change.kind === 'chmod') chmodSync(dir, change.mode);
    else if (change.kind === 'refuse') problem(change.reason);
  } catch (error) {
    problem(error instanceof Error ? error.message : String(error));
  }
}
