/**
 * The import through the contract's dispatcher, as the renderer calls it: a file in pieces, its
 * columns matched by name, a check that lists failing rows with their row number, column and
 * reason (paged) and queues nothing, the confirm that queues the rest, matching by a unique
 * field (none and several reported), and the refusals in words.
 */
import { describe, expect, it } from 'vitest';
import { MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { openFile, settled } from './importSteps';

describe('records import through the contract', () => {
  it('creates: semicolons found, columns matched, failing rows listed with reasons, nothing queued until confirmed', async () => {
    const w = recordsWorkspace();
    const file = await openFile(
      w,
      'new assets.csv',
      '\ufeffNAME;cf tags;Cf_Cost;Notes\r\nLaptop 7;Critical, Leased;EUR 12.50;x\r\nDesk;Critical;lots;y\r\n;Leased;1;z\r\n\r\n"Chair; ""grey""";Nope;2;w\r\n',
    );
    expect(file.format).toBe('csv');
    expect(file.columns.map((c) => [c.header, c.target, c.sample[0]])).toEqual([
      ['NAME', 'name', 'Laptop 7'],
      ['cf tags', 'cf_tags', 'Critical, Leased'],
      ['Cf_Cost', 'cf_cost', 'EUR 12.50'],
      ['Notes', null, 'x'],
    ]);
    await w.ok('records.importCheck', {
      importId: file.importId,
      targets: file.columns.map((c) => c.target),
      mode: 'create',
    });
    const checked = await settled(w, file.importId);
    expect(checked).toMatchObject({
      phase: 'checked',
      rows: 4,
      ready: 1,
      failing: 3,
      unchanged: 0,
    });
    expect(await w.ok('outbox.list', {})).toEqual([]);
    const page = await w.ok('records.importFailures', {
      importId: file.importId,
      offset: 0,
      limit: 2,
    });
    expect(page.total).toBe(3);
    expect(page.failures).toEqual([
      { row: 3, column: 'Cf_Cost', reason: '"lots" is not an amount (such as USD 12.50).' },
      { row: 4, column: 'NAME', reason: expect.stringMatching(/^name is required/) },
    ]);
    const next = await w.ok('records.importFailures', {
      importId: file.importId,
      offset: 2,
      limit: 2,
    });
    // Row 5 is blank and skipped; row 6's category is no option of the field.
    expect(next.failures).toEqual([
      { row: 6, column: 'cf tags', reason: expect.stringMatching(/^"Nope" is not an option/) },
    ]);
    await w.ok('records.importConfirm', { importId: file.importId });
    expect(await settled(w, file.importId)).toMatchObject({
      phase: 'queued',
      ready: 1,
      failing: 3,
    });
    const queued = await w.ok('outbox.list', {});
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: 'create', recordName: 'Laptop 7' });
    expect(queued[0]!.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'cf_tags', mine: ['Critical', 'Leased'] }),
        expect.objectContaining({
          field: 'cf_cost',
          mine: expect.objectContaining({ currency_code: 'EUR', amount: 12.5 }),
        }),
      ]),
    );
    // A second confirm queues nothing more.
    expect((await w.refused('records.importConfirm', { importId: file.importId })).message).toMatch(
      /queued already/,
    );
  });

  it('updates matched by a unique field: rows naming no record or several are reported', async () => {
    const w = recordsWorkspace();
    w.mirror.records.upsertRecords([
      record(1, { name: 'Alpha' }),
      record(2, { name: 'Beta' }),
      record(3, { name: 'Beta' }),
      record(4, { name: 'Gamma', custom: { cf_tags: ['Warranty'] } }),
    ]);
    const file = await openFile(
      w,
      'changes.csv',
      'name,cf_tags\r\nAlpha,Critical\r\nBeta,Leased\r\nDelta,Leased\r\nGamma,Warranty\r\n',
    );
    expect(file.matchFields).toEqual(expect.arrayContaining(['id', 'name', 'cf_serial']));
    await w.ok('records.importCheck', {
      importId: file.importId,
      targets: ['name', 'cf_tags'],
      mode: 'update',
      matchBy: 'name',
    });
    expect(await settled(w, file.importId)).toMatchObject({ ready: 1, failing: 2, unchanged: 1 });
    const { failures } = await w.ok('records.importFailures', {
      importId: file.importId,
      offset: 0,
      limit: 10,
    });
    expect(failures).toEqual([
      {
        row: 3,
        column: 'name',
        reason: expect.stringMatching(/^2 records hold "Beta" \(ids .*\); match by ID instead\.$/),
      },
      { row: 4, column: 'name', reason: 'no record of this module holds "Delta".' },
    ]);
    await w.ok('records.importConfirm', { importId: file.importId });
    await settled(w, file.importId);
    const queued = await w.ok('outbox.list', {});
    expect(
      queued.map((e) => [e.kind, e.recordName, e.fields.map((f) => [f.field, f.mine])]),
    ).toEqual([['update', 'Alpha', [['cf_tags', ['Critical']]]]]);
  });

  /** A check of 20,000 rows, started with `check` and cancelled at once: its end. */
  async function cancelledCheck(check: { mode: 'create' } | { mode: 'update'; matchBy: string }) {
    const w = recordsWorkspace();
    const rows = Array.from({ length: 20_000 }, (_, i) => `Asset ${i},Critical\r\n`).join('');
    const file = await openFile(w, 'many.csv', `name,cf_tags\r\n${rows}`);
    await w.ok('records.importCheck', {
      importId: file.importId,
      targets: ['name', 'cf_tags'],
      ...check,
    });
    await w.ok('records.importCancel', { importId: file.importId });
    return { w, file, state: await settled(w, file.importId) };
  }

  it('a cancelled check stops between slices, and must run again before anything is queued', async () => {
    const { w, file, state } = await cancelledCheck({ mode: 'create' });
    expect(state.phase).toBe('cancelled');
    expect(state.rows).toBeLessThan(20_000);
    expect(state.message).toMatch(/^Check cancelled after [\d,]+ rows?\. Nothing was queued\.$/);
    expect((await w.refused('records.importConfirm', { importId: file.importId })).message).toMatch(
      /check them first/,
    );
    expect(await w.ok('outbox.list', {})).toEqual([]);
  });

  it('a check matching by a unique field stops at a cancel while it reads the file for the values', async () => {
    const { state } = await cancelledCheck({ mode: 'update', matchBy: 'name' });
    expect(state.phase).toBe('cancelled');
    // Stopped while the file was read for its names: no row was checked.
    expect(state.rows).toBe(0);
    expect(state.message).toBe('Check cancelled after 0 rows. Nothing was queued.');
  });

  it('a queuing cancelled half way queues nothing; checked and confirmed again, creates each row once', async () => {
    const w = recordsWorkspace();
    // The cancel is seen after the first slice (IMPORT_SLICE_MS of rows, a few dozen: each queued
    // create costs about a millisecond), so 1,000 rows still stop half way.
    const total = 1_000;
    const rows = Array.from({ length: total }, (_, i) => `Asset ${i},Critical\r\n`).join('');
    const file = await openFile(w, 'many.csv', `name,cf_tags\r\n${rows}`);
    const check = async () => {
      await w.ok('records.importCheck', {
        importId: file.importId,
        targets: ['name', 'cf_tags'],
        mode: 'create',
      });
      return settled(w, file.importId);
    };
    expect((await check()).ready).toBe(total);
    await w.ok('records.importConfirm', { importId: file.importId });
    await w.ok('records.importCancel', { importId: file.importId });
    const stopped = await settled(w, file.importId);
    expect(stopped.phase).toBe('cancelled');
    expect(stopped.rows).toBeLessThan(total);
    // All or none: what was queued before the cancel was taken back.
    expect(await w.ok('outbox.list', {})).toEqual([]);
    expect(stopped.ready).toBe(0);

    const again = await check();
    expect(again.ready).toBe(total);
    await w.ok('records.importConfirm', { importId: file.importId });
    expect((await settled(w, file.importId)).phase).toBe('queued');
    const names = (await w.ok('outbox.list', {})).map((e) => e.recordName);
    expect(names).toHaveLength(total);
    expect(new Set(names).size).toBe(total);
  });

  it('refuses in words what it cannot take, and changes nothing', async () => {
    const w = recordsWorkspace();
    expect(
      (
        await w.refused('records.importUpload', {
          fileName: 'a.pdf',
          offset: 0,
          chunk: '',
          last: true,
        })
      ).message,
    ).toMatch(/not a CSV or XLSX file/);
    const file = await openFile(w, 'a.csv', 'name,cf_serial\r\nx,y\r\n');
    expect(
      (
        await w.refused('records.importCheck', {
          importId: file.importId,
          targets: ['name', 'name'],
          mode: 'create',
        })
      ).message,
    ).toMatch(/^Two columns are mapped to name\. Nothing was checked/);
    expect(
      (
        await w.refused('records.importCheck', {
          importId: file.importId,
          targets: ['name', 'cf_serial'],
          mode: 'update',
        })
      ).message,
    ).toMatch(/^No column is mapped to ID/);
    expect((await w.refused('records.importConfirm', { importId: file.importId })).message).toMatch(
      /check them first/,
    );
    expect(
      (
        await w.refused('records.importOpen', {
          portalId: PORTAL,
          moduleId: MODULE,
          uploadId: '0123456789abcdef',
        })
      ).message,
    ).toMatch(/not arrived whole/);
    expect(await w.ok('outbox.list', {})).toEqual([]);
  });
});
