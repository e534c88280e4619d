/**
 * The sync engine as bench/sync.bench.ts and bench/scale.bench.ts run it: the app's API client on
 * the real request scheduler, signed in to the bench emulator, and a SyncEngine over the store's
 * mirror (comment backfill off), its pages stored as BENCH_PAGE_WRITER says:
 * `thread` (default, as the app stores them: recordPageWriterThread.ts, the worker bundled from
 * its sources by test/support/workerBundle.ts) or `inline` (on the engine's connection).
 */
import { createApiClient } from '../src/main/api/client/apiClient';
import { emulatorServiceProfile } from '../src/main/api/client/emulatorProfile';
import type { RequestScheduler } from '../src/main/api/requestScheduler';
import { Mirror } from '../src/main/store/mirror/mirror';
import { inlinePageWriter, type RecordPageWriter } from '../src/main/store/mirror/recordPageWriter';
import { RecordPageWriterThread } from '../src/main/store/mirror/recordPageWriterThread';
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
    kind === 'thread' ? workerBundle('src/main/store/mirror/recordPageWriterWorker.ts') : null;
  const pageWriter: RecordPageWriter = bundle
    ? new RecordPageWriterThread(
        { script: await bundle.script(), file: store.file },
        inlinePageWriter(mirror),
      )
    : inlinePageWriter(mirror);
  const warnings: string[] = [];
  const engine = new SyncEngine({
    mirror,
    pageWriter,
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
    /** Waits for the pages handed over and ends the thread (before the store closes). */
    close(): void {
      if (pageWriter instanceof RecordPageWriterThread) pageWriter.close();
      bundle?.remove();
    },
  };
}
