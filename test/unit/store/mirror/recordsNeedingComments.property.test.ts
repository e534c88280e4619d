/**
 * The comment backfill's batches (`recordsNeedingComments`, src/main/sync/commentNeeds.ts) walk
 * records_by_updated per list_state a chunk at a time and stop after the batch. They must name
 * exactly the records, in exactly the order, that the plain statement they replaced named (kept
 * here as the reference), whatever the chunk's size and whichever records are skipped: that
 * statement sorted every record of the module, 10-15 s on the engine's thread at a million. Its count
 * (`countRecordsNeedingComments`: the commentable records less the comment_sync rows read at
 * their record's version, a chunk at a time) must equal the join it replaced. Records
 * (stored, edited, trashed, created here), their times (ties included) and their comments' sync
 * rows (never read, read at an older, the same or a newer version, long ago or lately) are drawn
 * at random.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNamedQueries } from '../../../../src/main/store/sqlFile';
import commentsSql from '../../../../src/main/store/queries/mirrorComments.sql?raw';
import {
  countRecordsNeedingComments,
  recordsNeedingComments,
} from '../../../../src/main/sync/commentNeeds';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';

/** The statement before (mirrorComments.sql until this change). */
const REFERENCE = `
SELECT r.id FROM records r
LEFT JOIN comment_sync s ON s.portal_id = r.portal_id AND s.record_id = r.id
WHERE r.module_key = @moduleKey AND r.list_state IN (0, 1) AND r.local_only = 0
  AND (s.record_id IS NULL OR s.record_updated_at < r.last_updated_time
       OR (@staleBefore IS NOT NULL AND s.synced_at < @staleBefore))
ORDER BY r.last_updated_time DESC, r.id DESC
`;

/** The count before: one join over every record of the module. */
const REFERENCE_COUNT = `
SELECT count(*) FROM records r
LEFT JOIN comment_sync s ON s.portal_id = r.portal_id AND s.record_id = r.id
WHERE r.module_key = ? AND r.list_state IN (0, 1) AND r.local_only = 0
  AND (s.record_id IS NULL OR s.record_updated_at < r.last_updated_time)`;

/** A few instants, so that times often tie. */
const TIMES = [
  '2026-01-01T00:00:00.000Z',
  '2026-01-01T00:00:00.001Z',
  '2026-02-10T08:30:00.000Z',
  '2026-03-01T23:59:59.999Z',
  '2026-03-05T09:00:00.000Z',
];

const recordShape = fc.record({
  updated: fc.constantFrom(...TIMES),
  state: fc.constantFrom('stored', 'stored', 'edited', 'trashed', 'local', 'local trashed'),
  comments: fc.option(
    fc.record({
      version: fc.constantFrom('older', 'same', 'newer'),
      synced: fc.constantFrom(...TIMES),
    }),
  ),
});

describe('recordsNeedingComments', () => {
  it('names the records and the order the statement before did, and counts as it did', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordShape, { minLength: 0, maxLength: 40 }),
        fc.integer({ min: 1, max: 25 }),
        fc.option(fc.constantFrom(...TIMES)),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.nat({ max: 39 }), { maxLength: 6 }),
        async (shapes, limit, staleBefore, chunk, skipped) => {
          const { store, mirror } = mirroredPortal();
          const db = store.db;
          // Another module of the portal, its records' comments read at their version or not:
          // neither its records nor its comment_sync rows are this module's.
          mirror.metadata.upsertModules(PORTAL, [
            {
              id: 'm201',
              apiName: 'vendors',
              singularName: 'Vendor',
              pluralName: 'Vendors',
              iconClass: null,
              isActive: true,
              isDefault: false,
              createdTime: null,
              details: {},
            },
          ]);
          const others = Array.from({ length: 6 }, (_, i) => ({
            ...makeRecord(500 + i, 5),
            moduleId: 'm201',
            lastUpdatedTime: TIMES[i % TIMES.length] as string,
          }));
          mirror.records.upsertRecords(others);
          others.forEach((other, i) => {
            if (i % 3 === 2) return;
            db.prepare(
              'INSERT INTO comment_sync (portal_id, record_id, synced_at, record_updated_at, comment_count) VALUES (?, ?, ?, ?, 0)',
            ).run(PORTAL, other.id, TIMES[0], i % 3 === 0 ? other.lastUpdatedTime : TIMES[0]);
          });
          mirror.records.upsertRecords(
            shapes.map((shape, i) => ({ ...makeRecord(i, 3), lastUpdatedTime: shape.updated })),
          );
          const moduleKey = mirror.metadata.moduleKey(PORTAL, MODULE);
          const rows = db
            .prepare('SELECT id FROM records WHERE module_key = ? ORDER BY row_key')
            .pluck()
            .all(moduleKey) as string[];
          expect(rows).toHaveLength(shapes.length);
          shapes.forEach((shape, i) => {
            const id = rows[i] as string;
            if (shape.state === 'edited') {
              db.prepare('UPDATE records SET edited = 1, list_state = 1 WHERE id = ?').run(id);
            } else if (shape.state === 'trashed') {
              db.prepare(
                'UPDATE records SET trashed_time = last_updated_time, list_state = 2 WHERE id = ?',
              ).run(id);
            } else if (shape.state === 'local') {
              db.prepare('UPDATE records SET local_only = 1 WHERE id = ?').run(id);
            } else if (shape.state === 'local trashed') {
              db.prepare(
                'UPDATE records SET local_only = 1, trashed_time = last_updated_time, list_state = 2 WHERE id = ?',
              ).run(id);
            }
            if (shape.comments) {
              const at = Date.parse(shape.updated);
              const shift = { older: -1, same: 0, newer: 1 }[shape.comments.version];
              db.prepare(
                'INSERT INTO comment_sync (portal_id, record_id, synced_at, record_updated_at, comment_count) VALUES (?, ?, ?, ?, 0)',
              ).run(PORTAL, id, shape.comments.synced, new Date(at + shift).toISOString());
            }
          });
          const skip = new Set(
            skipped.flatMap((i) => (i < rows.length ? [rows[i] as string] : [])),
          );
          const expected = (
            db.prepare(REFERENCE).pluck().all({ moduleKey, staleBefore }) as string[]
          )
            .filter((id) => !skip.has(id))
            .slice(0, limit);
          let pauses = 0;
          const actual = await recordsNeedingComments(
            (listState, after, size) =>
              mirror.comments.commentNeedsChunk(PORTAL, MODULE, listState, after, {
                chunk: size,
                ...(staleBefore === null ? {} : { staleBefore }),
              }),
            {
              limit,
              skip,
              chunk,
              pause: () => {
                pauses += 1;
                return Promise.resolve();
              },
            },
          );
          expect(actual).toEqual(expected);
          // Between chunks, never more than the chunks read.
          expect(pauses).toBeLessThanOrEqual(Math.ceil(shapes.length / chunk) + 2);
          expect(
            await countRecordsNeedingComments(mirror.comments, PORTAL, MODULE, {
              chunk,
              pause: () => Promise.resolve(),
            }),
          ).toBe(db.prepare(REFERENCE_COUNT).pluck().get(moduleKey));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads each chunk as ranges of records_by_updated, not a sort of the module', () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(Array.from({ length: 50 }, (_, i) => makeRecord(i, 3)));
    const sql = parseNamedQueries(commentsSql, 'mirrorComments.sql')['commentNeedsChunk'] as string;
    const steps = (
      store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({
        moduleKey: 1,
        listState: 0,
        updated: 1,
        id: '',
        chunk: 10,
        staleBefore: null,
      }) as { detail: string }[]
    ).map((step) => step.detail);
    // The rest of the cursor's time by id, then the times before it: two ranges, however many
    // records share a time. (Each side's few rows are sorted for the merge.)
    expect(steps.filter((detail) => detail.startsWith('SEARCH r '))).toEqual([
      'SEARCH r USING INDEX records_by_updated (module_key=? AND list_state=? AND <expr>=? AND id<?)',
      'SEARCH r USING INDEX records_by_updated (module_key=? AND list_state=? AND <expr><?)',
    ]);
    expect(steps.join('\n')).not.toMatch(/SCAN r\b/);
  });
});
