/**
 * The records export against a real engine: the file holds exactly what `records.query` answers
 * for the same view (filter, sort, pending local edits laid over), read window by window and laid
 * out by the same cell rules: two ways of getting the same answer. CSV read back by an RFC 4180
 * reader, XLSX by exceljs's reader; a cancel deletes the partial file and says so.
 */
import ExcelJS from 'exceljs';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportArgs, ExportProgress } from '../../../src/shared/ipc/areas/recordsExport';
import type { RecordRow, RecordsField } from '../../../src/shared/ipc/areas/records';
import { rowCells, type CellOptions } from '../../../src/shared/recordValues/cellText';
import { readCsv } from '../../support/readCsv';
import { MODULE, PORTAL, record, recordsWorkspace } from '../../unit/records/workspace';

const filter = JSON.stringify({
  criteria: [{ field_name: 'status', criteria_condition: 'is', value: ['2001', '2002'] }],
  pattern: '1',
});
const COLUMNS = [
  'name',
  'status',
  'owner',
  'cf_cost',
  'cf_tags',
  'cf_audit',
  'cf_purchase',
  'cf_insured',
  'cf_quantity',
  'cf_watchers',
];

type Workspace = ReturnType<typeof recordsWorkspace>;

/** A module of `n` records with pending local edits: renames, amounts, one leaving the filter. */
async function workspaceWithEdits(n: number): Promise<Workspace> {
  const workspace = recordsWorkspace();
  workspace.mirror.records.upsertRecords(Array.from({ length: n }, (_, i) => record(i + 1)));
  const { ok } = workspace;
  const first = await ok('records.query', {
    portalId: PORTAL,
    moduleId: MODULE,
    filter,
    offset: 0,
    limit: 30,
  });
  const [a, b, c] = first.rows;
  await ok('outbox.edit', {
    portalId: PORTAL,
    recordId: a!.id,
    changes: { name: '=HYPERLINK("x") "quoted", comma' },
  });
  await ok('outbox.edit', {
    portalId: PORTAL,
    recordId: b!.id,
    changes: { cf_cost: { currency_code: 'EUR', amount: 987654 } },
  });
  // Leaves the filter: the export must not hold it either.
  await ok('outbox.edit', { portalId: PORTAL, recordId: c!.id, changes: { status: '2003' } });
  return workspace;
}

/** The view read through `records.query` in windows of `size`, as cells. */
async function viewByWindows(
  { ok }: Workspace,
  args: Pick<ExportArgs, 'filter' | 'sort' | 'columns'>,
  cells: CellOptions,
  size = 700,
): Promise<{ labels: string[]; rows: (string | number | boolean)[][]; records: RecordRow[] }> {
  const columns = await ok('records.columns', { portalId: PORTAL, moduleId: MODULE });
  const fields = args.columns.map(
    (key) => columns.fields.find((f) => f.key === key) as RecordsField,
  );
  const records: RecordRow[] = [];
  for (let offset = 0; ; offset += size) {
    const page = await ok('records.query', {
      portalId: PORTAL,
      moduleId: MODULE,
      ...(args.filter === undefined ? {} : { filter: args.filter }),
      ...(args.sort === undefined ? {} : { sort: args.sort }),
      offset,
      limit: size,
    });
    records.push(...page.rows);
    if (offset + size >= page.total) break;
  }
  return {
    labels: fields.map((f) => f.label),
    rows: records.map((row) =>
      rowCells(fields, row, {
        ...cells,
        context: { ...cells.context, timeZone: columns.timeZone },
      }),
    ),
    records,
  };
}

/** Runs an export to its end; the last progress it pushed. */
async function exportView(workspace: Workspace, args: ExportArgs): Promise<ExportProgress> {
  const pushed: ExportProgress[] = [];
  const stop = workspace.engine.events.subscribe((event, payload) => {
    if (event === 'records.exportProgress') pushed.push(payload as ExportProgress);
  });
  try {
    const started = await workspace.ok('records.export', args);
    expect(started.state).toBe('running');
    await workspace.engine.exports.idle();
    const last = pushed.filter((p) => p.exportId === started.exportId).at(-1)!;
    return last;
  } finally {
    stop();
  }
}

const fileOf = (workspace: Workspace, progress: ExportProgress) =>
  path.join(workspace.engine.exports.folder, progress.fileName);

describe('records export: the file is the view records.query lists', () => {
  it('CSV of a filtered, sorted view with pending edits, values as shown', async () => {
    const workspace = await workspaceWithEdits(2600);
    const args: ExportArgs = {
      portalId: PORTAL,
      moduleId: MODULE,
      filter,
      sort: { field: 'cf_cost', descending: true },
      columns: COLUMNS,
      format: 'csv',
      values: 'shown',
      locale: 'en-GB',
    };
    const end = await exportView(workspace, args);
    const expected = await viewByWindows(workspace, args, {
      values: 'shown',
      context: { timeZone: 'UTC', locale: 'en-GB' },
      defuse: true,
    });
    expect(end).toMatchObject({
      state: 'done',
      rows: expected.rows.length,
      total: expected.rows.length,
    });
    expect(end.message).toMatch(/^Exported [\d,]+ records to portaldesk-Assets-.*\.csv\.$/);
    const text = readFileSync(fileOf(workspace, end), 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = readCsv(text.slice(1));
    expect(header).toEqual(expected.labels);
    expect(rows).toEqual(expected.rows.map((row) => row.map(String)));
    // The edits are there: the formula-like rename defused, the record that left the filter gone.
    expect(rows.some((row) => row[0] === `'=HYPERLINK("x") "quoted", comma`)).toBe(true);
    expect(rows.some((row) => /^EUR\s987,654\.00$/.test(row[3]!))).toBe(true);
    expect(expected.records.every((r) => r.status?.id !== '2003')).toBe(true);
    // A currency with its code, a time in the portal's zone (Asia/Kolkata), names not ids.
    expect(rows.find((row) => row[3] !== '')?.[3]).toMatch(/^(USD|EUR|INR)\s[\d,]+\.\d\d$/);
    expect(
      rows
        .map((row) => row[2])
        .filter(Boolean)
        .every((name) => !/^\d+$/.test(name!)),
    ).toBe(true);
    expect(
      readdirSync(workspace.engine.exports.folder).some((name) => name.endsWith('.part')),
    ).toBe(false);
  });

  it('XLSX of the same view with raw values reads back as the records.query rows', async () => {
    const workspace = await workspaceWithEdits(1500);
    const args: ExportArgs = {
      portalId: PORTAL,
      moduleId: MODULE,
      filter,
      sort: { field: 'name', descending: false },
      columns: COLUMNS,
      format: 'xlsx',
      values: 'raw',
    };
    const end = await exportView(workspace, args);
    const expected = await viewByWindows(workspace, args, {
      values: 'raw',
      context: { timeZone: 'UTC' },
      defuse: false,
    });
    expect(end).toMatchObject({ state: 'done', rows: expected.rows.length });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(fileOf(workspace, end));
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Assets');
    const read: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      read.push(Array.from({ length: COLUMNS.length }, (_, i) => row.getCell(i + 1).value ?? ''));
    });
    expect(read[0]).toEqual(expected.labels);
    expect(read.slice(1)).toEqual(expected.rows);
    // Raw values: an amount as the API's JSON, a quantity a number, the formula-like name as text.
    expect(read.slice(1).some((row) => String(row[3]).includes('"amount":987654'))).toBe(true);
    expect(read.slice(1).some((row) => typeof row[8] === 'number')).toBe(true);
    expect(read.slice(1).some((row) => row[0] === '=HYPERLINK("x") "quoted", comma')).toBe(true);
  });

  it('an empty view writes the header row only, and says so', async () => {
    const workspace = recordsWorkspace();
    const end = await exportView(workspace, {
      portalId: PORTAL,
      moduleId: MODULE,
      columns: ['name', 'status'],
      format: 'csv',
      values: 'shown',
    });
    expect(end).toMatchObject({ state: 'done', rows: 0, total: 0 });
    expect(end.message).toMatch(/No records match this view: .* holds the header row only\./);
    const columns = await workspace.ok('records.columns', { portalId: PORTAL, moduleId: MODULE });
    const labels = ['name', 'status'].map(
      (key) => columns.fields.find((f) => f.key === key)!.label,
    );
    expect(readCsv(readFileSync(fileOf(workspace, end), 'utf8').slice(1))).toEqual([labels]);
  });

  it('a cancel stops the export, deletes the partial file and says what happened', async () => {
    const workspace = recordsWorkspace();
    workspace.mirror.records.upsertRecords(Array.from({ length: 5000 }, (_, i) => record(i + 1)));
    const pushed: ExportProgress[] = [];
    workspace.engine.events.subscribe((event, payload) => {
      if (event === 'records.exportProgress') pushed.push(payload as ExportProgress);
    });
    expect(await workspace.ok('records.latestExport', {})).toBeNull();
    const started = await workspace.ok('records.export', {
      portalId: PORTAL,
      moduleId: MODULE,
      columns: COLUMNS,
      format: 'xlsx',
      values: 'shown',
    });
    // A dialog opened meanwhile (the view left and come back to) is told it runs.
    expect(await workspace.ok('records.latestExport', {})).toMatchObject({
      exportId: started.exportId,
      state: 'running',
    });
    // Another export meanwhile is refused in words.
    const second = await workspace.refused('records.export', {
      portalId: PORTAL,
      moduleId: MODULE,
      columns: ['name'],
      format: 'csv',
      values: 'shown',
    });
    expect(second.message).toMatch(/An export is running .*wait for it or cancel it/);
    // Let a batch or two be written, then cancel.
    while (!pushed.some((p) => p.rows > 0)) await new Promise((r) => setImmediate(r));
    const cancelled = await workspace.ok('records.cancelExport', { exportId: started.exportId });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.rows).toBeGreaterThan(0);
    expect(cancelled.rows).toBeLessThan(5000);
    expect(cancelled.message).toMatch(
      /Export cancelled after [\d,]+ of 5,000 records\. The partial file was deleted/,
    );
    expect(readdirSync(workspace.engine.exports.folder)).toEqual([]);
    expect(existsSync(fileOf(workspace, cancelled))).toBe(false);
    expect(pushed.at(-1)).toEqual(cancelled);
    expect(await workspace.ok('records.latestExport', {})).toEqual(cancelled);
    const link = await workspace.refused('records.exportLink', { exportId: started.exportId });
    expect(link.message).toMatch(/no finished file/);
  });

  it('XLSX: a text longer than an Excel cell holds is cut to fit, and the end says so', async () => {
    const workspace = recordsWorkspace();
    // The spec's description holds up to 80,000 characters; an Excel cell 32,767.
    const long = 'word '.repeat(9_000);
    workspace.mirror.records.upsertRecords([
      record(1, { name: 'Long', description: long }),
      record(2, { name: 'Short', description: 'short' }),
    ]);
    const args = {
      portalId: PORTAL,
      moduleId: MODULE,
      columns: ['name', 'description'],
      values: 'shown' as const,
      sort: { field: 'name', descending: false },
    } satisfies Omit<ExportArgs, 'format'>;
    const end = await exportView(workspace, { ...args, format: 'xlsx' });
    expect(end.state).toBe('done');
    expect(end.message).toMatch(
      /^Exported 2 records to .*\.xlsx\. 1 cell was longer than the 32,767 characters an Excel cell holds: cut there, ending with "…" \(the records are unchanged, and importing this file leaves them whole\)\. Export as CSV to have every text whole\.$/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(fileOf(workspace, end));
    const sheet = book.worksheets[0]!;
    const cut = String(sheet.getRow(2).getCell(2).value);
    expect(cut).toHaveLength(32_767);
    expect(cut).toBe(`${long.slice(0, 32_766)}…`);
    expect(sheet.getRow(3).getCell(2).value).toBe('short');
    // A CSV holds every text whole, and says nothing of cells.
    const csv = await exportView(workspace, { ...args, format: 'csv' });
    expect(csv.message).toMatch(/^Exported 2 records to .*\.csv\.$/);
    expect(readCsv(readFileSync(fileOf(workspace, csv), 'utf8').slice(1))[1]![1]).toBe(long);
  });

  it('refuses in words when the exports folder cannot be made, and writes nothing', async () => {
    const workspace = recordsWorkspace();
    workspace.mirror.records.upsertRecords([record(1)]);
    // A file where the folder goes: as a folder without write permission, it cannot be used.
    const folder = workspace.engine.exports.folder;
    writeFileSync(folder, 'not a folder');
    const refused = await workspace.refused('records.export', {
      portalId: PORTAL,
      moduleId: MODULE,
      columns: ['name'],
      format: 'csv',
      values: 'shown',
    });
    expect(refused.message).toMatch(
      /^The exports folder .* cannot be used \(.*\)\. Nothing was exported and the mirror is unchanged: check that the folder can be written/,
    );
    expect(readFileSync(folder, 'utf8')).toBe('not a folder');
    expect(await workspace.ok('records.latestExport', {})).toBeNull();
  });

  it('refuses an unknown column or a filter the mirror cannot apply, writing nothing', async () => {
    const workspace = recordsWorkspace();
    const base = { portalId: PORTAL, moduleId: MODULE, format: 'csv', values: 'shown' } as const;
    const column = await workspace.refused('records.export', {
      ...base,
      columns: ['name', 'cf_gone'],
    });
    expect(column.message).toMatch(/The column "cf_gone" is not a field of this module any more/);
    const bad = await workspace.refused('records.export', {
      ...base,
      columns: ['name'],
      filter: JSON.stringify({
        criteria: [{ field_name: 'cf_cost', criteria_condition: 'contains', value: ['1'] }],
        pattern: '1',
      }),
    });
    expect(bad.message).toMatch(/"contains" does not apply to number fields/);
    expect(existsSync(workspace.engine.exports.folder)).toBe(false);
  });
});
