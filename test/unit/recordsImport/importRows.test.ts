/**
 * The import's file readers: an XLSX read streamed (written by exceljs's own writer, as a
 * spreadsheet would save it: typed numbers, yes/no, dates, rich text, formulas with their
 * results, rows left out) gives the same rows as the sheet holds, row numbers kept; a CSV read
 * in 64 KiB pieces gives what CsvReader gives for the whole text.
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFormatOf, readImportRows } from '../../../src/main/recordsImport/importRows';
import { delimitedLine } from '../../../src/shared/csv/delimitedText';
import type { ImportCell } from '../../../src/shared/recordValues/parseCell';
import { writeSharedStringsXlsx } from '../../support/sharedStringsXlsx';
import { tempDir } from '../../support/tempDir';

async function all(rows: AsyncIterable<ImportCell[]>): Promise<ImportCell[][]> {
  const out: ImportCell[][] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe('readImportRows', () => {
  it('streams an XLSX: typed cells, rich text, formulas, and rows the sheet leaves out', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Assets');
    sheet.addRow(['ID', 'Name', 'Quantity', 'Insured', 'Bought']);
    sheet.addRow(['101', 'Laptop', 3, true, new Date(Date.UTC(2026, 2, 5))]);
    // Row 3 is left out of the file; row 4 has rich text, a formula, a time of day its format
    // shows, one its format hides (exceljs's default for a date), and a link.
    sheet.getRow(4).values = [
      '102',
      { richText: [{ text: 'Desk ' }, { text: 'XL', font: { bold: true } }] },
      { formula: '1+1', result: 2 },
      false,
      new Date(Date.UTC(2026, 2, 5, 15, 30)),
      new Date(Date.UTC(2026, 2, 5, 15, 30)),
      { text: 'site', hyperlink: 'https://example.com' },
    ];
    sheet.getCell('E4').numFmt = 'dd/mm/yyyy hh:mm';
    // A second sheet is not read.
    workbook.addWorksheet('Notes').addRow(['ignored']);
    const file = path.join(tempDir('portaldesk-import-'), 'a.xlsx');
    await workbook.xlsx.writeFile(file);
    expect(await all(readImportRows(file, 'xlsx'))).toEqual([
      ['ID', 'Name', 'Quantity', 'Insured', 'Bought'],
      ['101', 'Laptop', 3, true, '2026-03-05'],
      [],
      ['102', 'Desk XL', 2, false, '2026-03-05T15:30', '2026-03-05', 'site'],
    ]);
  });

  it('streams an XLSX of many rows the same as it was written', async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: path.join(tempDir('portaldesk-import-'), 'big.xlsx'),
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet('Assets');
    const rows = Array.from({ length: 3000 }, (_, i) => [`id-${i}`, `name ${i % 7}`, i * 1.5]);
    for (const row of rows) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
    const file = (workbook as unknown as { stream: { path: string } }).stream.path;
    expect(await all(readImportRows(file, 'xlsx'))).toEqual(rows);
  });

  it('reads any text of an XLSX whole, a character cut by a chunk of the zip included', async () => {
    const dir = tempDir('portaldesk-import-');
    // Two- to four-byte characters among ASCII, in texts long enough to cross zlib's 16 KiB chunks.
    const text = fc
      .array(fc.constantFrom('a', ' ', 'é', 'ü', '中', '😀', 'ß', '\u0301', 'Ж'), {
        minLength: 4_000,
        maxLength: 12_000,
      })
      .map((chars) => chars.join(''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (rows, sharedStrings) => {
          const file = path.join(dir, `t-${sharedStrings}.xlsx`);
          if (sharedStrings) {
            // A spreadsheet program's way: texts in the shared strings part (stored after the
            // sheet, the workbook last).
            await writeSharedStringsXlsx(file, rows);
          } else {
            // The export's way: texts inline in the sheet.
            const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
              filename: file,
              useSharedStrings: false,
            });
            const sheet = workbook.addWorksheet('Assets');
            for (const row of rows) sheet.addRow(row).commit();
            sheet.commit();
            await workbook.commit();
          }
          expect(await all(readImportRows(file, 'xlsx'))).toEqual(rows);
        },
      ),
      // A failure is reported as found: shrinking texts of thousands of characters takes minutes.
      { numRuns: 12, endOnFailure: true },
    );
  }, 60_000);

  it('refuses a sheet that is not UTF-8, in words, instead of reading U+FFFD', async () => {
    const file = path.join(tempDir('portaldesk-import-'), 'bad.xlsx');
    const xml = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>M\u00fcller</t></is></c></row></sheetData></worksheet>',
    );
    // The ü's second byte replaced by one that cannot follow it.
    const at = xml.indexOf(Buffer.from('\u00fc')) + 1;
    xml[at] = 0x41;
    await writeSharedStringsXlsx(file, [['x']], xml);
    await expect(all(readImportRows(file, 'xlsx'))).rejects.toThrow(/not valid UTF-8/);
  });

  it('refuses a file that is not a workbook, in words', async () => {
    const file = path.join(tempDir('portaldesk-import-'), 'not.xlsx');
    writeFileSync(file, 'ID,Name\r\n1,Laptop\r\n');
    await expect(all(readImportRows(file, 'xlsx'))).rejects.toThrow(/\w/);
  });

  it('reads a CSV in pieces the same as whole (rows longer than a piece included)', async () => {
    const dir = tempDir('portaldesk-import-');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.string({ maxLength: 40_000 }), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (rows) => {
          const file = path.join(dir, 'a.csv');
          writeFileSync(file, `\ufeff${rows.map((r) => delimitedLine(r)).join('')}`);
          expect(await all(readImportRows(file, 'csv'))).toEqual(rows);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('knows a file by its name', () => {
    expect(importFormatOf('a.CSV')).toBe('csv');
    expect(importFormatOf('a.xlsx')).toBe('xlsx');
    expect(importFormatOf('a.xls')).toBeNull();
  });
});
