/**
 * The mirror's writer thread (mirrorWriterThread.ts): what it stores on its own connection equals
 * what the engine's connection stores for the same writes (the inline writer), edits made
 * meanwhile on the engine's connection included; its refusals reach the sync engine as the same
 * errors; its full-text steps keep the index up; closing waits for what was handed over; a failed
 * thread hands over to the engine's connection; it runs no write but the sync's.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mirror } from '../../../../src/main/store/mirror/mirror';
import type { MirrorChanges } from '../../../../src/main/store/mirror/mirrorChanges';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { MirrorWriteError } from '../../../../src/main/store/mirror/mirrorWriteError';
import { FULL_TEXT_BATCH_ROWS } from '../../../../src/main/store/mirror/fullTextIndex';
import {
  inlineMirrorWriter,
  runMirrorWrite,
  takeNextWrite,
  writeTargetsOf,
  type MirrorWriter,
} from '../../../../src/main/store/mirror/mirrorWriter';
import { MirrorWriterThread } from '../../../../src/main/store/mirror/mirrorWriterThread';
import type { Store } from '../../../../src/main/store/store';
import { makeRecord, mirroredPortal, MODULE, NOW, PORTAL } from './fixture';
import { mirrorWriterScript, removeMirrorWriterBuild } from './mirrorWriterBuild';

let script: string;
beforeAll(async () => {
  script = await mirrorWriterScript();
}, 120_000);
afterAll(removeMirrorWriterBuild);

function threadFor(store: Store, mirror: Mirror): MirrorWriterThread {
  // The engine's clock, as the fixture's mirror has it: the times stored must be the same.
  return new MirrorWriterThread(
    { script, file: store.file, now: () => NOW },
    inlineMirrorWriter(mirror),
  );
}

/** What a test compares of a store: every record row, the cursors, the edits, the lookups. */
function contents(store: Store) {
  const all = (sql: string) => store.db.prepare(sql).all();
  return {
    records: all('SELECT * FROM records ORDER BY row_key'),
    cursors: all(
      'SELECT portal_id, module_id, high_water, scan_index, scan_after, updated_at FROM sync_cursors ORDER BY module_id',
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
async function run(mirror: Mirror, writer: MirrorWriter, steps: readonly Step[]) {
  const reported: MirrorChanges[] = [];
  let page = 0;
  for (const s of steps) {
    const records = (list: number[], seed: number): MirrorRecord[] =>
      list.map((i) => makeRecord(i, seed));
    if (s.kind === 'page') {
      page++;
      reported.push(
        await writer.records.upsertRecordPage(
          records(s.ordinals, s.seed),
          { portalId: PORTAL, moduleId: MODULE, scanIndex: page, scanAfter: String(page) },
          { users: [{ zpuid: `z${page}`, name: `User ${page}`, email: null }] },
        ),
      );
    } else if (s.kind === 'records') {
      reported.push(await writer.records.upsertRecords(records(s.ordinals, s.seed)));
    } else if (s.kind === 'edit') {
      const id = makeRecord(s.ordinal).id;
      mirror.localEdits.writeOverlay(
        PORTAL,
        id,
        new Map([['name', { value: s.name, base: null, editedAt: '2026-03-05T09:00:00.000Z' }]]),
      );
    } else {
      await writer.fullText.flush();
    }
  }
  await writer.fullText.flush();
  return reported;
}

describe('the mirror writer thread', () => {
  it('stores what the engine connection stores for the same requests, edits meanwhile included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const inline = mirroredPortal();
        const threaded = mirroredPortal();
        const thread = threadFor(threaded.store, threaded.mirror);
        try {
          const expected = await run(inline.mirror, inlineMirrorWriter(inline.mirror), steps);
          const actual = await run(threaded.mirror, thread.writer, steps);
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
      const refusal = thread.writer.records.upsertRecordPage([makeRecord(2), stray], {
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
      await thread.writer.records.upsertRecordPage([makeRecord(3)], {
        portalId: PORTAL,
        moduleId: MODULE,
        scanIndex: 1,
      });
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
        await thread.writer.records.upsertRecordPage(page, {
          portalId: PORTAL,
          moduleId: MODULE,
          scanIndex: first + 1,
        });
      }
      // Writers on the thread never flush inside a page; its steps brought the waiting rows
      // under a batch (a step runs between pages: wait for the last ones).
      await expect
        .poll(() => mirror.fullText.pendingRows(), { timeout: 20_000 })
        .toBeLessThan(FULL_TEXT_BATCH_ROWS);
      await thread.writer.fullText.flush();
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
      thread.writer.records.upsertRecordPage(
        Array.from({ length: 50 }, (_, i) => makeRecord(p * 50 + i)),
        { portalId: PORTAL, moduleId: MODULE, scanIndex: p + 1 },
      ),
    );
    thread.close();
    await Promise.all(stored);
    expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(1_000);
    expect(mirror.records.cursor(PORTAL, MODULE)?.scanIndex).toBe(20);
  });

  it("stores a write that read before the engine's connection committed", async () => {
    // A module's settings are written by reading the stored rows, then writing. Begun deferred,
    // the transaction would read at once, then be refused at its first write ("database is
    // locked": its snapshot is stale once the engine's connection commits, and no busy timeout
    // retries that). The thread's transactions begin IMMEDIATE, so it waits for the lock instead.
    const { store, mirror } = mirroredPortal();
    const thread = threadFor(store, mirror);
    try {
      const fields = mirror.metadata.fields(PORTAL, MODULE);
      store.db.exec('BEGIN IMMEDIATE');
      mirror.localEdits.writeOverlay(
        PORTAL,
        makeRecord(1).id,
        new Map([['name', { value: 'Mine', base: null, editedAt: '2026-03-05T09:00:00.000Z' }]]),
      );
      const stored = thread.writer.metadata.replaceFieldsConfiguration(PORTAL, MODULE, {
        fields: fields.slice(1) as never,
        layouts: [],
        sections: new Map(),
        statuses: mirror.metadata.statuses(PORTAL, MODULE) as never,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      store.db.exec('COMMIT');
      await stored;
      expect(mirror.metadata.fields(PORTAL, MODULE)).toHaveLength(fields.length - 1);
      expect(store.db.prepare('SELECT count(*) FROM record_edits').pluck().get()).toBe(1);
    } finally {
      thread.close();
    }
  });

  it('hands over to the engine connection once the thread has stopped', async () => {
    const { store, mirror } = mirroredPortal();
    const thread = threadFor(store, mirror);
    await thread.writer.records.upsertRecordPage([makeRecord(1)], {
      portalId: PORTAL,
      moduleId: MODULE,
      scanIndex: 1,
    });
    // The thread ends as a crashed one would (its own connection not closed).
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect.poll(() => thread.active).toBe(false);
    await thread.writer.records.upsertRecordPage([makeRecord(2)], {
      portalId: PORTAL,
      moduleId: MODULE,
      scanIndex: 2,
    });
    expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(2);
    thread.close();
  });
});

describe('the order the thread runs requests in', () => {
  it('takes readings of record pages first and keeps every other request in its order', () => {
    const kinds = fc.array(
      fc.constantFrom(
        ['pages', 'read'],
        ['pages', 'upsertPage'],
        ['records', 'writeCursor'],
        ['fullText', 'flush'],
        ['pages', 'release'],
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(kinds, (asked) => {
        const queue = asked.map(([target, method], id) => ({
          id,
          target: target!,
          method: method!,
        }));
        const taken: number[] = [];
        for (let next = takeNextWrite(queue); next; next = takeNextWrite(queue))
          taken.push(next.id);
        const isRead = (id: number) => asked[id]![1] === 'read';
        const all = asked.map((_, id) => id);
        expect(taken).toEqual([...all.filter(isRead), ...all.filter((id) => !isRead(id))]);
      }),
    );
  });
});

describe('the writes the thread runs', () => {
  it("are the sync's writes and nothing else", () => {
    const targets = writeTargetsOf(mirroredPortal().mirror);
    expect(() => runMirrorWrite(targets, 'records', 'cursor', [PORTAL, MODULE])).toThrow(
      /not a mirror write/,
    );
    expect(() => runMirrorWrite(targets, 'query', 'queryRecords', [])).toThrow(
      /not a mirror write/,
    );
    expect(() => runMirrorWrite(targets, 'records', 'constructor', [])).toThrow(
      /not a mirror write/,
    );
    expect(() => runMirrorWrite(targets, 'pages', 'take', [[]])).toThrow(/not a mirror write/);
    expect(() => runMirrorWrite(targets, '__proto__', 'toString', [])).toThrow(
      /not a mirror write/,
    );
  });

  it('store settings and comments as the engine connection does', async () => {
    const inline = mirroredPortal();
    const threaded = mirroredPortal();
    const thread = threadFor(threaded.store, threaded.mirror);
    try {
      for (const [writer, m] of [
        [inlineMirrorWriter(inline.mirror), inline.mirror],
        [thread.writer, threaded.mirror],
      ] as const) {
        await writer.records.upsertRecords([makeRecord(1), makeRecord(2)]);
        await writer.metadata.replaceFieldsConfiguration(PORTAL, MODULE, {
          fields: m.metadata.fields(PORTAL, MODULE).slice(1) as never,
          layouts: [],
          sections: new Map(),
          statuses: m.metadata.statuses(PORTAL, MODULE) as never,
        });
        await writer.comments.replaceRecordComments(PORTAL, makeRecord(1).id, [
          {
            id: 'c1',
            content: 'Checked',
            attachmentIds: [],
            createdBy: null,
            createdTime: '2026-03-05T09:00:00.000Z',
            lastUpdatedTime: '2026-03-05T09:00:00.000Z',
          },
        ]);
      }
      const dump = (store: Store) => ({
        fields: store.db.prepare('SELECT * FROM fields ORDER BY 1, 2, 3').all(),
        comments: store.db.prepare('SELECT * FROM comments ORDER BY 1, 2, 3').all(),
        // When each record's comments were pulled: the engine's clock, not the thread's.
        commentSync: store.db.prepare('SELECT * FROM comment_sync ORDER BY 1, 2').all(),
      });
      expect(dump(threaded.store)).toEqual(dump(inline.store));
    } finally {
      thread.close();
    }
  });
});
