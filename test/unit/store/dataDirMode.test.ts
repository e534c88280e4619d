import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirChange } from '../../../src/main/store/privateDataDir';
import { Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';

// POSIX permission bits; Windows keeps a user's app data private by its ACLs instead.
describe.skipIf(process.platform === 'win32')('a new data directory', () => {
  it('is readable by its owner only, however permissive the umask', () => {
    const previous = process.umask(0o022);
    try {
      const dataDir = path.join(tempDir(), 'fresh', 'PortalDesk');
      Store.open({ dataDir, mode: 'web' }).close();
      // The mirror, backups and exports live here: another local user must not list or read them.
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(path.dirname(dataDir)).mode & 0o077).toBe(0);
    } finally {
      process.umask(previous);
    }
  });

  it('tightens a data directory made before (0755, files world-readable) to 0700, silently', () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'old-backup.zip'), 'business data', { mode: 0o644 });
    const warnings: string[] = [];
    Store.open({ dataDir, mode: 'web', warn: (message) => warnings.push(message) }).close();
    // Nobody else can reach the database, its WAL or a backup below it any more.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it('says so, and still opens, when the directory cannot be made private', () => {
    // A directory shared on purpose (the sticky bit, as /tmp has) is left alone and reported.
    const dataDir = tempDir();
    chmodSync(dataDir, 0o1777);
    const warnings: string[] = [];
    Store.open({ dataDir, mode: 'web', warn: (message) => warnings.push(message) }).close();
    expect(statSync(dataDir).mode & 0o7777).toBe(0o1777);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dataDir);
    expect(warnings[0]).toMatch(/chmod 700/);
  });
});

describe('what is done with the data directory as found', () => {
  const found = { platform: 'linux' as const, mode: 0o40755, ownerUid: 1000, processUid: 1000 };

  it('closes one open to others, and leaves a private one alone', () => {
    expect(dataDirChange(found)).toEqual({ kind: 'chmod', mode: 0o700 });
    expect(dataDirChange({ ...found, mode: 0o40750 })).toEqual({ kind: 'chmod', mode: 0o700 });
    expect(dataDirChange({ ...found, platform: 'darwin' })).toEqual({ kind: 'chmod', mode: 0o700 });
    expect(dataDirChange({ ...found, mode: 0o40700 })).toEqual({ kind: 'none' });
  });

  it('does nothing on Windows, whose ACLs keep app data private', () => {
    expect(dataDirChange({ ...found, platform: 'win32', processUid: null })).toEqual({
      kind: 'none',
    });
  });

  it('refuses, with the reason, a directory of another account or one shared on purpose', () => {
    expect(dataDirChange({ ...found, ownerUid: 0 })).toMatchObject({ kind: 'refuse' });
    expect(dataDirChange({ ...found, processUid: 0, ownerUid: 0, mode: 0o41777 })).toMatchObject({
      kind: 'refuse',
      reason: expect.stringMatching(/sticky/),
    });
  });
});
