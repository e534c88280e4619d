import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'portaldesk.lock';

interface LockContents {
  pid: number;
  mode: string;
  startedAt: string;
}

/** Another PortalDesk process (desktop or web mode) already owns this data directory. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContents | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContents>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      mode: String(parsed.mode ?? 'unknown'),
      startedAt: String(parsed.startedAt ?? '?'),
    };
  } catch {
    return null;
  }
}

/** Directories this process holds: opening one twice would make two writers. */
const heldByThisProcess = new Set<string>();

/**
 * The store has one writer: this process. Desktop and web mode share the OS data directory, so a
 * lock file with the owner's pid keeps a second process out with a message saying who holds it.
 * A lock left by a process that no longer runs (a crash, kill -9) is taken over.
 */
export function acquireDataDirLock(dataDir: string, mode: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const key = path.resolve(dataDir);
  if (heldByThisProcess.has(key)) {
    throw new DataDirInUseError(
      `The data directory ${dataDir} is already open in this PortalDesk process. Nothing was changed.`,
    );
  }
  const contents = JSON.stringify({ pid: process.pid, mode, startedAt: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, contents);
      closeSync(fd);
      heldByThisProcess.add(key);
      return () => {
        heldByThisProcess.delete(key);
        if (readLock(file)?.pid === process.pid) unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readLock(file);
      // Our own pid in a lock we do not hold is a leftover from an earlier process that had it.
      if (owner && owner.pid !== process.pid && isAlive(owner.pid)) {
        throw new DataDirInUseError(
          `PortalDesk is already running with the data directory ${dataDir} ` +
            `(process ${owner.pid}, ${owner.mode} mode, since ${owner.startedAt}). ` +
            'Close it first, or start with --data-dir to use another directory. Nothing was changed.',
        );
      }
      unlinkSync(file);
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}; try again.`);
}
