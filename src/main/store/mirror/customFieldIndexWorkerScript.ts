/**
 * Where the built custom-field index worker is: electron-vite bundles customFieldIndexWorker.ts as
 * a file of its own and gives its path here. Under vitest (the sources, no build) the import is the
 * module itself, which has no default export, so this is undefined and the indexer builds nothing
 * unless a test hands it a built worker (test/unit/store/mirror/customFieldIndexWorkerBuild.ts).
 */
import builtWorker from './customFieldIndexWorker?modulePath';

export const CUSTOM_FIELD_INDEX_WORKER_SCRIPT: string | undefined =
  typeof builtWorker === 'string' ? builtWorker : undefined;
