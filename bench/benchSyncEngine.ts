/**
 * The sync engine as bench/sync.bench.ts and bench/scale.bench.ts run it: the app's API client on
 * the real request scheduler, signed in to the bench emulator, and a SyncEngine over the store's
 * mirror (comment backfill off), its writes made as BENCH_PAGE_WRITER says:
 * `thread` (default, as the app makes them: mirrorWriterThread.ts, the worker bundled from
 * its sources by test/support/workerBundle.ts) or `inline` (on the engine's connection).
 */
import { createApiClient } from '../src/main/api/client/apiClient';
import { emulatorServiceProfile } from '../src/main/api/client/emulatorProfile';
import type { RequestScheduler } from '../src/main/api/requestScheduler';
import { Mirror } from '../src/main/store/mirror/mirror';
import { inlineMirrorWriter } from '../src/main/store/mirror/mirrorWriter';
import { MirrorWriterThread } from '../src/main/store/mirror/mirrorWriterThread';
import type { Store } from '../src/main/store/store';
import { SyncEngine } from '../src/main/sync/syncEngine';
import { workerBundle } from '../test/support/workerBundle';
import type { BenchEmulator } from './startBenchEmulator';

export type PageWriterKind = 'thread' | 'inline';

export function pageWriterKind(): PageWriterKind {
  const kind = process.env.BENCH_PAGE_WRITER ?? 'thread';
  if (kind !== 'thread' && kind !== 'inline') {
    throw new Error(`BENCH_PAGE_WRITER is "thread" or "inline", not "${kind}".`);
  }
  return kind;
}

export async function benchSyncEngine(options: {
  emulator: BenchEmulator;
  store: Store;
  scheduler: RequestScheduler;
  scopes: string;
}) {
  const { emulator, store, scheduler } = options;
  const client = createApiClient({
    profile: emulatorServiceProfile(emulator.facts),
    dataCenter: 'us',
    tokens: await emulator.signIn(options.scopes),
    scheduler,
    onMalformed: (report) => console.error(`malformed: ${report.endpoint.label}`),
  });
  const mirror = new Mirror(store.db);
  const kind = pageWriterKind();
  const bundle =
    kind === 'thread' ? workerBundle('src/main/store/mirror/mirrorWriterWorker.ts') : null;
  const thread = bundle
    ? new MirrorWriterThread(
        { script: await bundle.script(), file: store.file },
        inlineMirrorWriter(mirror),
      )
    : null;
  const warnings: string[] = [];
  const engine = new SyncEngine({
    mirror,
    writer: thread?.writer ?? inlineMirrorWriter(mirror),
    budgets: () => scheduler.report(),
    commentBackfill: false,
    log: { warn: (message) => warnings.push(message) },
  });
  return {
    client,
    mirror,
    engine,
    warnings,
    account: { accountId: 'bench', client },
    pageWriter: kind,
    /** Waits for the writes handed over and ends the thread (before the store closes). */
    close(): void {
      thread?.close();
      bundle?.remove();
    },
  };
}
