/** The router's writer thread bundled for tests (see test/support/workerBundle.ts). */
import { workerBundle } from '../../support/workerBundle';

/** The path of the bundled writer thread (built once per process). */
export const routerWriterScript = workerBundle(
  'src/main/router/store/routerWriterWorker.ts',
).script;
