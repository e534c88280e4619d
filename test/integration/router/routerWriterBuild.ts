/**
 * The router's writer thread built from its sources for tests: the app gets it from electron-vite
 * (`?modulePath`), which vitest does not apply, and a worker thread cannot run TypeScript. Vite
 * bundles it into one CommonJS file in a temporary folder, better-sqlite3 left outside the bundle
 * and required by its absolute path (as test/unit/mirror/customFieldIndexWorkerBuild.ts does).
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let built: Promise<string> | undefined;

/** The path of the bundled writer thread (built once per process). */
export function routerWriterScript(): Promise<string> {
  built ??= (async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-router-writer-'));
    const sqlite = createRequire(path.join(root, 'package.json')).resolve('better-sqlite3');
    await build({
      configFile: false,
      logLevel: 'silent',
      root,
      build: {
        ssr: path.join(root, 'src/main/router/routerWriterWorker.ts'),
        outDir,
        emptyOutDir: false,
        minify: false,
        rollupOptions: {
          external: ['better-sqlite3'],
          output: {
            format: 'cjs',
            entryFileNames: 'routerWriterWorker.cjs',
            paths: { 'better-sqlite3': sqlite },
          },
        },
      },
      ssr: { noExternal: true, external: ['better-sqlite3'] },
    });
    return path.join(outDir, 'routerWriterWorker.cjs');
  })();
  return built;
}
