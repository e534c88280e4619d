/**
 * The custom-field index worker built from its sources for tests and benchmarks: the app gets it
 * from electron-vite (`?modulePath`), which vitest does not apply, and a worker thread cannot run
 * TypeScript. Vite bundles it into one CommonJS file in a temporary folder, better-sqlite3 left
 * outside the bundle and required by its absolute path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let built: Promise<string> | undefined;
let builtIn: string | undefined;

/** The path of the bundled worker (built once per process). */
export function customFieldIndexWorkerScript(): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-index-worker-'));
    builtIn = outDir;
    process.once('exit', removeCustomFieldIndexWorkerBuild);
    const sqlite = createRequire(path.join(root, 'package.json')).resolve('better-sqlite3');
    await build({
      configFile: false,
      logLevel: 'silent',
      root,
      build: {
        ssr: path.join(root, 'src/main/store/mirror/customFieldIndexWorker.ts'),
        outDir,
        emptyOutDir: false,
        minify: false,
        rollupOptions: {
          external: ['better-sqlite3'],
          output: {
            format: 'cjs',
            entryFileNames: 'customFieldIndexWorker.cjs',
            paths: { 'better-sqlite3': sqlite },
          },
        },
      },
      ssr: { noExternal: true, external: ['better-sqlite3'] },
    });
    return path.join(outDir, 'customFieldIndexWorker.cjs');
  })();
  return built;
}

/** Deletes the bundle (vitest may end its workers without an `exit` event: call in afterAll). */
export function removeCustomFieldIndexWorkerBuild(): void {
  if (builtIn) rmSync(builtIn, { recursive: true, force: true });
  builtIn = undefined;
  built = undefined;
}
