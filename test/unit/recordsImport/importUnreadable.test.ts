/**
 * A CSV the reader cannot read as written: a quote never closed would read every line after it
 * as one cell, so the rows there would vanish without a word and the record would take them as
 * its value. The check stops and says where, and nothing can be queued.
 */
import { describe, expect, it } from 'vitest';
import { MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { openFile, settled } from './importSteps';

describe('a CSV with a quote never closed', () => {
  it('stops the check, naming the row and column, and queues nothing', async () => {
    const w = recordsWorkspace();
    const alpha = record(1, { name: 'Alpha', description: 'kept' });
    w.mirror.records.upsertRecords([alpha]);
    const file = await openFile(
      w,
      'changes.csv',
      // The first rows are fine: the file opens, and its check meets the quote.
      `id,name,description\r\n${[2, 3, 4].map((i) => `${record(i).id},R${i},d\r\n`).join('')}${alpha.id},Alpha,"oops\r\nB,two,x\r\nC,three,y\r\n`,
    );
    await w.ok('records.importCheck', {
      importId: file.importId,
      targets: file.columns.map((c) => c.target),
      mode: 'update',
    });
    const state = await settled(w, file.importId);
    expect(state.phase).toBe('failed');
    expect(state.message).toMatch(
      /a quote opened in row 5, column 3, is never closed.*Nothing was queued\.$/,
    );
    expect((await w.refused('records.importConfirm', { importId: file.importId })).message).toMatch(
      /check/i,
    );
    expect(await w.ok('outbox.list', {})).toEqual([]);
  });

  it('refuses the file when the rows it opens with hold it, saying where', async () => {
    const w = recordsWorkspace();
    const { uploadId } = await w.ok('records.importUpload', {
      fileName: 'new.csv',
      offset: 0,
      chunk: Buffer.from('name,description\r\nA,"oops\r\nB,two\r\n').toString('base64'),
      last: true,
    });
    const refusal = await w.refused('records.importOpen', {
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId,
    });
    expect(refusal.message).toBe(
      'new.csv could not be read as CSV: a quote opened in row 2, column 2, is never closed, so every line after it would be read as that one cell. Close it (a quote inside a value is written twice: "") and choose the file again. Nothing was imported.',
    );
  });
});
