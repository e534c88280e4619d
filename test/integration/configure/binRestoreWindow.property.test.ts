/**
 * The recycle bin's 30 days (spec: "restore ... within 30 days of trashing"), judged here and by
 * the service: an item is trashed, the bin read some days later, and a restore asked for offline
 * some days after that. The bin as shown offers the restore, and queuing it is accepted, exactly
 * when the service then restores it; otherwise it is refused at once, in words, nothing queued
 * (a bin read a day ago once offered, and queued, restores the service could only refuse).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { ConfigureService } from '../../../src/main/configure/configureService';
import type { BinListArgs } from '../../../src/shared/ipc/areas/bin';
import { outboxSession } from '../outbox/outboxSession';

const HOUR_MS = 3_600_000;
const BY_NAME: BinListArgs['sort'] = { by: 'name', descending: false };

describe('restoring from the recycle bin near its 30 days', () => {
  it('is offered and queued exactly when the service restores it', async () => {
    const s = await outboxSession({ records: 5 });
    const clock = s.emulator.state.clock;
    const db = s.emulator.state.db;
    // Time passes for the app by this much; for the service, its item was trashed that much
    // earlier (its clock left alone: the session's access token would expire).
    let passed = 0;
    const configure = new ConfigureService({
      db: s.store.db,
      mirror: s.mirror,
      outbox: s.outbox,
      events: new EventHub(),
      refresh: () => undefined,
      clientFor: () => s.client,
      now: () => clock.now() + passed,
    });
    const bin = configure.portalBin;
    const tasks = (
      db
        .prepare(
          `SELECT id FROM work_items WHERE portal_id = ? AND module = 'tasks' AND trashed_time IS NULL
           ORDER BY id`,
        )
        .pluck()
        .all(Number(s.portalId)) as number[]
    ).map(String);
    let restored = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 31 * 24 }),
        fc.integer({ min: 0, max: 3 * 24 }),
        async (readAfterHours, queueAfterHours) => {
          const id = tasks.pop()!;
          const trash = await s.call('POST', `/portal/${s.portalId}/trash`, {
            module: 'tasks',
            items: [id],
          });
          expect(trash.status, JSON.stringify(trash.body)).toBe(200);
          passed = 0;
          const trashedAt = (hoursAgo: number) =>
            db
              .prepare('UPDATE work_items SET trashed_time = ? WHERE id = ?')
              .run(new Date(clock.now() - hoursAgo * HOUR_MS).toISOString(), Number(id));
          trashedAt(readAfterHours);
          await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: true });
          s.outbox.setWorkOffline(true);
          passed = queueAfterHours * HOUR_MS;
          trashedAt(readAfterHours + queueAfterHours);
          const shown = (
            await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: false })
          ).items.find((item) => item.id === id)!;
          let queued = true;
          try {
            bin.queueItems(s.portalId, 'restore', [{ module: 'tasks', id }]);
          } catch (error) {
            queued = false;
            expect(String(error)).toMatch(/past its 30 days.*Nothing was queued/);
          }
          expect(shown.restorable).toBe(queued);
          // What the service does with the same restore at the same moment.
          s.outbox.setWorkOffline(false);
          await s.outbox.idle();
          const entries = s.outbox.list();
          // Left behind, a refused restore would hold the bin's queue for the runs after.
          for (const entry of entries) s.outbox.discard(entry.id);
          if (queued) {
            expect(entries).toEqual([]);
            restored++;
          } else {
            const reply = await s.call('POST', `/portal/${s.portalId}/bin/restore`, [
              { module: 'tasks', items: [id] },
            ]);
            expect(reply.status).toBe(400);
            refused++;
          }
        },
      ),
      { numRuns: 30 },
    );
    expect(restored).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});
