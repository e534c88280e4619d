/**
 * Where the built export thread is: electron-vite bundles exportWorker.ts as a file of its own
 * and gives its path here. Under vitest (the sources, no build) the import is the module itself,
 * which has no default export, so this is undefined and exports run on the engine's thread unless
 * a test hands it a built worker (test/unit/recordsExport/exportThread.test.ts).
 */
import builtWorker from './exportWorker?modulePath';

export const EXPORT_WORKER_SCRIPT: string | undefined =
  typeof builtWorker === 'string' ? builtWorker : undefined;
