/**
 * A process whose only pending work is a write on the mirror's writer thread (as a headless child
 * or a script is): it must wait for it. Bundled by mirrorWriterAlone.test.ts (workerBundle builds
 * the thread it starts, as electron-vite does); prints `stored N` once the write answered.
 */
import { inlineMirrorWriter } from '../../../../src/main/store/mirror/mirrorWriter';
import { MIRROR_WRITER_SCRIPT } from '../../../../src/main/store/mirror/mirrorWriterScript';
import { MirrorWriterThread } from '../../../../src/main/store/mirror/mirrorWriterThread';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Mirror } from '../../../../src/main/store/mirror/mirror';
import { Store } from '../../../../src/main/store/store';

async function main(): Promise<void> {
  if (!MIRROR_WRITER_SCRIPT) throw new Error('the writer thread was not built with this child');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-writer-alone-'));
  const store = Store.open({ dataDir: dir, mode: 'test' });
  const mirror = new Mirror(store.db);
  const thread = new MirrorWriterThread(
    { script: MIRROR_WRITER_SCRIPT, file: store.file },
    inlineMirrorWriter(mirror),
  );
  const changes = await thread.writer.metadata.upsertPortals([
    {
      id: 'p100',
      accountId: 'acc1',
      dc: 'us',
      name: 'northwind',
      orgName: 'Northwind Traders',
      timeZone: 'Asia/Kolkata',
      weekStartDay: 1,
      isDefault: true,
      details: {},
    },
  ]);
  process.stdout.write(`stored ${changes.portals?.inserted.length ?? 0}\n`);
  thread.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
