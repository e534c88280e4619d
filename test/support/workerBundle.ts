/**
 * A worker thread's entry built from its sources for tests and benchmarks: the app gets its
 * workers from electron-vite (`?modulePath`), which vitest does not apply, and a worker thread
 * cannot run TypeScript. Vite bundles the entry into one CommonJS file in a temporary folder,
 * better-sqlite3 left outside the bundle and required by its absolute path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerBundle {
  /** The bundled script's path (built once per process, on first call). */
  script(): Promise<string>;
  /** Deletes the bundle (vitest may end its workers without an `exit` event: call in afterAll). */
  remove(): void;
}

/** `entry`: the worker's source, relative to the repository, e.g. `src/main/x/xWorker.ts`. */
export function workerBundle(entry: string): WorkerBundle {
  const name = path.basename(entry, '.ts');
  let built: Promise<string> | undefined;
  let builtIn: string | undefined;
  const remove = () => {
    if (builtIn) rmSync(builtIn, { recursive: true, force: true });
    builtIn = undefined;
    built = undefined;
  };
  const script = () => {
    built ??= (async () => {
      const outDir = mkdtempSync(path.join(os.tmpdir(), `portaldesk-${name}-`));
      builtIn = outDir;
      process.once('exit', remove);
      const sqlite = createRequire(path.join(root, 'package.json')).resolve('better-sqlite3');
      await build({
        configFile: false,
        logLevel: 'silent',
        root,
        build: {
          ssr: path.join(root, entry),
          outDir,
          emptyOutDir: false,
          minify: false,
          rollupOptions: {
            external: ['better-sqlite3'],
            output: {
              format: 'cjs',
              entryFileNames: `${name}.cjs`,
              paths: { 'better-sqlite3': sqlite },
            },
          },
        },
        ssr: { noExternal: true, external: ['better-sqlite3'] },
      });
      return path.join(outDir, `${name}.cjs`);
    })();
    return built;
  };
  return { script, remove };
}
