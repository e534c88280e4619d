/**
 * The preview's ETA counts the record updates that will be sent (issue 20: "an ETA before the user
 * confirms"), two ways to the same number: the preview's `patchesQueued`, and the PATCHes the
 * emulator receives when the replay then runs with nobody retrying anything. Records hold random
 * queued edits of the user's own, some refused by the service (`failed`): a refused edit stops
 * its record's queue until the user retries or discards it, so neither it nor the bulk value
 * queued behind it goes out, and neither may be counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { BulkEditService } from '../../../src/main/bulkEdit/bulkEditService';
import { outboxSession } from '../outbox/outboxSession';

const RECORDS = 8;

/** Per record: no edit of the user's, or one of a field, left pending or refused by the service. */
const ownEdit = fc.option(
  fc.record({
    field: fc.constantFrom('name', 'description'),
    refused: fc.boolean(),
  }),
);

describe('the bulk edit preview’s count of updates to send', () => {
  it('equals the PATCHes the replay sends, refused edits and the changes behind them left out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ownEdit, { minLength: RECORDS, maxLength: RECORDS }),
        fc.uniqueArray(fc.integer({ min: 0, max: RECORDS - 1 }), { minLength: 1 }),
        async (own, picked) => {
          const s = await outboxSession();
          const bulk = new BulkEditService({
            db: s.store.db,
            mirror: s.mirror,
            outbox: s.outbox,
            events: new EventHub(),
            patchBudget: () => undefined,
          });
          s.outbox.setWorkOffline(true);
          const ids = s.recordIds.slice(0, RECORDS);
          for (const [i, edit] of own.entries()) {
            if (!edit) continue;
            s.outbox.edit(s.portalId, ids[i]!, { [edit.field]: `Own ${edit.field} ${i}` });
            if (!edit.refused) continue;
            const [op] = s.outbox.repo.opsOfRecord(s.portalId, ids[i]!);
            s.outbox.repo.markFailed(op!.seq, 'Refused by the service (400).');
          }
          const preview = await bulk.preview({
            portalId: s.portalId,
            moduleId: s.module.id,
            selection: { kind: 'ids', ids: picked.map((i) => ids[i]!) },
            field: 'description',
            action: 'set',
            value: 'Bulk words',
          });
          await bulk.apply({ previewId: preview.previewId });
          const patches = () => s.writes().filter((w) => w.method === 'PATCH').length;
          const before = patches();
          s.outbox.setWorkOffline(false);
          await s.outbox.idle();
          expect(preview.patchesQueued).toBe(patches() - before);
        },
      ),
      {
        numRuns: 8,
        // A refused edit of a picked record (the bulk value waits behind it) and of one not picked.
        examples: [
          [
            [
              { field: 'name', refused: true },
              null,
              null,
              { field: 'description', refused: true },
            ].concat(Array<null>(RECORDS - 4).fill(null)),
            [0, 1],
          ],
        ],
      },
    );
  }, 120_000);
});
