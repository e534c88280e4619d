/**
 * An XLSX's merged cells, read as the sheet shows them: a value merged down a column is every
 * covered row's value (it emptied the field of every record but the first), and a value merged
 * across columns fails the covered columns' rows instead of emptying their fields. Held by a
 * property against a model of what the sheet shows, for sheets exceljs writes with any merges.
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import { MERGED_RANGES_MAX } from '../../../src/main/recordsImport/xlsx/mergedCells';
import type { ImportCell } from '../../../src/shared/recordValues/parseCell';
import { inlineCell, writeHandWrittenXlsx } from '../../support/handWrittenXlsx';
import { tempDir } from '../../support/tempDir';
import { LAYOUT, MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { settled } from './importSteps';

async function rowsOf(file: string): Promise<ImportCell[][]> {
  const rows: ImportCell[][] = [];
  for await (const row of readImportRows(file, 'xlsx')) rows.push(row);
  return rows;
}

interface Merge {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const letter = (column: number) => String.fromCharCode(64 + column);
const refOf = (m: Merge) => `${letter(m.left)}${m.top}:${letter(m.right)}${m.bottom}`;

/** Merges that overlap none before them (exceljs refuses overlapping ones, as Excel does). */
function disjoint(merges: Merge[]): Merge[] {
  const kept: Merge[] = [];
  for (const m of merges) {
    const single = m.top === m.bottom && m.left === m.right;
    const overlaps = kept.some(
      (k) => m.left <= k.right && k.left <= m.right && m.top <= k.bottom && k.top <= m.bottom,
    );
    if (!single && !overlaps) kept.push(m);
  }
  return kept;
}

/** What the sheet shows in each cell, as the import reads it (the module comment of mergedCells). */
function shown(grid: (string | null)[][], merges: Merge[]): ImportCell[][] {
  const rows: ImportCell[][] = grid.map((row) => [...row]);
  for (const m of merges) {
    const value = grid[m.top - 1]![m.left - 1] ?? null;
    for (let r = m.top; r <= m.bottom; r++) {
      for (let c = m.left; c <= m.right; c++) {
        if (r === m.top && c === m.left) continue;
        rows[r - 1]![c - 1] =
          value === null ? null : c === m.left ? value : { kind: 'merged', range: refOf(m), value };
      }
    }
  }
  // A sheet stores no empty cells: a row ends at its last value.
  return rows.map((row) => {
    const cells = [...row];
    while (cells.length > 0 && cells.at(-1) === null) cells.pop();
    return cells;
  });
}

describe('an XLSX with merged cells', () => {
  it('reads every cell as the sheet shows it, whatever cells are merged', async () => {
    const dir = tempDir('portaldesk-xlsx-merged-');
    const merge = fc
      .record({
        top: fc.integer({ min: 1, max: 6 }),
        left: fc.integer({ min: 1, max: 4 }),
        height: fc.integer({ min: 0, max: 3 }),
        width: fc.integer({ min: 0, max: 2 }),
      })
      .map(({ top, left, height, width }) => ({
        top,
        left,
        bottom: Math.min(6, top + height),
        right: Math.min(4, left + width),
      }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(fc.option(fc.stringMatching(/^[a-z]{1,4}$/)), { minLength: 4, maxLength: 4 }),
          {
            minLength: 6,
            maxLength: 6,
          },
        ),
        fc.array(merge, { maxLength: 5 }).map(disjoint),
        async (grid, merges) => {
          const book = new ExcelJS.Workbook();
          const sheet = book.addWorksheet('S');
          grid.forEach((row, r) =>
            row.forEach((value, c) => {
              if (value !== null) sheet.getCell(r + 1, c + 1).value = value;
            }),
          );
          // Merged as a spreadsheet merges: the covered cells' own values are dropped.
          for (const m of merges) sheet.mergeCells(m.top, m.left, m.bottom, m.right);
          const stored = grid.map((row, r) =>
            row.map((value, c) =>
              merges.some(
                (m) =>
                  r + 1 >= m.top &&
                  r + 1 <= m.bottom &&
                  c + 1 >= m.left &&
                  c + 1 <= m.right &&
                  !(r + 1 === m.top && c + 1 === m.left),
              )
                ? null
                : value,
            ),
          );
          const file = path.join(dir, 'a.xlsx');
          await book.xlsx.writeFile(file);
          const expected = shown(stored, merges);
          // A sheet's trailing empty rows are not written.
          while (expected.length > 0 && expected.at(-1)!.length === 0) expected.pop();
          const read = await rowsOf(file);
          while (read.length > 0 && read.at(-1)!.length === 0) read.pop();
          expect(read).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('reads merges written with a prefix, over rows the sheet leaves out, and refuses too many', async () => {
    const dir = tempDir('portaldesk-xlsx-merged-');
    const file = path.join(dir, 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sheetData: `<row r="1">${inlineCell('A1', 'Name')}${inlineCell('B1', 'Tag')}</row><row r="2">${inlineCell('A2', 'one')}${inlineCell('B2', 'x')}</row><row r="4">${inlineCell('A4', 'three')}</row>`,
      afterSheetData:
        '<x:mergeCells xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1"><x:mergeCell ref="B2:B4"/></x:mergeCells>',
    });
    expect(await rowsOf(file)).toEqual([
      ['Name', 'Tag'],
      ['one', 'x'],
      [null, 'x'],
      ['three', 'x'],
    ]);
    await writeHandWrittenXlsx(file, {
      sheetData: `<row r="1">${inlineCell('A1', 'Name')}</row>`,
      afterSheetData: `<mergeCells>${Array.from(
        { length: MERGED_RANGES_MAX + 1 },
        (_, i) => `<mergeCell ref="C${2 * i + 1}:C${2 * i + 2}"/>`,
      ).join('')}</mergeCells>`,
    });
    await expect(rowsOf(file)).rejects.toThrow(
      'its sheet merges cells in more than 200,000 places, more than a sheet of records does',
    );
  }, 60_000);

  it('updates each record under a value merged down a column; fails a row whose value is merged across fields', async () => {
    const w = recordsWorkspace();
    w.mirror.metadata.replaceSections(PORTAL, LAYOUT, [
      {
        id: 's1',
        name: 'All',
        position: 1,
        fields: ['f1', 'f2', 'f3', 'f12'].map((fieldId, i) => ({ fieldId, position: i + 1 })),
      },
    ]);
    const records = [1, 2, 3, 4].map((i) =>
      record(i, { name: `R${i}`, custom: { cf_serial: `S${i}`, cf_quantity: i } }),
    );
    w.mirror.records.upsertRecords(records);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('S');
    sheet.addRow(['ID', 'cf_serial', 'cf_quantity']);
    for (const r of records) sheet.addRow([r.id, r.custom.cf_serial, r.custom.cf_quantity]);
    // "NEW" shown down the serials of rows 2 to 4; row 5's serial shown across its quantity too.
    sheet.getCell('B2').value = 'NEW';
    sheet.mergeCells('B2:B4');
    sheet.getCell('B5').value = 'S4b';
    sheet.mergeCells('B5:C5');
    const file = path.join(tempDir('portaldesk-xlsx-merged-'), 'a.xlsx');
    await book.xlsx.writeFile(file);
    const { uploadId } = await w.ok('records.importUpload', {
      fileName: 'merged.xlsx',
      offset: 0,
      chunk: readFileSync(file).toString('base64'),
      last: true,
    });
    const opened = await w.ok('records.importOpen', {
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId,
      locale: 'en-GB',
    });
    expect(opened.columns.map((c) => c.sample)).toEqual([
      records.slice(0, 3).map((r) => r.id),
      ['NEW', 'NEW', 'NEW'],
      ['1', '2', '3'],
    ]);
    await w.ok('records.importCheck', {
      importId: opened.importId,
      targets: opened.columns.map((c) => c.target),
      mode: 'update',
    });
    expect(await settled(w, opened.importId)).toMatchObject({ ready: 3, failing: 1 });
    const { failures } = await w.ok('records.importFailures', {
      importId: opened.importId,
      offset: 0,
      limit: 10,
    });
    expect(failures).toEqual([
      {
        row: 5,
        column: 'cf_quantity',
        reason:
          "cf_quantity lies under the merged cells B5:C5, whose one value is shown across several columns, so which field it is meant for is unclear. Nothing of this row is queued; unmerge those cells, put each field's value in its own column, save the file and import it again.",
      },
    ]);
    await w.ok('records.importConfirm', { importId: opened.importId });
    await settled(w, opened.importId);
    const queued = await w.ok('outbox.list', {});
    expect(
      queued.map((e) => [e.recordName, e.fields.map((f) => [f.field, f.mine])]).sort(),
    ).toEqual([
      ['R1', [['cf_serial', 'NEW']]],
      ['R2', [['cf_serial', 'NEW']]],
      ['R3', [['cf_serial', 'NEW']]],
    ]);
  });
});
