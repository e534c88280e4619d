/**
 * The export's file writers: any cell text comes back as written (CSV: through an RFC 4180
 * reader written apart from the writer; XLSX: through exceljs's own reader), numbers and yes/no
 * stay what they were in XLSX, and an abort leaves no file behind.
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvFileWriter } from '../../../src/main/recordsExport/csvFileWriter';
import { encodeCells } from '../../../src/main/recordsExport/exportEncoding';
import { sheetName, XlsxFileWriter } from '../../../src/main/recordsExport/xlsxFileWriter';
import { xmlCell } from '../../../src/main/recordsExport/xmlCell';
import { defuseFormula } from '../../../src/shared/csv/csvField';
import type { CellValue } from '../../../src/shared/recordValues/cellText';
import { rowCells } from '../../../src/shared/recordValues/cellText';
import { readCsv } from '../../support/readCsv';
import { tempDir } from '../../support/tempDir';
import { sampleRow } from '../renderer/records/sampleRow';

/** Text with what CSV must quote, formulas, any Unicode (astral, combining) and control characters. */
const cellText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    'a,b',
    'say "hi"',
    'one\ntwo',
    'crlf\r\nhere',
    ' padded ',
    '=1+1',
    '-3',
    '@x',
    '\t',
    // exceljs's writer drops DEL: the sheet would hold less than the record's text.
    'a\u007Fb',
  ),
  fc
    .array(fc.constantFrom('a', ',', '"', '\n', '\r', ' ', '=', 'é', '😀', '\t', ';'))
    .map((cs) => cs.join('')),
);

let n = 0;
const fileIn = (dir: string, ext: string) => path.join(dir, `export-${++n}.${ext}`);

describe('CsvFileWriter', () => {
  it('waiting for the disk many times leaves no listener behind (no MaxListenersExceededWarning)', async () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const writer = new CsvFileWriter(fileIn(dir, 'csv'));
      await writer.header(['a']);
      // Each batch is larger than the stream's 16 KiB buffer, so each write waits for 'drain'.
      const batch = Array.from({ length: 2_000 }, (_, i) => [`row ${i} ${'x'.repeat(20)}`]);
      for (let i = 0; i < 30; i++) await writer.rows(encodeCells('csv', batch));
      await writer.finish();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('any cell text round-trips through the writer and an RFC 4180 reader', async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(cellText, { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(cellText, { minLength: 4, maxLength: 4 }), { maxLength: 6 }),
        async (labels, rows) => {
          const file = fileIn(dir, 'csv');
          const writer = new CsvFileWriter(file);
          await writer.header(labels);
          const cells = rows.map((row) => row.slice(0, labels.length));
          await writer.rows(encodeCells('csv', cells));
          await writer.finish();
          const text = readFileSync(file, 'utf8');
          expect(text.startsWith('\uFEFF')).toBe(true);
          // The header comes from the service too: its formulas are defused.
          expect(readCsv(text.slice(1))).toEqual([labels.map(defuseFormula), ...cells]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a text field of a record comes back defused, a number as its text, through cellText', async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(
        cellText,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        async (text, amount) => {
          const row = sampleRow({
            name: text,
            custom: { cf_serial: text, cf_cost: { currency_code: 'USD', amount } },
          });
          const columns = [
            { key: 'name', type: 'name' },
            { key: 'cf_serial', type: 'single_line' },
            { key: 'cf_cost', type: 'currency' },
          ];
          const cells = rowCells(columns, row, {
            values: 'shown',
            context: { timeZone: 'UTC', locale: 'en-US' },
            defuse: true,
          });
          const file = fileIn(dir, 'csv');
          const writer = new CsvFileWriter(file);
          await writer.header(['Name', 'Serial', 'Cost']);
          await writer.rows(encodeCells('csv', [cells]));
          await writer.finish();
          const [, read] = readCsv(readFileSync(file, 'utf8').slice(1));
          const shown = text === '' ? '' : defuseFormula(text);
          expect(read).toEqual([shown, shown, cells[2]]);
          // An amount is never taken for a formula, negative or not.
          expect(read![2]!.startsWith("'")).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an abort deletes the partial file', async () => {
    const dir = tempDir();
    const file = fileIn(dir, 'csv');
    const writer = new CsvFileWriter(file);
    await writer.header(['a']);
    await writer.rows(encodeCells('csv', [['1'], ['2']]));
    await writer.abort();
    expect(readdirSync(dir)).toEqual([]);
  });
});

/** The cells exceljs's reader gives back for a sheet's rows, `width` columns each. */
async function readXlsx(file: string, width: number): Promise<{ name: string; rows: unknown[][] }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push(Array.from({ length: width }, (_, i) => row.getCell(i + 1).value ?? ''));
  });
  return { name: sheet.name, rows };
}

describe('XlsxFileWriter', () => {
  it('holds a bounded amount of the sheet’s XML in memory, however many rows are written', async () => {
    const writer = new XlsxFileWriter(fileIn(tempDir(), 'xlsx'), 'Assets');
    await writer.header(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    const batch = encodeCells(
      'xlsx',
      Array.from({ length: 1000 }, (_, i) =>
        Array.from({ length: 10 }, (_, j) => `cell ${i} ${j} of a row`),
      ),
    );
    // What the zip has not yet taken (exceljs pipes the sheet's XML into it without waiting).
    const zipHeld = () => {
      const sheet = (writer as unknown as { sheet: { _stream?: { pipes?: unknown[] } } }).sheet;
      const input = sheet._stream?.pipes?.[0] as
        { _writableState?: { length: number } } | undefined;
      return input?._writableState?.length ?? 0;
    };
    let most = 0;
    // About 60 MB of XML in all.
    for (let i = 0; i < 100; i++) {
      await writer.rows(batch);
      most = Math.max(most, zipHeld());
    }
    await writer.finish();
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(16 * 1024 * 1024);
  }, 60_000);

  it('any cell comes back from exceljs’s reader as written: text as text, numbers and yes/no typed', async () => {
    const dir = tempDir();
    const cell: fc.Arbitrary<CellValue> = fc.oneof(
      cellText.filter((t) => t !== ''),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      // A JSON number can be -0; a sheet has no such number (xmlCell).
      fc.constant(-0),
      fc.boolean(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 5 }),
        async (rows) => {
          const file = fileIn(dir, 'xlsx');
          const writer = new XlsxFileWriter(file, 'Assets');
          await writer.header(['Name', '=Cost', 'Tags']);
          await writer.rows(encodeCells('xlsx', rows));
          await writer.finish();
          const read = await readXlsx(file, 3);
          expect(read.name).toBe('Assets');
          expect(read.rows).toEqual([
            ['Name', '=Cost', 'Tags'],
            ...rows.map((row) => row.map(xmlSafe)),
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('cuts a text longer than an Excel cell holds (32,767 units) to fit, never a character in half', async () => {
    const dir = tempDir();
    // Around the limit, with characters of two units where the cut falls.
    const long = fc
      .tuple(
        fc.integer({ min: 32_760, max: 32_775 }),
        fc.constantFrom('a', '😀', 'é'),
        fc.constantFrom('a', '😀'),
      )
      .map(([units, fill, tail]) => {
        let t = '';
        while (t.length < units) t += t.length % 3 === 0 ? tail : fill;
        return t;
      });
    await fc.assert(
      fc.asyncProperty(long, async (text) => {
        const file = fileIn(dir, 'xlsx');
        const writer = new XlsxFileWriter(file, 'Assets');
        await writer.header(['Notes']);
        const batch = encodeCells('xlsx', [[text], ['short']]);
        expect(batch.format === 'xlsx' && batch.cut).toBe(text.length > 32_767 ? 1 : 0);
        await writer.rows(batch);
        await writer.finish();
        const [, cutRow, shortRow] = (await readXlsx(file, 1)).rows as string[][];
        const [cell, short] = [cutRow?.[0], shortRow?.[0]];
        expect(short).toBe('short');
        if (text.length <= 32_767) {
          expect(cell).toBe(text);
          return;
        }
        expect(cell!.length).toBeLessThanOrEqual(32_767);
        expect(cell!.endsWith('…')).toBe(true);
        expect(text.startsWith(cell!.slice(0, -1))).toBe(true);
        expect(xmlCell(cell!)).toBe(cell);
        expect(cell!.length).toBeGreaterThanOrEqual(32_765);
      }),
      { numRuns: 25 },
    );
  });

  it('an abort deletes the partial file', async () => {
    const dir = tempDir();
    const file = fileIn(dir, 'xlsx');
    const writer = new XlsxFileWriter(file, 'Assets');
    await writer.header(['a']);
    await writer.rows(
      encodeCells(
        'xlsx',
        Array.from({ length: 2000 }, (_, i) => [`row ${i}`]),
      ),
    );
    await writer.abort();
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names the sheet, for any module name, so that exceljs’s reader opens the workbook', async () => {
    const dir = tempDir();
    const names = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('History', 'history', ' History ', "'History'", "Budget's", " 'x' "),
      // Characters of two UTF-16 units: Excel's 31 counts units, exceljs's reader cut a pair.
      fc
        .tuple(fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
        .map(([a, b]) => `${a}${'😀'.repeat(12)}${b}`),
    );
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const sheet = sheetName(name);
        expect(sheet.length).toBeGreaterThan(0);
        expect(sheet.length).toBeLessThanOrEqual(31);
        expect(xmlCell(sheet)).toBe(sheet);
        expect(sheet.toLowerCase()).not.toBe('history');
        const file = fileIn(dir, 'xlsx');
        const writer = new XlsxFileWriter(file, name);
        await writer.header(['Name']);
        await writer.finish();
        expect((await readXlsx(file, 1)).name).toBe(sheet);
      }),
      { numRuns: 60 },
    );
  });

  it('names the sheet as Excel allows', () => {
    expect(sheetName('Assets')).toBe('Assets');
    expect(sheetName('Q1/Q2 [draft]: costs?')).toBe('Q1 Q2  draft   costs');
    expect(sheetName("'quoted'")).toBe('quoted');
    expect(sheetName('')).toBe('Records');
    expect(sheetName('A very long module name that Excel cuts')).toHaveLength(31);
  });
});

/** What comes back of a cell: what XML can hold (xmlCell), line endings read as XML reads them. */
function xmlSafe(value: CellValue): CellValue {
  const kept = xmlCell(value);
  return typeof kept === 'string' ? kept.replace(/\r\n?/g, '\n') : kept;
}
