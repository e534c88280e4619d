/**
 * Syncs whose writes the mirror's writer thread makes (as the app does), against the
 * emulator: a full pull, then changes on the server (an edit, a new record, a trashed and a
 * deleted one) and an offline edit in the mirror, an incremental pull and a reconciliation. The
 * mirror ends equal to the server, the offline edit untouched, every name searchable, and no
 * record page held. And a thread that stops between reading a page and storing it: the page is
 * refused on the engine's connection with nothing of it stored, and the next sync ends equal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineMirrorWriter } from '../../../src/main/store/mirror/mirrorWriter';
import type { MirrorCursorUpdate } from '../../../src/main/store/mirror/mirrorTypes';
import { MirrorWriterThread } from '../../../src/main/store/mirror/mirrorWriterThread';
import {
  mirrorWriterScript,
  removeMirrorWriterBuild,
} from '../../unit/store/mirror/mirrorWriterBuild';
import { syncSession } from './syncSession';

let script: string;
beforeAll(async () => {
  script = await mirrorWriterScript();
}, 120_000);
afterAll(removeMirrorWriterBuild);

const recordPath = (portalId: string, id: string) =>
  `/portal/${portalId}/projects/assets/entities/${id}`;

describe('syncs whose writes the writer thread makes', () => {
  it('leave the mirror equal to the server, offline edits untouched', async () => {
    const s = await syncSession({ emulator: { records: 400 }, engine: { pageSize: 25 } });
    const thread = new MirrorWriterThread(
      { script, file: s.store.file },
      inlineMirrorWriter(s.mirror),
    );
    try {
      const engine = s.newEngine({ writer: thread.writer, commentBackfill: true });
      const full = await engine.syncAccount(s.account).done;
      expect(full).toMatchObject({ state: 'done', message: null });
      for (const portalId of s.emulator.portals) {
        expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));
      }
      expect(thread.active).toBe(true);
      // Every page read on the thread was stored and let go of.
      expect(await thread.writer.pages.heldPages()).toBe(0);

      const portalId = s.emulator.portals[0]!;
      const [edited, trashed, deleted, offline] = s.serverIds(portalId).get('assets')!;
      expect(
        (await s.call('PATCH', recordPath(portalId, edited!), { name: 'Renamed laptop' })).status,
      ).toBe(200);
      expect((await s.call('POST', `${recordPath(portalId, trashed!)}/trash`)).status).toBe(200);
      // A record is deleted from the trash (spec).
      expect((await s.call('POST', `${recordPath(portalId, deleted!)}/trash`)).status).toBe(200);
      expect((await s.call('DELETE', recordPath(portalId, deleted!))).status).toBe(204);
      s.mirror.localEdits.writeOverlay(
        portalId,
        offline!,
        new Map([['name', { value: 'Mine', base: null, editedAt: '2026-03-05T09:00:00.000Z' }]]),
      );
      const edits = () => s.store.db.prepare('SELECT * FROM record_edits').all();
      const before = edits();

      const incremental = await engine.syncAccount(s.account).done;
      expect(incremental).toMatchObject({ state: 'done' });
      const reconciled = await engine.syncAccount(s.account, { reconcile: true }).done;
      expect(reconciled).toMatchObject({ state: 'done' });
      for (const id of s.emulator.portals) {
        expect(s.mirroredIds(id)).toEqual(s.serverIds(id));
      }
      expect(edits()).toEqual(before);
      const name = s.store.db
        .prepare('SELECT name FROM records WHERE portal_id = ? AND id = ?')
        .pluck()
        .get(portalId, edited);
      expect(name).toBe('Renamed laptop');
      // The thread indexed the text it stored: nothing waits once the runs are done.
      expect(s.mirror.fullText.pendingRows()).toBe(0);
      expect(await thread.writer.pages.heldPages()).toBe(0);
      const hits = s.mirror.search.search({ portalId, text: 'Renamed laptop', limit: 5 });
      expect(hits.map((hit) => hit.recordId)).toContain(edited);
      expect(s.warnings).toEqual([]);
    } finally {
      thread.close();
    }
  });

  it('refuse a page read by a thread that stopped before storing it, store nothing of it, and sync again to equal the server', async () => {
    const s = await syncSession({ emulator: { records: 400 }, engine: { pageSize: 25 } });
    const thread = new MirrorWriterThread(
      { script, file: s.store.file },
      inlineMirrorWriter(s.mirror),
    );
    const stop = async () => {
      // As a crashed thread would: ended without closing its connection.
      await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      await expect.poll(() => thread.active).toBe(false);
    };
    let failedPage: MirrorCursorUpdate | null = null;
    const writer = {
      ...thread.writer,
      pages: {
        ...thread.writer.pages,
        // The first page read on the thread is stored after the thread stopped: its records
        // were held there, and the engine's connection (the fallback) does not have them.
        upsertPage: async (...args: Parameters<typeof thread.writer.pages.upsertPage>) => {
          if (failedPage === null) {
            failedPage = args[1];
            await stop();
          }
          return thread.writer.pages.upsertPage(...args);
        },
      },
    };
    try {
      const engine = s.newEngine({ writer, commentBackfill: false });
      const broken = await engine.syncAccount(s.account).done;
      expect(broken.state).toBe('failed');
      // Nothing of the refused page was stored, nor its cursor: it was its module's first.
      const { portalId, moduleId, scanIndex } = failedPage!;
      const outcome = broken.outcomes.find(
        (o) => o.portalId === portalId && o.moduleId === moduleId && !o.ok,
      );
      // The module's page read on the stopped thread is refused as no longer held; under load
      // another page of the module may have been in flight there and fail first, in its words.
      expect(outcome?.message).toMatch(
        /no longer held here|writer thread failed \(.*\) before this was done; nothing of it was stored/,
      );
      expect(s.mirror.records.countServerCopies(portalId, moduleId)).toBe(0);
      expect(s.mirror.records.cursor(portalId, moduleId)?.scanIndex).not.toBe(scanIndex);

      const again = await engine.syncAccount(s.account).done;
      expect(again).toMatchObject({ state: 'done' });
      for (const portalId of s.emulator.portals) {
        expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));
      }
      expect(await writer.pages.heldPages()).toBe(0);
    } finally {
      thread.close();
    }
  });
});
