import path from 'node:path';

export const DATA_DIR_FLAG = '--data-dir';
export const DATA_DIR_ENV = 'PORTALDESK_DATA_DIR';

/**
 * The OS's per-user app-data folder, as Electron's `app.getPath('appData')` computes it, so desktop
 * and web mode use the same data directory by default.
 */
export function osAppDataDir(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
  home: string,
): string {
  const pathFor = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'win32') return env.APPDATA ?? pathFor.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return pathFor.join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME || pathFor.join(home, '.config');
}

/** `--data-dir DIR` or `--data-dir=DIR` anywhere in argv (Electron adds arguments of its own). */
export function dataDirFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === DATA_DIR_FLAG) return argv[i + 1];
    if (arg.startsWith(`${DATA_DIR_FLAG}=`)) return arg.slice(DATA_DIR_FLAG.length + 1);
  }
  return undefined;
}

export interface ResolvedDataDir {
  dir: string;
  source: 'flag' | 'environment' | 'default';
}

/** The flag wins over the environment, which wins over the OS default. */
export function resolveDataDir(options: {
  flag: string | undefined;
  env: Record<string, string | undefined>;
  defaultDir: string;
  cwd: string;
}): ResolvedDataDir {
  const { flag, env, defaultDir, cwd } = options;
  if (flag) return { dir: path.resolve(cwd, flag), source: 'flag' };
  const fromEnv = env[DATA_DIR_ENV];
  if (fromEnv) return { dir: path.resolve(cwd, fromEnv), source: 'environment' };
  return { dir: defaultDir, source: 'default' };
}
