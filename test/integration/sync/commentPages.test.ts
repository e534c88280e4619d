/**
 * A record's comments are read page by page, oldest first, and stored as its whole list. A comment
 * deleted on the service while they are read moves the later ones back by one: the first of the
 * next page lands on the page read already, and storing what was read as the whole list dropped
 * it from the mirror although the service still has it.
 */
import { describe, expect, it } from 'vitest';
import { inlineMirrorWriter } from '../../../src/main/store/mirror/mirrorWriter';
import { fetchRecordComments } from '../../../src/main/sync/commentFetcher';
import { syncSession } from './syncSession';

describe("a record's comments read while one is deleted", () => {
  it('are stored as the service holds them, none dropped at a page boundary', async () => {
    let deleteBeforePage: number | null = null;
    let onPage: (() => void) | null = null;
    const s = await syncSession({
      emulator: { records: 20 },
      client: {
        fetch: async (input, init) => {
          const url = new URL(String(input));
          const page = Number(url.searchParams.get('page') ?? 1);
          if (
            onPage &&
            /comments$/.test(decodeURIComponent(url.pathname)) &&
            page === deleteBeforePage
          ) {
            onPage();
          }
          return fetch(input, init);
        },
      },
    });
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    const portalId = s.emulator.portals[0]!;
    const recordId = s.serverIds(portalId).get('assets')![0]!;
    const db = s.emulator.state.db;
    const author = db.prepare('SELECT zpuid FROM users LIMIT 1').pluck().get() as string;
    const insert = db.prepare(
      `INSERT INTO comments (entity_id, content, created_by, created_time, last_updated_time)
       VALUES (?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < 250; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      insert.run(Number(recordId), `Comment ${i}`, author, at, at);
    }
    const serverIds = () =>
      (
        db
          .prepare('SELECT id FROM comments WHERE entity_id = ? ORDER BY id')
          .pluck()
          .all(Number(recordId)) as number[]
      ).map(String);
    // Once the first page was read, its first comment is deleted on the service.
    deleteBeforePage = 2;
    onPage = () => {
      db.prepare('DELETE FROM comments WHERE id = ?').run(Number(serverIds()[0]));
    };
    const module = { id: '', apiName: 'assets', name: 'Assets' };
    const deleteOnce = onPage;
    onPage = () => {
      deleteOnce();
      onPage = null;
    };
    await fetchRecordComments(
      s.client,
      s.mirror,
      inlineMirrorWriter(s.mirror),
      portalId,
      module,
      recordId,
    );
    const mirrored = s.mirror.comments
      .comments(portalId, recordId)
      .map((c) => c.id)
      .sort();
    expect(mirrored).toEqual(serverIds().sort());

    // Deleted at every read: the reads stop in words, and the stored list stays as it was.
    onPage = deleteOnce;
    await expect(
      fetchRecordComments(
        s.client,
        s.mirror,
        inlineMirrorWriter(s.mirror),
        portalId,
        module,
        recordId,
      ),
    ).rejects.toThrow(/kept changing while they were read \(3 times\).*stored ones are kept/);
    const kept = s.mirror.comments
      .comments(portalId, recordId)
      .map((c) => c.id)
      .sort();
    expect(kept).toEqual(mirrored);
  });
});
