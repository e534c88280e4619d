import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, onTestFinished } from 'vitest';

const created: string[] = [];

// Directories made outside a running test (a hook, a file's top level): removed after the next test.
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh, empty directory, removed after the current test. Inside a test it is tied to that test
 * (onTestFinished), however this module was imported: imported from inside a test, the
 * afterEach above is registered too late to run, and such directories stayed in the OS's
 * temporary folder after every run.
 */
export function tempDir(prefix = 'portaldesk-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    // Not inside a test.
    created.push(dir);
  }
  return dir;
}
