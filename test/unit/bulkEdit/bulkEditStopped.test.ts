/**
 * A bulk edit the app's end (killed, power lost) stopped half way through its batches: the next
 * start's Outbox says so (how many records of how many previewed were queued, the rest never
 * changed), and its Undo still finds every operation the written batches made (each batch's
 * operations and its records' journal are one transaction), giving back the user's own edits.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { DATABASE_FILE } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';
import { MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { outboxShape } from '../recordsImport/importStopped';

const RECORDS = 600;

describe('a bulk edit stopped half way by the app’s end', () => {
  it('is named as stopped at the next start, and its undo takes back every change written', async () => {
    const w = recordsWorkspace();
    const records = Array.from({ length: RECORDS }, (_, i) =>
      record(i + 1, { name: `Asset ${i}` }),
    );
    w.mirror.records.upsertRecords(records);
    // The user's own queued edits, some of which the bulk edit folds into.
    for (const i of [3, 270, 599]) {
      await w.ok('outbox.edit', {
        portalId: PORTAL,
        recordId: records[i]!.id,
        changes: { name: `Mine ${i}` },
      });
    }
    const before = outboxShape(w);
    const preview = await w.ok('bulkEdit.preview', {
      portalId: PORTAL,
      moduleId: MODULE,
      selection: { kind: 'ids', ids: records.map((r) => r.id) },
      field: 'name',
      action: 'set',
      value: 'Bulk name',
    });
    expect(preview.changes).toBe(RECORDS);
    // Killed once the first batch is written (its progress pushed, between two transactions).
    const copy = tempDir();
    const push = EventHub.prototype.push;
    let taken = false;
    const spy = vi.spyOn(EventHub.prototype, 'push').mockImplementation(function (
      this: EventHub,
      ...args: Parameters<EventHub['push']>
    ) {
      const result = push.apply(this, args);
      if (!taken && args[0] === 'bulkEdit.progress') {
        const { done } = (args[2] as () => { done: number })();
        if (done > 0) {
          taken = true;
          writeFileSync(path.join(copy, DATABASE_FILE), w.engine.store.db.serialize());
        }
      }
      return result;
    } as EventHub['push']);
    await w.ok('bulkEdit.apply', { previewId: preview.previewId });
    spy.mockRestore();
    expect(taken).toBe(true);
    // Where the apply ended, the bulk edit is whole: nothing said.
    expect(await w.ok('bulkEdit.groups')).toMatchObject([
      { records: RECORDS, planned: RECORDS, stopped: false },
    ]);

    const b = recordsWorkspace({ dataDir: copy });
    const [group, ...others] = await b.ok('bulkEdit.groups');
    expect(others).toEqual([]);
    const written = group!.records;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(RECORDS);
    expect(group).toMatchObject({ queued: written, planned: RECORDS, stopped: true });

    const undone = await b.ok('bulkEdit.undo', { id: group!.id });
    expect(undone).toEqual({ restored: written, sent: 0, changedSince: 0, neverQueued: 0 });
    expect(outboxShape(b)).toEqual(before);
    expect(await b.ok('bulkEdit.groups')).toEqual([]);
  });
});
