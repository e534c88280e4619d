/**
 * Where the built writer thread is: electron-vite bundles routerWriterWorker.ts as a file of its
 * own and gives its path here. Under vitest (the sources, no build) the import is the module
 * itself, which has no default export, so this is undefined and the router commits on its own
 * connection unless a test hands it a built worker (test/integration/router/routerWriterBuild.ts).
 */
import builtWorker from './routerWriterWorker?modulePath';

export const ROUTER_WRITER_SCRIPT: string | undefined =
  typeof builtWorker === 'string' ? builtWorker : undefined;
