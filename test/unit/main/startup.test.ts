import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirFlag, osAppDataDir, resolveDataDir } from '../../../src/main/dataDir';
import { electronSqliteBinding } from '../../../src/main/nativeBindingPath';
import { browserCommand } from '../../../src/main/openBrowser';
import { parseWebArgs } from '../../../src/main/webArgs';

describe('data directory', () => {
  it("matches Electron's app-data folder on each OS", () => {
    expect(osAppDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config');
    expect(osAppDataDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/ann')).toBe('/x');
    expect(osAppDataDir('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support');
    expect(
      osAppDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann'),
    ).toBe('C:\\Users\\ann\\AppData\\Roaming');
  });

  it('prefers --data-dir, then PORTALDESK_DATA_DIR, then the default', () => {
    const base = { defaultDir: '/default', cwd: '/work' };
    expect(resolveDataDir({ ...base, flag: 'rel', env: { PORTALDESK_DATA_DIR: '/env' } })).toEqual({
      dir: path.resolve('/work', 'rel'),
      source: 'flag',
    });
    expect(
      resolveDataDir({ ...base, flag: undefined, env: { PORTALDESK_DATA_DIR: '/env' } }),
    ).toEqual({ dir: path.resolve('/env'), source: 'environment' });
    expect(resolveDataDir({ ...base, flag: undefined, env: {} })).toEqual({
      dir: '/default',
      source: 'default',
    });
  });

  it('finds --data-dir among Electron and Chromium arguments', () => {
    expect(dataDirFlag(['electron', '.', '--no-sandbox', '--data-dir', '/d'])).toBe('/d');
    expect(dataDirFlag(['electron', '--data-dir=/e'])).toBe('/e');
    expect(dataDirFlag(['electron', '.'])).toBeUndefined();
  });
});

describe('web mode arguments', () => {
  it('parse port, no-open and data-dir', () => {
    expect(parseWebArgs(['--port', '8123', '--no-open', '--data-dir', '/d'])).toEqual({
      port: 8123,
      open: false,
      dataDir: '/d',
      help: false,
    });
    expect(parseWebArgs(['--port=0'])).toMatchObject({ port: 0, open: true });
  });

  it('refuse unknown or malformed arguments with a reason', () => {
    expect(parseWebArgs(['--port', 'eighty'])).toEqual({
      error: '--port needs a whole number from 0 to 65535, not "eighty".',
    });
    expect(parseWebArgs(['--port', '70000'])).toHaveProperty('error');
    expect(parseWebArgs(['--port'])).toHaveProperty('error');
    expect(parseWebArgs(['--data-dir'])).toHaveProperty('error');
    expect(parseWebArgs(['--host', '0.0.0.0'])).toEqual({ error: 'Unknown argument "--host".' });
  });

  it('say in words what util.parseArgs found: a stray word, a value missing, a flag taken for one', () => {
    expect(parseWebArgs(['8123'])).toEqual({ error: 'Unknown argument "8123".' });
    expect(parseWebArgs(['--port'])).toEqual({
      error: '--port needs a value (write --name=value for one that starts with "-").',
    });
    // `--no-open` is not taken as the port's value.
    expect(parseWebArgs(['--port', '--no-open'])).toHaveProperty(
      'error',
      expect.stringMatching(/^--port needs a value/),
    );
    expect(parseWebArgs(['-h'])).toMatchObject({ help: true });
    expect(parseWebArgs(['--data-dir=/with=equals'])).toMatchObject({ dataDir: '/with=equals' });
  });
});

describe('launch helpers', () => {
  it('open the default browser with each OS own command', () => {
    expect(browserCommand('linux', 'http://x/#s')).toEqual({
      command: 'xdg-open',
      args: ['http://x/#s'],
    });
    expect(browserCommand('darwin', 'http://x/').command).toBe('open');
  });

  it('on Windows, hand the URL to no shell: every character of it reaches the browser', () => {
    // cmd.exe splits a command line at & | < > and runs the rest; ^ escapes and %NAME% expands.
    const cmdSpecial = /[&|<>^%]/;
    const env = { SystemRoot: 'C:\\Windows' };
    const urls = [
      'https://accounts.example.com/oauth/v2/auth?scope=PMS.x&client_id=1&state=abc',
      'https://x.example/?&\\\\evil.example\\share\\app.exe',
      'https://x.example/?q=%USERNAME%|calc^',
      'http://127.0.0.1:5123/#secret=0123abcd',
    ];
    for (const url of urls) {
      const { command, args } = browserCommand('win32', url, env);
      expect(path.win32.basename(command).toLowerCase()).not.toMatch(/^(cmd|powershell)(\.exe)?$/);
      // A full path: Windows looks for a bare name in the current directory first.
      expect(path.win32.isAbsolute(command)).toBe(true);
      const last = args.at(-1) as string;
      expect(new URL(last).href).toBe(new URL(url).href);
      if (cmdSpecial.test(url)) expect(last).toMatch(cmdSpecial);
    }
    // Spaces and quotes are percent-encoded, so the argument is never quoted around the URL.
    const spaced = browserCommand('win32', 'https://x.example/a b?c="d"', env).args.at(
      -1,
    ) as string;
    expect(spaced).not.toMatch(/[ "]/);
    expect(browserCommand('win32', 'http://x/', {}).command).toBe(
      'C:\\Windows\\System32\\rundll32.exe',
    );
  });

  it('load the Electron-ABI SQLite build from resources when packaged', () => {
    const where = { appPath: '/app', resourcesPath: '/res' };
    expect(electronSqliteBinding({ ...where, isPackaged: true })).toBe(
      path.join('/res', 'native', 'better_sqlite3.node'),
    );
    expect(electronSqliteBinding({ ...where, isPackaged: false })).toBe(
      path.join('/app', 'native', 'electron', 'better_sqlite3.node'),
    );
  });
});
