/**
 * Where the built mirror's writer thread is: electron-vite bundles mirrorWriterWorker.ts as
 * a file of its own and gives its path here. Under vitest (the sources, no build) the import is
 * the module itself, which has no default export, so this is undefined and the sync writes on the
 * engine's connection unless a test hands it a built worker
 * (test/unit/store/mirror/mirrorWriterBuild.ts).
 */
import builtWorker from './mirrorWriterWorker?modulePath';

export const MIRROR_WRITER_SCRIPT: string | undefined =
  typeof builtWorker === 'string' ? builtWorker : undefined;
