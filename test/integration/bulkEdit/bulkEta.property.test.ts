/**
 * The preview's ETA counts the record updates that will be sent (issue 20: "an ETA before the user
 * confirms"), two ways to the same number: the preview's `patchesQueued`, and the PATCHes the
 * emulator receives when the replay then runs with nobody retrying anything. Records hold random
 * queued edits of the user's own, some refused by the service (`failed`): a refused edit stops
 * its record's queue until the user retries or discards it, so neither it nor the bulk value
 * queued behind it goes out, and neither may be counted. The module may have a configuration
 * change queued (an option added to one of its fields), left to go, refused or in conflict: its
 * record changes wait for it (readyHeads), so while it cannot go without the user none of them
 * goes out either, and none may be counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { BulkEditService } from '../../../src/main/bulkEdit/bulkEditService';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from '../configure/configureSession';

const RECORDS = 8;

/** Per record: no edit of the user's, or one of a field, left pending or refused by the service. */
const ownEdit = fc.option(
  fc.record({
    field: fc.constantFrom('name', 'description'),
    refused: fc.boolean(),
  }),
);

/** A change of the module's options queued before the bulk edit: none, or left as it is. */
const configChange = fc.constantFrom(null, 'pending', 'refused', 'conflict');

describe('the bulk edit preview’s count of updates to send', () => {
  it('equals the PATCHes the replay sends, refused edits, held modules and the changes behind them left out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ownEdit, { minLength: RECORDS, maxLength: RECORDS }),
        fc.uniqueArray(fc.integer({ min: 0, max: RECORDS - 1 }), { minLength: 1 }),
        configChange,
        async (own, picked, config) => {
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
          if (config !== null) {
            // An option added (a POST: not among the PATCHes counted), which the module's
            // record changes wait for; refused or in conflict, it waits for the user.
            const configure = configureOn(s);
            const category = configure
              .fields(s.portalId, s.module.id)
              .fields.find((f) => f.apiName === 'cf_category')!;
            configure.changeOptions({
              portalId: s.portalId,
              moduleId: s.module.id,
              fieldId: category.id,
              add: ['Added before the bulk edit'],
            });
            const op = s.outbox.repo.opsOfRecord(s.portalId, `layouts:${s.module.id}`)[0]!;
            if (config === 'refused') s.outbox.repo.markFailed(op.seq, 'Refused (400).');
            if (config === 'conflict') {
              s.outbox.repo.markConflict(op.seq, op.fields, {
                kind: 'fields',
                fields: [],
                foundAt: new Date().toISOString(),
              });
            }
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
              { field: 'name' as const, refused: true },
              null,
              null,
              { field: 'description' as const, refused: true },
              ...Array<null>(RECORDS - 4).fill(null),
            ],
            [0, 1],
            null,
          ],
          // The module's configuration change refused, and in conflict: nothing of it goes.
          [Array<null>(RECORDS).fill(null), [0, 1, 2], 'refused'],
          [
            [{ field: 'name' as const, refused: false }, ...Array<null>(RECORDS - 1).fill(null)],
            [0, 3],
            'conflict',
          ],
          [Array<null>(RECORDS).fill(null), [0, 1], 'pending'],
        ],
      },
    );
  }, 120_000);
});
