/**
 * The comment backfill walks the mirror a chunk at a time (commentNeeds.ts) and pauses between
 * chunks; a stop met there ends the module's progress in words ("done", with the reason), as a
 * stop between two records' comments does, instead of leaving the Sync view showing a backfill
 * that no longer runs.
 */
import { describe, expect, it } from 'vitest';
import { CommentBackfill } from '../../../src/main/sync/commentBackfill';
import type { SyncProgress } from '../../../src/main/sync/syncTypes';
import type { CommentBackfillDeps } from '../../../src/main/sync/commentBackfill';

describe('the comment backfill', () => {
  it('says it ended when it is stopped between two chunks of its walk', async () => {
    const emitted: SyncProgress[] = [];
    let chunks = 0;
    const running: { backfill?: CommentBackfill } = {};
    const deps = {
      account: {
        accountId: 'a1',
        client: { dataCenter: 'us', endpointKey: () => 'listComments portal=p1' },
      },
      mirror: {
        comments: {
          // A module with nothing to read that never ends: only the stop can end the walk.
          commentNeedsChunk: () => {
            chunks += 1;
            if (chunks === 3) running.backfill?.stop();
            return { needing: [], next: { updated: 1_000_000 - chunks, id: String(chunks) } };
          },
        },
      },
      writer: {},
      portals: [{ portalId: 'p1', modules: [{ id: 'm1', apiName: 'assets', name: 'Assets' }] }],
      clock: { now: () => Date.parse('2026-11-27T12:00:00Z'), sleep: () => Promise.resolve() },
      budgets: () => [],
      emit: (progress: SyncProgress) => emitted.push(progress),
      log: { warn: () => undefined, info: () => undefined, error: () => undefined },
      paused: false,
    } as unknown as CommentBackfillDeps;
    running.backfill = new CommentBackfill(deps);
    await running.backfill.done;
    expect(chunks).toBe(3);
    const last = emitted.at(-1) as unknown as { phase: string; message: string | null };
    expect(last.phase).toBe('done');
    expect(last.message).toMatch(/stopped/i);
  });
});
