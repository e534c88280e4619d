/**
 * Where backups live on disk, decided without touching it: `<data dir>/backups/<portal id>/
 * <timestamp>-<export id>.zip`, downloaded first to the same name with `.part` appended, renamed
 * only once complete and verified. And whether a path is one of ours (what the desktop may drag
 * out or show in a folder): the renderer names a backup by id, never by path, and even a path
 * from our own table is checked again before a file leaves the window.
 */
import path from 'node:path';

export const BACKUPS_FOLDER = 'backups';
export const PART_SUFFIX = '.part';

/** The service's export ids are digits in the emulator; anything file-safe is accepted. */
const SAFE_EXPORT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PORTAL_ID = /^\d{1,20}$/;
const FILE_NAME = /^\d{8}T\d{6}Z-[A-Za-z0-9_-]{1,64}\.zip$/;

/** `2026-11-26T09:12:03.000Z` → `20261126T091203Z`. */
export function compactTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a time: ${iso}`);
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The archive's path under the backups folder (forward slashes, as stored). `madeAt` is when the
 * service completed it (or, if it never said, when it was requested).
 */
export function backupRelativePath(portalId: string, madeAt: string, exportId: string): string {
  if (!PORTAL_ID.test(portalId)) throw new Error(`Not a portal id: ${portalId}`);
  if (!SAFE_EXPORT_ID.test(exportId)) {
    throw new Error(
      `The service named this backup "${exportId.slice(0, 80)}", which cannot be a file name; it was not downloaded.`,
    );
  }
  return `${portalId}/${compactTimestamp(madeAt)}-${exportId}.zip`;
}

/**
 * The absolute path of a stored relative path, or null when it is not the shape we write (a row
 * edited by hand, a path with `..`, another folder): such a file is never opened, dragged or
 * deleted.
 */
export function resolveBackupFile(dataDir: string, relative: string): string | null {
  const parts = relative.split('/');
  if (parts.length !== 2) return null;
  const [portal, name] = parts as [string, string];
  if (!PORTAL_ID.test(portal) || !FILE_NAME.test(name)) return null;
  const folder = path.resolve(dataDir, BACKUPS_FOLDER);
  const file = path.resolve(folder, portal, name);
  return path.dirname(path.dirname(file)) === folder ? file : null;
}

export const partFileOf = (file: string) => file + PART_SUFFIX;

/**
 * What is wrong with a download link the service gave, or null: only http(s) addresses are
 * fetched (never `file:`, `data:` or anything a fetch would read from this computer), and never
 * one that carries a user name or password.
 */
export function downloadUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The service's download link is not an address ("${url.slice(0, 80)}").`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `The service's download link uses ${parsed.protocol.slice(0, 20)}, not http(s); it was not followed.`;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return "The service's download link carries a user name or password; it was not followed.";
  }
  return null;
}
