/**
 * What a file's cells become, through the import's steps as the renderer takes them: a CSV that
 * is not UTF-8 refused in words; UTF-16 "Unicode Text" imported; an XLSX's dates as their
 * formats show them, a percentage as the number it shows; its errors and formulas without
 * results failing their rows, never emptying or renaming a record.
 */
import ExcelJS from 'exceljs';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYOUT, MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { FIELDS, mirrorField } from '../store/mirror/fixture';
import { SHARED_STRINGS_MAX_ITEMS } from '../../../src/main/recordsImport/xlsx/sharedStrings';
import { inlineCell, writeHandWrittenXlsx } from '../../support/handWrittenXlsx';
import { tempDir } from '../../support/tempDir';
import { settled } from './importSteps';

type Workspace = ReturnType<typeof recordsWorkspace>;

/** A workspace whose layout shows the fields these tests fill, a percentage among them. */
function workspace(): Workspace {
  const w = recordsWorkspace();
  w.mirror.metadata.replaceFields(PORTAL, MODULE, [
    ...FIELDS,
    mirrorField('f21', 'cf_share', 'percentage'),
  ]);
  w.mirror.metadata.replaceSections(PORTAL, LAYOUT, [
    {
      id: 's1',
      name: 'All',
      position: 1,
      fields: ['f1', 'f2', 'f3', 'f8', 'f9', 'f11', 'f12', 'f21'].map((fieldId, i) => ({
        fieldId,
        position: i + 1,
      })),
    },
  ]);
  return w;
}

/** An XLSX of `rows` written by exceljs (a spreadsheet's way: strings shared), styled by `style`. */
async function workbook(rows: ExcelJS.CellValue[][], style?: (sheet: ExcelJS.Worksheet) => void) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('S');
  for (const row of rows) sheet.addRow(row);
  style?.(sheet);
  const file = path.join(tempDir('portaldesk-import-'), 'a.xlsx');
  await book.xlsx.writeFile(file);
  return readFileSync(file);
}

async function upload(w: Workspace, bytes: Buffer, fileName: string) {
  const { uploadId } = await w.ok('records.importUpload', {
    fileName,
    offset: 0,
    chunk: bytes.toString('base64'),
    last: true,
  });
  return { portalId: PORTAL, moduleId: MODULE, uploadId, locale: 'en-GB' };
}

/** The file opened with its columns as matched, checked, and (queue) confirmed. */
async function check(w: Workspace, bytes: Buffer, fileName: string, mode: 'create' | 'update') {
  const file = await w.ok('records.importOpen', await upload(w, bytes, fileName));
  await w.ok('records.importCheck', {
    importId: file.importId,
    targets: file.columns.map((c) => c.target),
    mode,
  });
  const state = await settled(w, file.importId);
  const { failures } = await w.ok('records.importFailures', {
    importId: file.importId,
    offset: 0,
    limit: 50,
  });
  const queue = async () => {
    await w.ok('records.importConfirm', { importId: file.importId });
    await settled(w, file.importId);
    return (await w.ok('outbox.list', {})).flatMap((e) => e.fields.map((f) => [f.field, f.mine]));
  };
  return { state, failures, queue };
}

describe('an imported file’s cells', () => {
  it('refuses a CSV that is not UTF-8 in words, instead of queuing "M�ller"', async () => {
    const w = workspace();
    const bytes = Buffer.from('name,description\r\nM\u00fcller,caf\u00e9\r\n', 'latin1');
    const error = await w.refused('records.importOpen', await upload(w, bytes, 'a.csv'));
    expect(error.message).toMatch(
      /^a\.csv could not be read as CSV \(the file is not UTF-8 text: byte 20, on line 2 after "M", is not part of a UTF-8 character; .*"CSV UTF-8 \(Comma delimited\)".*\)\. Nothing was imported/,
    );
  });

  it('stops a check at a byte that is not UTF-8 past the rows the dialog samples', async () => {
    const w = workspace();
    // Past the first piece the file is read in, so the open (header and samples) reads well.
    const rows = Array.from({ length: 5000 }, (_, i) => `Laptop ${i},ok\r\n`).join('');
    const file = path.join(tempDir('portaldesk-import-'), 'a.csv');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`name,description\r\n${rows}`),
        Buffer.from('Caf\u00e9,x', 'latin1'),
      ]),
    );
    const { state } = await check(w, readFileSync(file), 'a.csv', 'create');
    expect(state.phase).toBe('failed');
    expect(state.message).toMatch(
      /^The import stopped after .*: the file is not UTF-8 text: .*on line 5,002 after "Caf".* Nothing was queued\.$/,
    );
  });

  it('imports Excel\'s "Unicode Text" (UTF-16, tabs) with its letters', async () => {
    const w = workspace();
    const bytes = Buffer.from('\ufeffname\tdescription\r\nMüller\tcafé\r\n', 'utf16le');
    const { state, queue } = await check(w, bytes, 'a.txt', 'create');
    expect(state).toMatchObject({ ready: 1, failing: 0 });
    expect(await queue()).toEqual(
      expect.arrayContaining([
        ['name', 'Müller'],
        ['description', 'café'],
      ]),
    );
  });

  it("reads an XLSX date-time at midnight and a formula's date as their formats show them", async () => {
    const w = workspace();
    w.mirror.records.upsertRecords([record(1, { name: 'Alpha' })]);
    const bytes = await workbook(
      [
        ['ID', 'cf_audit', 'cf_purchase'],
        [
          record(1).id,
          new Date(Date.UTC(2026, 2, 6)),
          { formula: 'DATE(2026,3,5)', result: new Date(Date.UTC(2026, 2, 5)) },
        ],
      ],
      (sheet) => {
        sheet.getCell('B2').numFmt = 'yyyy-mm-dd hh:mm';
        sheet.getCell('C2').numFmt = 'yyyy-mm-dd';
      },
    );
    const { state, failures, queue } = await check(w, bytes, 'a.xlsx', 'update');
    expect(failures).toEqual([]);
    expect(state).toMatchObject({ ready: 1, failing: 0 });
    // Midnight in the portal's zone (Asia/Kolkata).
    expect(await queue()).toEqual([
      ['cf_audit', '2026-03-05T18:30:00.000Z'],
      ['cf_purchase', '2026-03-05'],
    ]);
  });

  it('fails a row whose XLSX cells hold errors, naming the column and the error; the record keeps its values', async () => {
    const w = workspace();
    w.mirror.records.upsertRecords([record(1, { name: 'Alpha', description: 'keep me' })]);
    const file = path.join(tempDir('portaldesk-import-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sheetData:
        `<row r="1">${inlineCell('A1', 'ID')}${inlineCell('B1', 'Name')}${inlineCell('C1', 'Description')}</row>` +
        `<row r="2">${inlineCell('A2', record(1).id)}<c r="B2" t="e"><v>#N/A</v></c>` +
        '<c r="C2" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>',
    });
    const { state, failures } = await check(w, readFileSync(file), 'a.xlsx', 'update');
    expect(state).toMatchObject({ ready: 0, failing: 1, unchanged: 0 });
    expect(failures).toEqual([
      {
        row: 2,
        column: 'Name',
        reason: expect.stringMatching(
          /^name holds the spreadsheet error #N\/A, not a value: .* Nothing of this row is queued; correct the cell/,
        ),
      },
      {
        row: 2,
        column: 'Description',
        reason: expect.stringMatching(
          /^Description holds the spreadsheet error #DIV\/0!, not a value/,
        ),
      },
    ]);
    expect(await w.ok('outbox.list', {})).toEqual([]);
  });

  it('fails a row whose XLSX formula has no saved result instead of emptying the field', async () => {
    const w = workspace();
    w.mirror.records.upsertRecords([record(1, { name: 'Alpha', description: 'keep me' })]);
    const bytes = await workbook([
      ['ID', 'Description'],
      [record(1).id, { formula: 'UPPER("x")' } as ExcelJS.CellValue],
    ]);
    const { state, failures } = await check(w, bytes, 'a.xlsx', 'update');
    expect(state).toMatchObject({ ready: 0, failing: 1 });
    expect(failures).toEqual([
      {
        row: 2,
        column: 'Description',
        reason: expect.stringMatching(
          /^Description is a formula with no saved result \(=UPPER\("x"\)\): .* open and save the file in a spreadsheet so its results are stored/,
        ),
      },
    ]);
    // A new record is not created without it either.
    const created = await check(
      workspace(),
      await workbook([
        ['name', 'description'],
        ['Beta', { formula: 'A1' } as ExcelJS.CellValue],
      ]),
      'b.xlsx',
      'create',
    );
    expect(created.state).toMatchObject({ ready: 0, failing: 1 });
  });

  it('reads an XLSX percentage as the number it shows, as a CSV\'s "15 %" is', async () => {
    const bytes = await workbook(
      [
        ['name', 'cf_share', 'cf_quantity'],
        ['A', 0.15, 0.07],
      ],
      (sheet) => {
        sheet.getCell('B2').numFmt = '0%';
        sheet.getCell('C2').numFmt = '0.0%';
      },
    );
    const { state, queue } = await check(workspace(), bytes, 'a.xlsx', 'create');
    expect(state).toMatchObject({ ready: 1, failing: 0 });
    expect(await queue()).toEqual(
      expect.arrayContaining([
        ['cf_share', 15],
        ['cf_quantity', 7],
      ]),
    );
    const csv = await check(
      workspace(),
      Buffer.from('name,cf_share\r\nA,15 %\r\n'),
      'a.csv',
      'create',
    );
    expect(await csv.queue()).toContainEqual(['cf_share', 15]);
  });

  it('refuses an XLSX whose shared strings hold more texts than a workbook can, in words, queuing nothing', async () => {
    const w = workspace();
    const file = path.join(tempDir('portaldesk-import-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sheetData: `<row r="1">${inlineCell('A1', 'Name')}</row><row r="2"><c r="A2" t="s"><v>0</v></c></row>`,
      sharedStrings: '<si/>'.repeat(SHARED_STRINGS_MAX_ITEMS + 1),
    });
    const refusal = await w.refused(
      'records.importOpen',
      await upload(w, readFileSync(file), 'a.xlsx'),
    );
    expect(refusal.message).toBe(
      'a.xlsx could not be read as an XLSX workbook (its shared strings hold more than 4,194,304 texts, more than a workbook of its size can: a spreadsheet keeps each distinct text once). Nothing was imported; save it again from the spreadsheet and choose it again.',
    );
    expect(await w.ok('outbox.list', {})).toEqual([]);
  }, 60_000);
});
