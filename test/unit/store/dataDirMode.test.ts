import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('keeps the permissions of a directory the user made beforehand', () => {
    const dataDir = tempDir();
    const before = statSync(dataDir).mode & 0o777;
    Store.open({ dataDir, mode: 'web' }).close();
    expect(statSync(dataDir).mode & 0o777).toBe(before);
  });
});
