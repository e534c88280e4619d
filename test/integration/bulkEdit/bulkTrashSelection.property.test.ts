/**
 * Bulk trash moves the records the user was asked about, and no other (issue 20). The question
 * ("Move N records to the recycle bin?") is asked, then a sync takes some records out of the
 * table's filter and brings others in before the user confirms. Whichever rows leave and arrive
 * (as many arriving as leaving included, where a count cannot tell), the confirm is refused in
 * words naming both, and nothing is queued; with no row moved, exactly the records asked about
 * are queued.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BulkSelection } from '../../../src/shared/ipc/areas/bulkEdit';
import { outboxSession } from '../outbox/outboxSession';
import type { BulkEditService } from '../../../src/main/bulkEdit/bulkEditService';
import { bulkEditOn } from './bulkEditOn';

type Session = Awaited<ReturnType<typeof outboxSession>>;

const RECORDS = 8;
const MARK = 'ZZMARK';
const filter = JSON.stringify({
  criteria: [{ field_name: 'name', criteria_condition: 'contains', value: [MARK] }],
  pattern: '1',
});

/** The ask (the question the dialog shows) and the confirm, as the dialog sends them. */
async function ask(bulk: BulkEditService, s: Session, selection: BulkSelection) {
  const asked = await bulk.askTrash({
    portalId: s.portalId,
    moduleId: s.module.id,
    selection,
    restore: false,
  });
  return { records: asked.records, confirm: () => bulk.trash({ previewId: asked.previewId }) };
}

/** Another client names the records so that exactly `marked` match the filter; a sync stores it. */
async function markOnServer(s: Session, marked: ReadonlySet<number>, names: Map<string, string>) {
  const ids = s.recordIds.slice(0, RECORDS);
  for (const [i, id] of ids.entries()) {
    const name = marked.has(i) ? `${MARK} ${i}` : `Plain ${i}`;
    if (names.get(id) === name) continue;
    await s.serverPatch(id, { name });
    names.set(id, name);
  }
  await s.engine.syncAccount(s.account).done;
}

const records = (n: number) => `${n} ${n === 1 ? 'record' : 'records'}`;

describe('bulk trash of a filter whose rows a sync changes between the question and the confirm', () => {
  it('is refused, naming the records that left and arrived, and queues nothing', async () => {
    const s = await outboxSession();
    const bulk = bulkEditOn(s);
    s.outbox.setWorkOffline(true);
    const names = new Map<string, string>();
    const index = fc.integer({ min: 0, max: RECORDS - 1 });
    // The rows matching when asked, then those that leave (of them) and arrive (of the others).
    const moves = fc
      .tuple(
        fc.uniqueArray(index, { minLength: 1, maxLength: RECORDS }),
        fc.uniqueArray(index, { maxLength: RECORDS }),
      )
      .map(([before, moved]) => ({
        before: new Set(before),
        leave: moved.filter((i) => before.includes(i)),
        arrive: moved.filter((i) => !before.includes(i)),
      }))
      .filter(({ leave, arrive }) => leave.length + arrive.length > 0);
    await fc.assert(
      fc.asyncProperty(moves, async ({ before, leave, arrive }) => {
        await markOnServer(s, before, names);
        const question = await ask(bulk, s, { kind: 'filter', filter });
        expect(question.records).toBe(before.size);
        const after = new Set([...before].filter((i) => !leave.includes(i)).concat(arrive));
        await markOnServer(s, after, names);
        const parts = [
          leave.length > 0
            ? `${records(leave.length)} no longer ${leave.length === 1 ? 'matches' : 'match'}`
            : '',
          arrive.length > 0
            ? `${arrive.length} new ${arrive.length === 1 ? 'record matches' : 'records match'}`
            : '',
        ].filter(Boolean);
        await expect(question.confirm()).rejects.toThrow(
          `${parts.join(' and ')} since you were asked (a sync changed the list). Nothing was moved to the recycle bin; review the selection and ask again.`,
        );
        expect(s.outbox.repo.allOps()).toEqual([]);
      }),
      // One row left and another arrived: the count is the same, and was all the guard compared.
      { numRuns: 12, examples: [[{ before: new Set([0, 2]), leave: [2], arrive: [5] }]] },
    );
  }, 60_000);

  it('moves exactly the records asked about when no row moved', async () => {
    const s = await outboxSession();
    const bulk = bulkEditOn(s);
    s.outbox.setWorkOffline(true);
    await markOnServer(s, new Set([1, 3, 4]), new Map());
    const question = await ask(bulk, s, { kind: 'filter', filter });
    expect(question.records).toBe(3);
    expect(await question.confirm()).toEqual({ queued: 3, failed: 0, failures: [] });
    expect(
      s.outbox.repo
        .allOps()
        .map((op) => [op.kind, op.recordId])
        .sort(),
    ).toEqual([1, 3, 4].map((i) => ['trash', s.recordIds[i]]).sort());
  });
});
