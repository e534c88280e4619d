import { describe, expect, it } from 'vitest';
import type { ApiScheduler } from '../../../src/main/api/client/apiScheduler';
import { passThroughScheduler } from '../../../src/main/api/client/passThroughScheduler';
import { commentsKey } from '../../../src/main/sync/commentFetcher';
import { COMMENT_VISIBLE_RESERVE } from '../../../src/main/sync/commentBackfill';
import { countRecordsNeedingComments } from '../../../src/main/sync/commentNeeds';
import { systemClock } from '../../../src/main/api/schedulerClock';
import { syncSession } from './syncSession';

type Session = Awaited<ReturnType<typeof syncSession>>;

/** Comments of a record in the emulator's database, oldest first. */
function serverComments(s: Session, recordId: string): string[] {
  return (
    s.emulator.state.db
      .prepare('SELECT id FROM comments WHERE entity_id = ? ORDER BY created_time, id')
      .all(Number(recordId)) as { id: number }[]
  ).map((row) => String(row.id));
}

const mirroredRecords = (s: Session) =>
  s.store.db
    .prepare('SELECT portal_id AS portalId, record_id AS recordId FROM comment_sync')
    .all() as {
    portalId: string;
    recordId: string;
  }[];

/** A scheduler that remembers each request's priority and key. */
function recordingScheduler(seen: { key: string; priority: string }[]): ApiScheduler {
  const inner = passThroughScheduler();
  return {
    schedule: (request) => {
      seen.push({ key: request.key, priority: request.priority });
      return inner.schedule(request);
    },
  };
}

/**
 * A session whose comment backfill sees `remaining()` calls left on each portal's comments
 * endpoint (it waits while that is no more than the reserve), with no comments read in the run.
 */
async function backfillSession(remaining: () => number): Promise<Session> {
  const s: Session = await syncSession({
    emulator: { records: 20 },
    engine: {
      commentsPerRun: 0,
      commentBackfill: true,
      clock: {
        now: () => Date.now(),
        sleep: (ms, signal) => systemClock.sleep(Math.min(ms, 10), signal),
      },
      budgets: () =>
        s.emulator.portals.map((portalId) => ({
          key: commentsKey(s.client, portalId, { id: '', apiName: 'assets', name: '' }),
          limit: 200,
          windowMs: 120_000,
          spent: 188,
          remaining: remaining(),
          nextSlotAt: Date.now(),
          blockedUntil: null,
          queued: 0,
          inFlight: 0,
          calls: { stepMs: 10_000, inWindow: [], current: 0, previous: 0 },
        })),
    },
  });
  return s;
}

describe('comments', () => {
  it("reads the comments of changed records within a run, up to the run's bound per portal", async () => {
    const s = await syncSession({ engine: { commentsPerRun: 7 } });
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    const mirrored = mirroredRecords(s);
    for (const portalId of s.emulator.portals) {
      expect(mirrored.filter((m) => m.portalId === portalId)).toHaveLength(7);
    }
    for (const { portalId, recordId } of mirrored) {
      expect(s.mirror.comments.comments(portalId, recordId).map((c) => c.id)).toEqual(
        serverComments(s, recordId),
      );
    }
    // Nothing changed: the next run reads no comments.
    const before = mirrored.length;
    await s.engine.syncAccount(s.account).done;
    expect(mirroredRecords(s)).toHaveLength(before);
  });

  it("reads an opened record's comments at once, at the priority of what the user looks at", async () => {
    const seen: { key: string; priority: string }[] = [];
    const s = await syncSession({
      engine: { commentsPerRun: 0 },
      client: { scheduler: recordingScheduler(seen) },
    });
    await s.engine.syncAccount(s.account).done;
    expect(mirroredRecords(s)).toEqual([]);
    expect(new Set(seen.map((r) => r.priority))).toEqual(new Set(['background']));

    const portalId = s.emulator.portals[0]!;
    const module = s.mirror.metadata.modules(portalId).find((m) => m.apiName === 'assets')!;
    const withComments = s
      .serverIds(portalId)
      .get('assets')!
      .find((id) => serverComments(s, id).length > 0)!;
    seen.length = 0;
    const stored = await s.engine.fetchCommentsNow({
      portalId,
      moduleId: module.id,
      recordId: withComments,
    });
    expect(stored).toBe(serverComments(s, withComments).length);
    expect(seen).toEqual([
      {
        key: commentsKey(s.client, portalId, { id: module.id, apiName: 'assets', name: 'Assets' }),
        priority: 'visible',
      },
    ]);
    expect(s.mirror.comments.comments(portalId, withComments).map((c) => c.id)).toEqual(
      serverComments(s, withComments),
    );
    // The view shows them as mirrored.
    const view = s.mirror.query
      .queryRecords({ portalId, moduleId: module.id, offset: 0, limit: 1000 })
      .rows.find((r) => r.id === withComments)!;
    expect(view.commentsMirrored).toBe(true);
  });

  it('backfills the rest in the background after the sync, and re-reads a changed record', async () => {
    const s = await syncSession({
      emulator: { records: 40 },
      engine: { commentsPerRun: 3, commentBackfill: true },
    });
    const result = await s.engine.syncAccount(s.account).done;
    expect(result.state).toBe('done');
    await s.engine.idle();
    for (const portalId of s.emulator.portals) {
      for (const module of s.mirror.metadata.modules(portalId).filter((m) => m.isDefault === 0)) {
        expect(
          await countRecordsNeedingComments(s.mirror.comments, portalId, module.id, {
            pause: () => Promise.resolve(),
          }),
        ).toBe(0);
      }
    }
    const total = s.emulator.state.db
      .prepare(
        `SELECT count(*) FROM comments c JOIN entities e ON e.id = c.entity_id WHERE e.trashed_time IS NULL`,
      )
      .pluck()
      .get() as number;
    expect(s.store.db.prepare('SELECT count(*) FROM comments').pluck().get()).toBe(total);
    const backfill = s.progress().filter((p) => p.runId === null && p.phase === 'done');
    expect(backfill.length).toBeGreaterThan(0);

    // A comment added to a record that then changes is read on the next sync.
    const portalId = s.emulator.portals[0]!;
    const [id] = s.serverIds(portalId).get('assets')!;
    const base = `/portal/${portalId}/projects/assets/entity/${id}/${encodeURIComponent(s.emulator.commentSegment)}`;
    expect((await s.call('POST', base, { content: 'Seen offline?' })).status).toBe(201);
    await s.call('PATCH', `/portal/${portalId}/projects/assets/entities/${id}`, {
      name: 'Touched',
    });
    await s.engine.syncAccount(s.account).done;
    await s.engine.idle();
    expect(s.mirror.comments.comments(portalId, id!).map((c) => c.content)).toContain(
      'Seen offline?',
    );
  });

  it('leaves the reserve of the comments budget to the user while backfilling', async () => {
    let remaining = COMMENT_VISIBLE_RESERVE;
    const s = await backfillSession(() => remaining);
    await s.engine.syncAccount(s.account).done;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(mirroredRecords(s)).toEqual([]);
    remaining = COMMENT_VISIBLE_RESERVE + 1;
    await s.engine.idle();
    expect(mirroredRecords(s).length).toBeGreaterThan(0);
  });

  it('stops the background reading when it is turned off, and starts none after the next sync', async () => {
    // No headroom on the comments endpoint: the backfill waits for it.
    const s = await backfillSession(() => COMMENT_VISIBLE_RESERVE);
    await s.engine.syncAccount(s.account).done;
    // The backfill's latest progress per module (the session keeps every event).
    const backfillNow = () => {
      const latest = new Map<string, ReturnType<Session['progress']>[number]>();
      for (const p of s.progress()) {
        if (p.runId === null) latest.set(`${p.portalId}/${p.moduleId}`, p);
      }
      return [...latest.values()];
    };
    const waiting = () => backfillNow().filter((p) => p.phase === 'comments');
    let idle = false;
    void s.engine.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idle).toBe(false);

    s.engine.setCommentBackfill(false);
    await s.engine.idle();
    expect(waiting()).toEqual([]);
    // Its module is up to date; only the comments were not read, and the row says why.
    const stopped = backfillNow();
    expect(stopped.length).toBeGreaterThan(0);
    for (const p of stopped) {
      expect(p.phase).toBe('done');
      expect(p.message).toMatch(/stopped/);
    }

    await s.engine.syncAccount(s.account).done;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(waiting()).toEqual([]);
    expect(mirroredRecords(s)).toEqual([]);
  });
});
