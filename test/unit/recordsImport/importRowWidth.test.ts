/**
 * A CSV row whose cells do not line up with the header: a value holding an unquoted separator
 * shifts every cell after it, and a row cut short leaves the last columns without cells. Read as
 * they come, both would queue wrong values (a shifted name, a field emptied) into records.
 */
import { describe, expect, it } from 'vitest';
import { MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';

type Workspace = ReturnType<typeof recordsWorkspace>;

async function checkUpdate(w: Workspace, text: string) {
  const { uploadId } = await w.ok('records.importUpload', {
    fileName: 'changes.csv',
    offset: 0,
    chunk: Buffer.from(text, 'utf8').toString('base64'),
    last: true,
  });
  const file = await w.ok('records.importOpen', { portalId: PORTAL, moduleId: MODULE, uploadId });
  await w.ok('records.importCheck', {
    importId: file.importId,
    targets: file.columns.map((c) => c.target),
    mode: 'update',
  });
  for (;;) {
    const state = await w.ok('records.importState', { importId: file.importId });
    if (state.phase !== 'checking') {
      const { failures } = await w.ok('records.importFailures', {
        importId: file.importId,
        offset: 0,
        limit: 10,
      });
      return { state, failures };
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('import rows not as wide as the header', () => {
  it('a row with more cells than the header fails instead of shifting its values', async () => {
    const w = recordsWorkspace();
    const alpha = record(1, { name: 'Alpha', custom: { cf_tags: ['Warranty'] } });
    w.mirror.records.upsertRecords([alpha]);
    const { state, failures } = await checkUpdate(
      w,
      `id,cf_tags,name\r\n${alpha.id},Warranty,Acme, Inc\r\n`,
    );
    expect(state).toMatchObject({ ready: 0, failing: 1 });
    expect(failures).toEqual([
      { row: 2, column: null, reason: expect.stringMatching(/^4 cells under a header of 3/) },
    ]);
  });

  it('empty cells past the header (a trailing separator) are no problem', async () => {
    const w = recordsWorkspace();
    const alpha = record(1, { name: 'Alpha', custom: { cf_tags: ['Warranty'] } });
    w.mirror.records.upsertRecords([alpha]);
    const { state } = await checkUpdate(w, `id,name,cf_tags\r\n${alpha.id},Beta,Warranty,\r\n`);
    expect(state).toMatchObject({ ready: 1, failing: 0 });
  });

  it('a CSV row cut short fails instead of emptying the fields it has no cells for', async () => {
    const w = recordsWorkspace();
    const alpha = record(1, { name: 'Alpha', custom: { cf_tags: ['Warranty'] } });
    w.mirror.records.upsertRecords([alpha]);
    const { state, failures } = await checkUpdate(w, `id,name,cf_tags\r\n${alpha.id},Beta\r\n`);
    expect(state).toMatchObject({ ready: 0, failing: 1 });
    expect(failures).toEqual([
      { row: 2, column: null, reason: expect.stringMatching(/^2 cells under a header of 3/) },
    ]);
    // Counted in words as a user reads them: one cell, one column.
    const one = await checkUpdate(
      w,
      `id,name
${alpha.id}
`,
    );
    expect(one.failures).toEqual([
      {
        row: 2,
        column: null,
        reason: expect.stringMatching(/^1 cell under a header of 2 columns:/),
      },
    ]);
    const wide = await checkUpdate(
      w,
      `id
${alpha.id},Beta
`,
    );
    expect(wide.failures).toEqual([
      {
        row: 2,
        column: null,
        reason: expect.stringMatching(/^2 cells under a header of 1 column:/),
      },
    ]);
  });
});
