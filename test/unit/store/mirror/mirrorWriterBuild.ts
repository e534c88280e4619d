/** The mirror's writer thread bundled for tests (see test/support/workerBundle.ts). */
import { workerBundle } from '../../../support/workerBundle';

const bundle = workerBundle('src/main/store/mirror/mirrorWriterWorker.ts');

/** The path of the bundled worker (built once per process). */
export const mirrorWriterScript = bundle.script;

/** Deletes the bundle (call in afterAll). */
export const removeMirrorWriterBuild = bundle.remove;
