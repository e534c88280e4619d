/**
 * tempDir removes its directory after the test that made it, even when its module is first
 * imported inside a test (as test/integration/emulator/core.test.ts once did): this file imports it
 * only there. Before, the directory stayed in the OS's temporary folder.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

let made = '';

describe('tempDir imported inside a test', () => {
  it('makes a directory', async () => {
    const { tempDir } = await import('../../support/tempDir');
    made = tempDir();
    expect(existsSync(made)).toBe(true);
  });

  it('has removed it once that test ended', () => {
    expect(made).not.toBe('');
    expect(existsSync(made)).toBe(false);
  });
});
