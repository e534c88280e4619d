/**
 * Exactly once through the emulator's faults: creates, edits, comments, trashes and restores
 * queued offline, then replayed while the service drops answers of writes it applied, fails with
 * 500s and resets connections. Once the queue is empty, the service holds each created record and
 * each comment once, and every record the last value the user gave it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

type Step =
  | { kind: 'create'; n: number }
  | { kind: 'edit'; record: number; quantity: number }
  | { kind: 'comment'; record: number }
  | { kind: 'trash'; record: number };

const steps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('create' as const), n: fc.nat({ max: 3 }) }),
    fc.record({
      kind: fc.constant('edit' as const),
      record: fc.nat({ max: 4 }),
      quantity: fc.integer({ min: 1, max: 99 }),
    }),
    fc.record({ kind: fc.constant('comment' as const), record: fc.nat({ max: 4 }) }),
    fc.record({ kind: fc.constant('trash' as const), record: fc.nat({ max: 4 }) }),
  ),
  { minLength: 1, maxLength: 12 },
);

const faults = fc.record({
  dropAnswer: fc.double({ min: 0, max: 0.5, noNaN: true }),
  error500: fc.double({ min: 0, max: 0.3, noNaN: true }),
  reset: fc.double({ min: 0, max: 0.3, noNaN: true }),
});

describe('the outbox through dropped answers, 500s and resets', () => {
  it('delivers every change exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(steps, faults, async (plan, fault) => {
        const s = await outboxSession();
        const records = s.recordIds.slice(0, 5);
        s.outbox.setWorkOffline(true);
        const created = new Map<string, number>();
        const comments = new Map<string, string>();
        const quantity = new Map<string, number>();
        const trashed = new Set<string>();
        let serial = 0;
        for (const step of plan) {
          serial++;
          if (step.kind === 'create') {
            const name = `Created ${serial}`;
            s.outbox.create(s.portalId, s.module.id, { name, cf_serial_number: `SN-${serial}` });
            created.set(name, 1);
            continue;
          }
          const id = records[step.record]!;
          if (step.kind === 'trash') {
            s.outbox.trash(s.portalId, id, trashed.has(id));
            if (trashed.has(id)) trashed.delete(id);
            else trashed.add(id);
            continue;
          }
          if (trashed.has(id)) continue; // refused here: the service refuses changes of those
          if (step.kind === 'edit') {
            s.outbox.edit(s.portalId, id, { cf_quantity: step.quantity });
            quantity.set(id, step.quantity);
          } else {
            const content = `Comment ${serial}`;
            s.outbox.comment({ action: 'add', portalId: s.portalId, recordId: id, content });
            comments.set(content, id);
          }
        }
        const injected = await s.admin('POST', 'faults', {
          faults: [{ path: '/entit', ...fault }],
        });
        expect(injected.status).toBe(200);
        s.outbox.setWorkOffline(false);
        for (let round = 0; round < 60 && s.outbox.status().total > 0; round++) {
          s.outbox.retry();
          await s.outbox.idle();
          if (round === 40) await s.admin('POST', 'faults', { faults: [] });
        }
        await s.admin('POST', 'faults', { faults: [] });
        expect(s.outbox.list().map((op) => [op.kind, op.state, op.error])).toEqual([]);
        const db = s.emulator.state.db;
        for (const name of created.keys()) {
          expect(db.prepare('SELECT count(*) FROM entities WHERE name = ?').pluck().get(name)).toBe(
            1,
          );
        }
        for (const [content, id] of comments) {
          expect(
            db
              .prepare('SELECT count(*) FROM comments WHERE content = ? AND entity_id = ?')
              .pluck()
              .get(content, Number(id)),
          ).toBe(1);
        }
        for (const id of records) {
          const server = await s.serverRecord(id);
          if (quantity.has(id)) expect(server.cf_quantity).toBe(quantity.get(id));
          expect(server.trashed_time !== null).toBe(trashed.has(id));
        }
      }),
      { numRuns: 15 },
    );
  }, 240_000);
});
