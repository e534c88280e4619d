import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE } from '../../../src/main/store/dataDirLock';
import { Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';

describe('data directory lock (one writer)', () => {
  it('refuses to open a data directory twice in one process', () => {
    const dir = tempDir();
    const first = Store.open({ dataDir: dir, mode: 'desktop' });
    expect(() => Store.open({ dataDir: dir, mode: 'web' })).toThrow(/already open in this/);
    first.close();
    Store.open({ dataDir: dir, mode: 'web' }).close();
  });

  it('keeps a store out while another live process holds the lock, saying who', () => {
    const dir = tempDir();
    // The parent of the test worker stands in for another running PortalDesk.
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: process.ppid, mode: 'desktop', startedAt: 'earlier' }),
    );
    expect(() => Store.open({ dataDir: dir, mode: 'web' })).toThrow(DataDirInUseError);
    expect(() => Store.open({ dataDir: dir, mode: 'web' })).toThrow(
      new RegExp(`process ${process.ppid}, desktop mode`),
    );
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: Number(dead.stdout.toString()), mode: 'web', startedAt: 'x' }),
    );
    const store = Store.open({ dataDir: dir, mode: 'web' });
    store.close();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
