/**
 * `outbox.list` with `perState`: the oldest operations of each state, in queue order — exactly
 * the whole list with each state cut after its first `perState` (fast-check over queues of
 * edits in random states, of one record, one portal or all).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpState } from '../../../src/shared/ipc/areas/outbox';
import { PORTAL, record, recordsWorkspace } from '../records/workspace';

const STATES: OpState[] = ['pending', 'sending', 'failed', 'conflict'];

describe('outbox.list with perState', () => {
  it('is the whole list cut after the first perState of each state', async () => {
    const w = recordsWorkspace();
    const records = Array.from({ length: 40 }, (_, i) => record(i + 1));
    w.mirror.records.upsertRecords(records);
    // One queued edit per record, oldest first.
    for (const r of records) {
      await w.ok('outbox.edit', {
        portalId: PORTAL,
        recordId: r.id,
        changes: { name: `${r.name}!` },
      });
    }
    const db = w.engine.store.db;
    const seqs = (
      db.prepare('SELECT seq FROM outbox_ops ORDER BY seq').all() as { seq: number }[]
    ).map((row) => row.seq);
    expect(seqs).toHaveLength(records.length);
    const setState = db.prepare('UPDATE outbox_ops SET state = ? WHERE seq = ?');

    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...STATES), { minLength: seqs.length, maxLength: seqs.length }),
        fc.integer({ min: 1, max: 45 }),
        fc.constantFrom('all', 'portal', 'record'),
        async (states, perState, scope) => {
          seqs.forEach((seq, i) => setState.run(states[i], seq));
          const filter =
            scope === 'all'
              ? {}
              : scope === 'portal'
                ? { portalId: PORTAL }
                : { portalId: PORTAL, recordId: records[perState % records.length]!.id };
          const whole = await w.ok('outbox.list', filter);
          const taken = new Map<string, number>();
          const expected = whole.filter((entry) => {
            const n = taken.get(entry.state) ?? 0;
            taken.set(entry.state, n + 1);
            return n < perState;
          });
          expect(await w.ok('outbox.list', { ...filter, perState })).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a perState below 1, changing nothing', async () => {
    const w = recordsWorkspace();
    expect((await w.refused('outbox.list', { perState: 0 })).message).toBeTruthy();
  });
});
