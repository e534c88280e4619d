/** The record page writer's thread bundled for tests (see test/support/workerBundle.ts). */
import { workerBundle } from '../../../support/workerBundle';

const bundle = workerBundle('src/main/store/mirror/recordPageWriterWorker.ts');

/** The path of the bundled worker (built once per process). */
export const recordPageWriterScript = bundle.script;

/** Deletes the bundle (call in afterAll). */
export const removeRecordPageWriterBuild = bundle.remove;
