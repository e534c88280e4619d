/**
 * Where exports go: the data directory's `exports` folder (the same in desktop and web mode; the
 * engine writes there in plain Node), named after the module and the moment, the last
 * EXPORTS_KEPT kept. Names are pure; the folder's upkeep touches the disk.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { EXPORTS_KEPT, type ExportFormat } from '../../shared/ipc/areas/recordsExport';

export const EXPORTS_FOLDER = 'exports';

/** `portaldesk-Assets-2026-01-31T10-04-05Z.csv`: the module and when, safe in any file system. */
export function exportFileName(moduleName: string, format: ExportFormat, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  const module =
    moduleName
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'records';
  return `portaldesk-${module}-${stamp}.${format}`;
}

/** A name not taken in `dir` (two exports of one module in the same second get `-2`, `-3`...). */
export async function freeName(dir: string, fileName: string): Promise<string> {
  const ext = path.extname(fileName);
  const base = fileName.slice(0, -ext.length);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? fileName : `${base}-${n}${ext}`;
    const taken = await stat(path.join(dir, candidate)).then(
      () => true,
      () =>
        stat(path.join(dir, `${candidate}.part`)).then(
          () => true,
          () => false,
        ),
    );
    if (!taken) return candidate;
  }
}

/**
 * Makes the folder, and removes all but the newest `keep - 1` finished exports (room for the one
 * starting) and any partial file a crash left. Files it did not make are left alone.
 */
export async function prepareExportsFolder(dir: string, keep = EXPORTS_KEPT): Promise<void> {
  await mkdir(dir, { recursive: true });
  const names = (await readdir(dir)).filter((name) =>
    /^portaldesk-.*\.(csv|xlsx)(\.part)?$/.test(name),
  );
  const partial = names.filter((name) => name.endsWith('.part'));
  const finished = await Promise.all(
    names
      .filter((name) => !name.endsWith('.part'))
      .map(async (name) => ({ name, at: (await stat(path.join(dir, name))).mtimeMs })),
  );
  finished.sort((a, b) => b.at - a.at);
  const old = [...partial, ...finished.slice(Math.max(0, keep - 1)).map((f) => f.name)];
  await Promise.all(old.map((name) => rm(path.join(dir, name), { force: true })));
}
