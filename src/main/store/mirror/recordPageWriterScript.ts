/**
 * Where the built record page writer thread is: electron-vite bundles recordPageWriterWorker.ts as
 * a file of its own and gives its path here. Under vitest (the sources, no build) the import is
 * the module itself, which has no default export, so this is undefined and pages are stored on the
 * engine's connection unless a test hands it a built worker
 * (test/unit/store/mirror/recordPageWriterBuild.ts).
 */
import builtWorker from './recordPageWriterWorker?modulePath';

export const RECORD_PAGE_WRITER_SCRIPT: string | undefined =
  typeof builtWorker === 'string' ? builtWorker : undefined;
