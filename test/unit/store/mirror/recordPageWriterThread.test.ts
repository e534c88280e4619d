/**
 * The record page writer's thread (recordPageWriterThread.ts): what it stores on its own
 * connection equals what the engine's connection stores for the same requests (the inline
 * writer), edits made meanwhile on the engine's connection included; its refusals reach the sync
 * engine as the same errors; its full-text steps keep the index up; closing waits for what was
 * handed over; a failed thread hands over to the engine's connection.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mirror } from '../../../../src/main/store/mirror/mirror';
import type { MirrorChanges } from '../../../../src/main/store/mirror/mirrorChanges';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { MirrorWriteError } from '../../../../src/main/store/mirror/mirrorWriteError';
import { FULL_TEXT_BATCH_ROWS } from '../../../../src/main/store/mirror/fullTextIndex';
import {
  inlinePageWriter,
  type RecordPageWriter,
} from '../../../../src/main/store/mirror/recordPageWriter';
import { RecordPageWriterThread } from '../../../../src/main/store/mirror/recordPageWriterThread';
import type { Store } from '../../../../src/main/store/store';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';
import { recordPageWriterScript, removeRecordPageWriterBuild } from './recordPageWriterBuild';

let script: string;
beforeAll(async () => {
  script = await recordPageWriterScript();
}, 120_000);
afterAll(removeRecordPageWriterBuild);

function threadFor(store: Store, mirror: Mirror): RecordPageWriterThread {
  return new RecordPageWriterThread({ script, file: store.file }, inlinePageWriter(mirror));
}

/** What a test compares of a store: every record row, the cursors, the edits, the lookups. */
function contents(store: Store) {
  const all = (sql: string) => store.db.prepare(sql).all();
  return {
    records: all('SELECT * FROM records ORDER BY row_key'),
    cursors: all(
      'SELECT portal_id, module_id, high_water, scan_index, scan_after FROM sync_cursors ORDER BY module_id',
    ),
    edits: all('SELECT * FROM record_edits ORDER BY record_id, field'),
    multiValues: all('SELECT * FROM record_multi_values ORDER BY 1, 2, 3'),
    users: all('SELECT * FROM portal_users ORDER BY zpuid'),
  };
}

type Step =
  | { kind: 'page'; ordinals: number[]; seed: number }
  | { kind: 'records'; ordinals: number[]; seed: number }
  | { kind: 'edit'; ordinal: number; name: string }
  | { kind: 'flush' };

const ordinals = fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 30 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('page' as const), ordinals, seed: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('records' as const),
    ordinals,
    seed: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    kind: fc.constant('edit' as const),
    ordinal: fc.integer({ min: 0, max: 60 }),
    name: fc.string({ maxLength: 8 }),
  }),
  fc.constant({ kind: 'flush' as const }),
);

/** Runs the steps through `writer`, the edits on the engine's connection; the changes reported. */
async function run(mirror: Mirror, writer: RecordPageWriter, steps: readonly Step[]) {
  const reported: MirrorChanges[] = [];
  let page = 0;
  for (const s of steps) {
    const records = (list: number[], seed: number): MirrorRecord[] =>
      list.map((i) => makeRecord(i, seed));
    if (s.kind === 'page') {
      page++;
      reported.push(
        await writer.storePage(
          records(s.ordinals, s.seed),
          { portalId: PORTAL, moduleId: MODULE, scanIndex: page, scanAfter: String(page) },
          { users: [{ zpuid: `z${page}`, name: `User ${page}`, email: null }] },
        ),
      );
    } else if (s.kind === 'records') {
      reported.push(await writer.storeRecords(records(s.ordinals, s.seed)));
    } else if (s.kind === 'edit') {
      const id = makeRecord(s.ordinal).id;
      mirror.localEdits.writeOverlay(
        PORTAL,
        id,
        new Map([['name', { value: s.name, base: null, editedAt: '2026-03-05T09:00:00.000Z' }]]),
      );
    } else {
      await writer.flushFullText();
    }
  }
  await writer.flushFullText();
  return reported;
}

describe('the record page writer thread', () => {
  it('stores what the engine connection stores for the same requests, edits meanwhile included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const inline = mirroredPortal();
        const threaded = mirroredPortal();
        const thread = threadFor(threaded.store, threaded.mirror);
        try {
          const expected = await run(inline.mirror, inlinePageWriter(inline.mirror), steps);
          const actual = await run(threaded.mirror, thread, steps);
          expect(actual).toEqual(expected);
          expect(contents(threaded.store)).toEqual(contents(inline.store));
          // Both indexed every name: a search on the engine's connection finds the same rows.
          const hits = (m: Mirror, text: string) =>
            m.search
              .search({ portalId: PORTAL, text, limit: 100 })
              .map((hit) => hit.recordId)
              .sort();
          for (const text of ['Dell', 'router', 'inventory']) {
            expect(hits(threaded.mirror, text)).toEqual(hits(inline.mirror, text));
          }
        } finally {
          thread.close();
        }
      }),
      { numRuns: 12 },
    );
  }, 180_000);

  it("reports a refused page as the engine's connection does, and stores none of it", async () => {
    const { store, mirror } = mirroredPortal();
    const thread = threadFor(store, mirror);
    try {
      const stray = { ...makeRecord(1), moduleId: 'not-mirrored' };
      const refusal = thread.storePage([makeRecord(2), stray], {
        portalId: PORTAL,
        moduleId: MODULE,
        scanIndex: 2,
        scanAfter: 'x',
      });
      await expect(refusal).rejects.toBeInstanceOf(MirrorWriteError);
      await expect(refusal).rejects.toThrow(/not in the local mirror yet/);
      expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(0);
      expect(mirror.records.cursor(PORTAL, MODULE)).toBeUndefined();
      // The thread goes on: the next page is stored.
      await thread.storePage([makeRecord(3)], { portalId: PORTAL, moduleId: MODULE, scanIndex: 1 });
      expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(1);
    } finally {
      thread.close();
    }
  });

  it('indexes text in steps between pages once a batch waits, and all of it on a flush', async () => {
    const { store, mirror } = mirroredPortal();
    const thread = threadFor(store, mirror);
    try {
      const count = FULL_TEXT_BATCH_ROWS + 2_500;
      for (let first = 0; first < count; first += 200) {
        const page = Array.from({ length: Math.min(200, count - first) }, (_, i) =>
          makeRecord(first + i),
        );
        await thread.storePage(page, { portalId: PORTAL, moduleId: MODULE, scanIndex: first + 1 });
      }
      // Writers on the thread never flush inside a page; its steps brought the waiting rows
      // under a batch (a step runs between pages: wait for the last ones).
      await expect
        .poll(() => mirror.fullText.pendingRows(), { timeout: 20_000 })
        .toBeLessThan(FULL_TEXT_BATCH_ROWS);
      await thread.flushFullText();
      expect(mirror.fullText.pendingRows()).toBe(0);
      const name = makeRecord(count - 1).name;
      const hits = mirror.search
        .search({ portalId: PORTAL, text: name, limit: 5 })
        .map((h) => h.recordId);
      expect(hits).toContain(makeRecord(count - 1).id);
    } finally {
      thread.close();
    }
  }, 120_000);

  it('waits on close for every page handed over', async () => {
    const { store, mirror } = mirroredPortal();
    const thread = threadFor(store, mirror);
    const stored = Array.from({ length: 20 }, (_, p) =>
      thread.storePage(
        Array.from({ length: 50 }, (_, i) => makeRecord(p * 50 + i)),
        { portalId: PORTAL, moduleId: MODULE, scanIndex: p + 1 },
      ),
    );
    thread.close();
    await Promise.all(stored);
    expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(1_000);
    expect(mirror.records.cursor(PORTAL, MODULE)?.scanIndex).toBe(20);
  });

  it('hands over to the engine connection once the thread has stopped', async () => {
    const { store, mirror } = mirroredPortal();
    const thread = threadFor(store, mirror);
    await thread.storePage([makeRecord(1)], { portalId: PORTAL, moduleId: MODULE, scanIndex: 1 });
    // The thread ends as a crashed one would (its own connection not closed).
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect.poll(() => thread.active).toBe(false);
    await thread.storePage([makeRecord(2)], { portalId: PORTAL, moduleId: MODULE, scanIndex: 2 });
    expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(2);
    thread.close();
  });
});
