/**
 * An import's queued rows are checked against the module's catalog (fields, options, statuses,
 * people) read once for the whole import, not once per row: reading it was about half of a
 * created row's cost, so 50,000 new rows took about 35 s to queue.
 */
import { describe, expect, it, vi } from 'vitest';
import { OutboxRepository } from '../../../src/main/outbox/outboxRepository';
import { MODULE, PORTAL, recordsWorkspace } from '../records/workspace';
import { settled } from './importSteps';

describe('an import queuing its rows', () => {
  it('reads the module’s catalog a few times, whatever the rows', async () => {
    const w = recordsWorkspace();
    const rows = 120;
    const text = `Name,Cost\r\n${Array.from({ length: rows }, (_, i) => `Lamp ${i},EUR ${i}.50`).join('\r\n')}\r\n`;
    const upload = await w.ok('records.importUpload', {
      fileName: 'lamps.csv',
      offset: 0,
      chunk: Buffer.from(text).toString('base64'),
      last: true,
    });
    const file = await w.ok('records.importOpen', {
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId: upload.uploadId,
      locale: 'en-GB',
    });
    await w.ok('records.importCheck', {
      importId: file.importId,
      targets: file.columns.map((c) => c.target),
      mode: 'create',
    });
    expect(await settled(w, file.importId)).toMatchObject({ ready: rows, failing: 0 });

    // Every catalog read starts with the module's fields.
    const reads = vi.spyOn(OutboxRepository.prototype, 'fields');
    await w.ok('records.importConfirm', { importId: file.importId });
    expect(await settled(w, file.importId)).toMatchObject({ phase: 'queued', ready: rows });
    const catalogReads = reads.mock.calls.length;
    reads.mockRestore();
    expect((await w.ok('outbox.list', {})).length).toBe(rows);
    expect(catalogReads).toBeLessThanOrEqual(3);
  });
});
