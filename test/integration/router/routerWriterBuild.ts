/** The router's writer thread bundled for tests (see test/support/workerBundle.ts). */
import { workerBundle } from '../../support/workerBundle';

const bundle = workerBundle('src/main/router/store/routerWriterWorker.ts');

/** The path of the bundled writer thread (built once per process). */
export const routerWriterScript = bundle.script;

/**
 * Deletes the bundle: for a test file's afterAll. The process's exit would too, but a test
 * worker ended by the runner does not always get there, and each run left a folder in the OS's
 * temporary directory.
 */
export const removeRouterWriterBundle = bundle.remove;
