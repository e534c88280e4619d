/**
 * Bulk edit, two ways to the same answer (issue 20). For random selections, random queued edits
 * of the user's own before it, and random actions (set, clear, add or remove options): the values
 * the records show once the bulk edit is queued equal the edit applied in memory to what they
 * showed before; records not selected are untouched; no record gets a second update where it had
 * one to fold into. While an undo would change the queue, the Outbox lists the bulk edit (with its
 * Undo) and counts the records it would change. Then undo puts the outbox back exactly as it was (operations, their fields and states,
 * and the overlay the lists show).
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bulkInput, type BulkChangeSpec } from '../../../src/main/bulkEdit/bulkPlan';
import { sameFieldValue } from '../../../src/shared/fieldValues/sameFieldValue';
import { outboxSession } from '../outbox/outboxSession';
import { bulkEditOn } from './bulkEditOn';

const TYPES = ['name', 'description', 'multi_select'];
const TAGS = ['Critical', 'Leased', 'Warranty', 'Remote', 'Shared', 'Encrypted'];
const WORDS = ['', 'alpha', 'Beta note', 'ünïcode ✓', 'line\nbreak'];

const spec = fc.oneof(
  fc.record({
    field: fc.constant('description'),
    action: fc.constant('set' as const),
    value: fc.constantFrom(...WORDS),
  }),
  fc.record({
    field: fc.constantFrom('description', 'cf_tags'),
    action: fc.constant('clear' as const),
  }),
  fc.record({
    field: fc.constant('cf_tags'),
    action: fc.constantFrom('add' as const, 'remove' as const),
    value: fc.subarray(TAGS, { minLength: 1 }),
  }),
  fc.record({
    field: fc.constant('cf_tags'),
    action: fc.constant('set' as const),
    value: fc.subarray(TAGS),
  }),
);

/** A user's own edit queued before the bulk edit: record index, field, value. */
const ownEdit = fc.oneof(
  fc.record({
    at: fc.nat(11),
    field: fc.constant('description'),
    value: fc.constantFrom(...WORDS),
  }),
  fc.record({ at: fc.nat(11), field: fc.constant('cf_tags'), value: fc.subarray(TAGS) }),
  fc.record({
    at: fc.nat(11),
    field: fc.constant('name'),
    value: fc.constantFrom('Own name', 'Other'),
  }),
);

/**
 * What became of a record's queued edit before the bulk edit: the service refused it (it stays
 * stopped, with the reason), or a send failed for a while (it waits out a backoff, the error shown).
 */
const stop = fc.record({ at: fc.nat(11), how: fc.constantFrom('refused', 'waiting') });

describe('bulk edit (property)', () => {
  it('queues what applying the edit in memory gives, and undo restores the exact prior queue', async () => {
    const s = await outboxSession({ records: 60 });
    s.outbox.setWorkOffline(true);
    const bulk = bulkEditOn(s);
    const pool = s.recordsWithField('cf_tags').slice(0, 12);
    expect(pool).toHaveLength(12);
    const db = s.store.db;
    const shown = (id: string, field: string) =>
      s.outbox.form(s.portalId, s.module.id, id).values[field] ?? null;
    // Everything of an operation a bulk edit and its undo may touch.
    const queue = () =>
      s.outbox.repo.allOps().map((op) => ({
        seq: op.seq,
        recordId: op.recordId,
        kind: op.kind,
        state: op.state,
        error: op.error,
        attempts: op.attempts,
        nextAttemptAt: op.nextAttemptAt,
        edits: op.edits,
        queuedAt: op.queuedAt,
        updatedAt: op.updatedAt,
        fields: op.fields,
      }));
    const overlay = () =>
      db
        .prepare('SELECT record_id, field, value FROM record_edits ORDER BY record_id, field')
        .all();

    await fc.assert(
      fc.asyncProperty(
        fc.array(ownEdit, { maxLength: 8 }),
        fc.array(stop, { maxLength: 4 }),
        fc.subarray([...pool.keys()], { minLength: 1 }),
        spec,
        async (own, stops, picked, change: BulkChangeSpec) => {
          db.exec('DELETE FROM outbox_ops; DELETE FROM record_edits; DELETE FROM bulk_edits;');
          for (const edit of own) {
            s.outbox.edit(s.portalId, pool[edit.at]!, { [edit.field]: edit.value });
          }
          for (const { at, how } of stops) {
            const op = s.outbox.repo.opsOfRecord(s.portalId, pool[at]!).at(-1);
            if (!op) continue;
            if (how === 'refused') s.outbox.repo.markFailed(op.seq, 'Category: no such option.');
            else {
              s.outbox.repo.markWaiting(op.seq, {
                nextAttemptAt: Date.now() + 3_600_000,
                error: 'The service did not answer; trying again in an hour.',
                keepSent: false,
                countAttempt: true,
              });
            }
          }
          const ids = picked.map((i) => pool[i]!);
          const fields = ['name', 'description', 'cf_tags'];
          const before = new Map(pool.map((id) => [id, fields.map((f) => shown(id, f))]));
          const opsBefore = new Map(
            pool.map((id) => [id, s.outbox.repo.opsOfRecord(s.portalId, id)]),
          );
          const priorQueue = queue();
          const priorOverlay = overlay();

          const { previewId } = await bulk.preview({
            portalId: s.portalId,
            moduleId: s.module.id,
            selection: { kind: 'ids', ids },
            ...change,
          });
          const applied = await bulk.apply({ previewId });
          expect(applied.failed).toBe(0);
          const column = fields.indexOf(change.field);
          for (const id of pool) {
            const was = before.get(id)!;
            fields.forEach((field, i) => {
              const expected =
                ids.includes(id) && i === column ? bulkInput(change, was[i]) : was[i];
              const now = shown(id, field);
              // Two values of a field agree as the editor compares them ('' and null are empty).
              if (!sameFieldValue(TYPES[i]!, now, expected)) {
                expect({ id, field, now }).toEqual({ id, field, now: expected });
              }
            });
            // Folded into the record's queued edit where it had one: never a second update. An
            // edit the service refused is left as it was, and the bulk value queued behind it.
            const had = opsBefore.get(id)!;
            const ops = s.outbox.repo.opsOfRecord(s.portalId, id);
            if (had.at(-1)?.state === 'failed') {
              expect(ops[0]).toEqual(had[0]);
              expect(ops.length).toBeLessThanOrEqual(2);
            } else expect(ops.length).toBeLessThanOrEqual(Math.max(1, had.length));
          }

          // While an undo would change the queue, the Outbox lists the bulk edit with its Undo, and
          // counts each record whose queue it changed: a change still queued, or an edit of the
          // user's own it dropped (the bulk value was the service's).
          const now = queue();
          const changed = pool.filter(
            (id) =>
              !isDeepStrictEqual(
                now.filter((op) => op.recordId === id),
                priorQueue.filter((op) => op.recordId === id),
              ),
          );
          const group = bulk.groups().find((g) => g.id === applied.bulkEditId);
          expect(group ? group.queued + group.reverted : 0).toBe(changed.length);
          if (applied.bulkEditId !== null) await bulk.undo(applied.bulkEditId);
          // The same operations at the same places in the queue, with the same fields and states
          // (a refusal's reason, a backoff, attempts, edit counts and times included).
          expect(queue()).toEqual(priorQueue);
          expect(overlay()).toEqual(priorOverlay);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
