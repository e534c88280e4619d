/**
 * Where the built overview thread is: electron-vite bundles overviewWorker.ts as a file of its own
 * and gives its path here. Under vitest (the sources, no build) the import is the module itself,
 * which has no default export, so this is undefined and the overview is read on the engine's
 * thread unless a test hands it a built worker (test/integration/overview/overviewThread.test.ts).
 */
import builtWorker from './overviewWorker?modulePath';

export const OVERVIEW_WORKER_SCRIPT: string | undefined =
  typeof builtWorker === 'string' ? builtWorker : undefined;
