/**
 * A worker thread's entry built from its sources for tests and benchmarks: the app gets its
 * workers from electron-vite (`?modulePath`), which vitest does not apply, and a worker thread
 * cannot run TypeScript. Vite bundles the entry into one CommonJS file in a temporary folder,
 * better-sqlite3 (and any other native package named) left outside the bundle and required by its
 * absolute path. A `?modulePath` import in it (electron-vite's "the path of this file, built on
 * its own") is built the same way and becomes that bundle's path, so an entry that starts the
 * engine gets its worker threads as the app does: the crash harness builds its child so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerBundle {
  /** The bundled script's path (built once per process, on first call). */
  script(): Promise<string>;
  /** Deletes the bundle (vitest may end its workers without an `exit` event: call in afterAll). */
  remove(): void;
}

const MODULE_PATH = '?modulePath';
const BUILT_PATH = '\0built-path:';

/** `import x from './worker?modulePath'`: x is the path of the worker bundled on its own. */
function modulePaths(nested: WorkerBundle[]): Plugin {
  return {
    name: 'portaldesk-module-path',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(MODULE_PATH)) return null;
      const resolved = await this.resolve(source.slice(0, -MODULE_PATH.length), importer);
      return resolved ? `${BUILT_PATH}${resolved.id}` : null;
    },
    async load(id) {
      if (!id.startsWith(BUILT_PATH)) return null;
      const bundle = workerBundle(path.relative(root, id.slice(BUILT_PATH.length)));
      nested.push(bundle);
      return `export default ${JSON.stringify(await bundle.script())};`;
    },
  };
}

/**
 * `entry`: the worker's source, relative to the repository, e.g. `src/main/x/xWorker.ts`.
 * `natives`: packages with native bindings besides better-sqlite3 that the entry reaches, left
 * outside the bundle like it (a bundle cannot hold a `.node` file).
 */
export function workerBundle(entry: string, natives: readonly string[] = []): WorkerBundle {
  const name = path.basename(entry, '.ts');
  let built: Promise<string> | undefined;
  let builtIn: string | undefined;
  const nested: WorkerBundle[] = [];
  const remove = () => {
    for (const bundle of nested.splice(0)) bundle.remove();
    if (builtIn) rmSync(builtIn, { recursive: true, force: true });
    builtIn = undefined;
    built = undefined;
  };
  const script = () => {
    built ??= (async () => {
      const outDir = mkdtempSync(path.join(os.tmpdir(), `portaldesk-${name}-`));
      builtIn = outDir;
      process.once('exit', remove);
      const resolve = createRequire(path.join(root, 'package.json')).resolve;
      const external = ['better-sqlite3', ...natives];
      const paths = Object.fromEntries(external.map((name) => [name, resolve(name)]));
      await build({
        configFile: false,
        logLevel: 'silent',
        root,
        plugins: [modulePaths(nested)],
        build: {
          ssr: path.join(root, entry),
          outDir,
          emptyOutDir: false,
          minify: false,
          rollupOptions: {
            external,
            output: { format: 'cjs', entryFileNames: `${name}.cjs`, paths },
          },
        },
        ssr: { noExternal: true, external },
      });
      return path.join(outDir, `${name}.cjs`);
    })();
    return built;
  };
  return { script, remove };
}
