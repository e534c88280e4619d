/**
 * XLSX files no spreadsheet writes, as an attacker would send them: the upload's limit is on the
 * zipped bytes, so a small file may unpack to shared strings or a cell of any size; a row may name
 * one cell twice; names may be prototype keys. Each is refused in words, or read as plain text,
 * never held whole in memory or read as something else.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import { IMPORT_ROW_MAX_CHARS } from '../../../src/shared/ipc/areas/recordsImport';
import { SHEET_CELL_MAX_CHARS } from '../../../src/main/recordsImport/xlsx/sheetXmlRows';
import { XML_MAX_DEPTH } from '../../../src/main/recordsImport/xlsx/xmlEvents';
import { XLSX_PART_MAX_CHARS, xlsxRows } from '../../../src/main/recordsImport/xlsx/xlsxRows';
import { SHARED_STRINGS_MAX_ITEMS } from '../../../src/main/recordsImport/xlsx/sharedStrings';
import type { ImportCell } from '../../../src/shared/recordValues/parseCell';
import { inlineCell, writeHandWrittenXlsx } from '../../support/handWrittenXlsx';
import { tempDir } from '../../support/tempDir';

async function rowsOf(parts: Parameters<typeof writeHandWrittenXlsx>[1]): Promise<ImportCell[][]> {
  const file = path.join(tempDir('portaldesk-xlsx-hostile-'), 'a.xlsx');
  await writeHandWrittenXlsx(file, parts);
  const rows: ImportCell[][] = [];
  for await (const row of readImportRows(file, 'xlsx')) rows.push(row);
  return rows;
}

describe('a hostile XLSX', () => {
  it('is refused when its shared strings unpack past the most a workbook holds', async () => {
    const huge = 'x'.repeat(XLSX_PART_MAX_CHARS);
    await expect(
      rowsOf({
        sheetData: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
        sharedStrings: `<si><t>${huge}</t></si>`,
      }),
    ).rejects.toThrow(
      /^its part xl\/sharedStrings\.xml unpacks to more than 67,108,864 characters/,
    );
  }, 60_000);

  it('is refused when its sheet unpacks past the most a sheet of records holds, before its rows are read', async () => {
    // Rows and padding of a few KB zipped: within the bound memory holds, but each pass over the
    // sheet (open, check, queue) read all of it; 100 MiB of such a zip took an hour a pass.
    const file = path.join(tempDir('portaldesk-xlsx-hostile-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sheetData: `<row r="1">${inlineCell('A1', 'Name')}</row>${' '.repeat(300_000)}<row r="2">${inlineCell('A2', 'x')}</row>`,
    });
    const read = async (limit: number) => {
      const rows: ImportCell[][] = [];
      for await (const row of xlsxRows(file, limit)) rows.push(row);
      return rows;
    };
    await expect(read(200_000)).rejects.toThrow(
      /^its part xl\/worksheets\/sheet1\.xml unpacks to more than 200,000 characters/,
    );
    expect(await read(400_000)).toEqual([['Name'], ['x']]);
  });

  it('is refused when its shared strings hold more items than a workbook within the size limit can', async () => {
    // Each item within the characters' limit and tiny (5 characters of XML, a few bytes zipped):
    // millions of them were held as strings of their own, 143 MB of heap for 5 million.
    const sheetData = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>';
    await expect(
      rowsOf({ sheetData, sharedStrings: '<si/>'.repeat(SHARED_STRINGS_MAX_ITEMS + 1) }),
    ).rejects.toThrow(
      `its shared strings hold more than ${SHARED_STRINGS_MAX_ITEMS.toLocaleString('en-US')} texts, more than a workbook of its size can`,
    );
    // As many as the limit are read, and the last is the text it is.
    const [row] = await rowsOf({
      sheetData: `<row r="1"><c r="A1" t="s"><v>${SHARED_STRINGS_MAX_ITEMS - 1}</v></c></row>`,
      sharedStrings: `${'<si/>'.repeat(SHARED_STRINGS_MAX_ITEMS - 1)}<si><t>last</t></si>`,
    });
    expect(row).toEqual(['last']);
  }, 60_000);

  it('is refused when one cell holds more than a cell is read to', async () => {
    await expect(
      rowsOf({
        sheetData: `<row r="1">${inlineCell('A1', 'y'.repeat(SHEET_CELL_MAX_CHARS + 1))}</row>`,
      }),
    ).rejects.toThrow("its sheet's row 1 has a cell of more than 1,048,576 characters");
    await expect(
      rowsOf({
        sheetData: `<row r="1"><c r="A1"><v>${'1'.repeat(SHEET_CELL_MAX_CHARS + 1)}</v></c></row>`,
      }),
    ).rejects.toThrow(/has a cell of more than/);
  });

  it('is refused when one row holds more than a row is read to, in its cells or its shared texts', async () => {
    // Cells each within a cell's limit, more of them than a row may hold: thousands of such cells
    // unpack from a few megabytes of zip, and the row was held whole (gigabytes).
    const cells = Math.floor(IMPORT_ROW_MAX_CHARS / SHEET_CELL_MAX_CHARS) + 1;
    const big = 'y'.repeat(SHEET_CELL_MAX_CHARS);
    const columns = Array.from({ length: cells }, (_, i) => String.fromCharCode(65 + i));
    const limit = `its sheet's row 2 holds more than ${IMPORT_ROW_MAX_CHARS.toLocaleString('en-US')} characters`;
    await expect(
      rowsOf({
        sheetData: `<row r="1">${inlineCell('A1', 'Name')}</row><row r="2">${columns.map((c) => inlineCell(`${c}2`, big)).join('')}</row>`,
      }),
    ).rejects.toThrow(limit);
    // One long shared text named by many cells: each is read (and parsed) as that text.
    await expect(
      rowsOf({
        sheetData: `<row r="1">${inlineCell('A1', 'Name')}</row><row r="2">${columns.map((c) => `<c r="${c}2" t="s"><v>0</v></c>`).join('')}</row>`,
        sharedStrings: `<si><t>${big}</t></si>`,
      }),
    ).rejects.toThrow(limit);
    // A row at the limit is read.
    const [, row] = await rowsOf({
      sheetData: `<row r="1">${inlineCell('A1', 'Name')}</row><row r="2">${columns
        .slice(1)
        .map((c) => `<c r="${c}2" t="s"><v>0</v></c>`)
        .join('')}</row>`,
      sharedStrings: `<si><t>${big}</t></si>`,
    });
    expect(row).toHaveLength(cells);
  }, 60_000);

  it('is refused when its XML nests elements deeper than any part of a workbook', async () => {
    // A million open elements (3 MB of XML, a few KB zipped): the parser kept each, 600 MB for
    // two million. A workbook's parts nest a handful deep.
    await expect(rowsOf({ sheetData: `<row r="1">${'<x>'.repeat(1_000_000)}` })).rejects.toThrow(
      `its XML nests elements more than ${XML_MAX_DEPTH} deep, as no workbook does`,
    );
    await expect(
      rowsOf({
        sheetData: `<row r="1"><c r="A1" t="s"><v>0</v></c></row>`,
        sharedStrings: `<si>${'<r>'.repeat(XML_MAX_DEPTH)}<t>deep</t>${'</r>'.repeat(XML_MAX_DEPTH)}</si>`,
      }),
    ).rejects.toThrow(/nests elements more than/);
    // As deep as a rich text's run in a shared string (sst, si, r, t) reads.
    expect(
      await rowsOf({
        sheetData: `<row r="1"><c r="A1" t="s"><v>0</v></c></row>`,
        sharedStrings: '<si><r><rPr><b/></rPr><t>Ri</t></r><r><t>ch</t></r></si>',
      }),
    ).toEqual([['Rich']]);
  }, 60_000);

  it('is refused when a row names a column twice, or goes back', async () => {
    await expect(
      rowsOf({
        sheetData: `<row r="1">${inlineCell('B1', 'first')}${inlineCell('B1', 'second')}</row>`,
      }),
    ).rejects.toThrow(`its sheet's row 1 has a cell at "B1" after column 2`);
    await expect(
      rowsOf({ sheetData: `<row r="1">${inlineCell('C1', 'c')}${inlineCell('A1', 'a')}</row>` }),
    ).rejects.toThrow(`its sheet's row 1 has a cell at "A1" after column 3`);
  });

  it('is refused when a cell points at shared text by no number', async () => {
    for (const value of ['', ' ', '1e0', '-0', 'x']) {
      await expect(
        rowsOf({
          sheetData: `<row r="1"><c r="A1" t="s"><v>${value}</v></c></row>`,
          sharedStrings: '<si><t>first</t></si>',
        }),
      ).rejects.toThrow(`its sheet points at shared text ${value}, which the file does not hold`);
    }
  });

  it('reads prototype keys as the texts they are', async () => {
    expect(
      await rowsOf({
        sheetData: `<row r="1">${inlineCell('A1', '__proto__')}<c r="B1" t="s"><v>0</v></c></row>`,
        sharedStrings: '<si><t>constructor</t></si>',
      }),
    ).toEqual([['__proto__', 'constructor']]);
  });
});
