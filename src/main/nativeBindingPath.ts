import path from 'node:path';

/** Where `npm run native:electron` puts better-sqlite3 built for Electron's ABI. */
export const ELECTRON_NATIVE_DIR = path.join('native', 'electron');
export const SQLITE_BINARY = 'better_sqlite3.node';

/**
 * The better-sqlite3 binary Electron loads. node_modules keeps the Node build (tests, web mode);
 * Electron gets its own copy: next to the app in development, in resources/ when packaged.
 */
export function electronSqliteBinding(options: {
  isPackaged: boolean;
  appPath: string;
  resourcesPath: string;
}): string {
  return options.isPackaged
    ? path.join(options.resourcesPath, 'native', SQLITE_BINARY)
    : path.join(options.appPath, ELECTRON_NATIVE_DIR, SQLITE_BINARY);
}
