/** The custom-field index worker bundled for tests and benchmarks (see test/support/workerBundle.ts). */
import { workerBundle } from '../../../support/workerBundle';

const bundle = workerBundle('src/main/store/mirror/customFieldIndexWorker.ts');

/** The path of the bundled worker (built once per process). */
export const customFieldIndexWorkerScript = bundle.script;

/** Deletes the bundle (call in afterAll). */
export const removeCustomFieldIndexWorkerBuild = bundle.remove;
