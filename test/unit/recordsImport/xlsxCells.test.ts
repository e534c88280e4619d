/**
 * An XLSX's cells as the import reads them: what exceljs's writer wrote (typed cells, number
 * formats, formulas with their results, rich text; shared or inline strings) read back as the
 * values written, dates by what their format shows, percentages marked as such (the number kept),
 * errors and formulas without their results as
 * such (never as text or as empty); and what Excel writes that exceljs cannot (phonetic readings,
 * built-in formats by number, 1904 day numbers, ISO dates, openpyxl's formulas).
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import type { ImportCell } from '../../../src/shared/recordValues/parseCell';
import { inlineCell, writeHandWrittenXlsx } from '../../support/handWrittenXlsx';
import { tempDir } from '../../support/tempDir';

async function rowsOf(file: string): Promise<ImportCell[][]> {
  const rows: ImportCell[][] = [];
  for await (const row of readImportRows(file, 'xlsx')) rows.push(row);
  return rows;
}

/** A cell to write with exceljs, and what the import must read from it. */
interface Written {
  value: ExcelJS.CellValue;
  numFmt?: string;
  expected: ImportCell;
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const isoTime = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/** Text a sheet's XML can hold (no controls but tab and line feed, no lone surrogates). */
const text = fc
  .string({
    unit: fc.constantFrom('a', 'Z', ' ', 'é', '東', '京', '😀', '&', '<', '"', '\t', '\n', '_'),
    maxLength: 12,
  })
  .filter((t) => t.length > 0);

/** Number formats that show a number as one, and what they show a date as. */
const NUMBER_FORMATS = [undefined, '0.00', '#,##0', '0.00E+00', '[Red]0.0;[Blue]-0.0', '"kg "0'];
const DATE_FORMATS: [string, 'date' | 'date-time' | 'time'][] = [
  ['yyyy-mm-dd', 'date'],
  ['d-mmm-yy', 'date'],
  ['[$-409]mmmm d, yyyy;@', 'date'],
  ['yyyy"年"m"月"d"日"', 'date'],
  ['dd/mm/yyyy hh:mm', 'date-time'],
  ['m/d/yy h:mm AM/PM', 'date-time'],
  ['yyyy-mm-dd hh:mm:ss', 'date-time'],
  ['hh:mm', 'time'],
];

const number = fc
  .double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 })
  .map((n) => (Object.is(n, -0) ? 0 : n));

/** A date and time to the minute, as exceljs writes a Date: its UTC wall clock. */
const date = fc
  .date({
    min: new Date(Date.UTC(1901, 0, 1)),
    max: new Date(Date.UTC(2099, 11, 31)),
    noInvalidDate: true,
  })
  .map((d) => new Date(Math.floor(d.getTime() / 60_000) * 60_000));

/** A value a formula's result or a typed cell may be. */
const typed: fc.Arbitrary<Written> = fc.oneof(
  text.map((t) => ({ value: t, expected: t })),
  fc.tuple(number, fc.constantFrom(...NUMBER_FORMATS)).map(([n, numFmt]) => ({
    value: n,
    ...(numFmt === undefined ? {} : { numFmt }),
    expected: n,
  })),
  // A number its format shows as a percentage: the number, marked so (parseCell reads 15% as 15).
  fc
    .tuple(number, fc.constantFrom('0%', '0.00%', '#,##0.0%;[Red]-#,##0.0%'))
    .map(([n, numFmt]) => ({
      value: n,
      numFmt,
      expected: { kind: 'percent', value: n } as const,
    })),
  fc.boolean().map((b) => ({ value: b, expected: b })),
  fc.tuple(date, fc.constantFrom(...DATE_FORMATS)).map(([d, [numFmt, kind]]) => ({
    value: d,
    numFmt,
    expected:
      kind === 'date' ? isoDate(d) : kind === 'time' ? isoTime(d) : `${isoDate(d)}T${isoTime(d)}`,
  })),
);

const ERROR = fc.constantFrom<ExcelJS.CellErrorValue['error']>(
  '#N/A',
  '#DIV/0!',
  '#VALUE!',
  '#REF!',
  '#NAME?',
  '#NUM!',
  '#NULL!',
);

const cell: fc.Arbitrary<Written> = fc.oneof(
  typed,
  fc.constant({ value: null, expected: null }),
  fc.array(text, { minLength: 1, maxLength: 4 }).map((runs) => ({
    value: {
      richText: runs.map((t, i) => ({ text: t, ...(i % 2 ? { font: { bold: true } } : {}) })),
    },
    expected: runs.join(''),
  })),
  // A formula is its saved result, read as that value typed there would be (a date by its format).
  typed.map((result) => ({
    ...result,
    value: { formula: 'A1', result: result.value } as ExcelJS.CellValue,
  })),
  // An error, typed or a formula's result, and a formula saved without its result: no value.
  fc.tuple(ERROR, fc.boolean()).map(([error, typedError]) => ({
    value: typedError ? { error } : ({ formula: '1/0', result: { error } } as ExcelJS.CellValue),
    expected: { kind: 'error', error } as const,
  })),
  fc.constant({
    value: { formula: 'UPPER("x")' } as ExcelJS.CellValue,
    expected: { kind: 'formula without result', formula: 'UPPER("x")' } as const,
  }),
);

async function writeWithExcelJs(file: string, rows: Written[][], streamed: boolean) {
  const fill = (row: ExcelJS.Row, cells: Written[]) => {
    cells.forEach((c, i) => {
      const target = row.getCell(i + 1);
      target.value = c.value;
      if (c.numFmt !== undefined) target.numFmt = c.numFmt;
    });
  };
  if (streamed) {
    // The export's writer: strings inline (rich text as runs of an inline string).
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file,
      useSharedStrings: false,
      useStyles: true,
    });
    const sheet = workbook.addWorksheet('S');
    rows.forEach((cells, r) => {
      const row = sheet.getRow(r + 1);
      fill(row, cells);
      row.commit();
    });
    sheet.commit();
    await workbook.commit();
  } else {
    // A spreadsheet program's way: strings shared.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('S');
    rows.forEach((cells, r) => fill(sheet.getRow(r + 1), cells));
    await workbook.xlsx.writeFile(file);
  }
}

/** The row as read: a missing cell is null, a row ends at its last value. */
function expectedRow(cells: Written[]): ImportCell[] {
  const row = cells.map((c) => c.expected);
  while (row.length > 0 && row.at(-1) === null) row.pop();
  return row;
}

describe('an XLSX cell as the import reads it', () => {
  it('reads what exceljs wrote back as the values written, shared or inline, dates as their format shows them', async () => {
    const dir = tempDir('portaldesk-xlsx-');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (rows, streamed) => {
          const file = path.join(dir, `t-${streamed}.xlsx`);
          await writeWithExcelJs(file, rows, streamed);
          // One writer leaves rows without values out, the other writes them empty: empty rows
          // past the last value are left out of the comparison (the import skips empty rows).
          const trimmed = (all: ImportCell[][]) => {
            while (all.length > 0 && all.at(-1)!.length === 0) all.pop();
            return all;
          };
          expect(trimmed(await rowsOf(file))).toEqual(trimmed(rows.map(expectedRow)));
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('reads a shared or inline string without its phonetic reading, rich text with every run', async () => {
    const file = path.join(tempDir('portaldesk-xlsx-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sharedStrings:
        '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>' +
        '<si><r><t>大</t></r><r><rPr><b/></rPr><t>阪</t></r><rPh sb="0" eb="2"><t>オオサカ</t></rPh></si>',
      sheetData:
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>' +
        '<c r="C1" t="inlineStr"><is><r><t>Ri</t></r><r><rPr><i/></rPr><t xml:space="preserve">ch </t></r></is></c>' +
        '<c r="D1" t="inlineStr"><is><t>京都</t><rPh sb="0" eb="2"><t>キョウト</t></rPh></is></c></row>',
    });
    expect(await rowsOf(file)).toEqual([['東京', '大阪', 'Rich ', '京都']]);
  });

  it('reads a date-time at midnight as a date and time when its format shows the time', async () => {
    const file = path.join(tempDir('portaldesk-xlsx-'), 'a.xlsx');
    // Format 22 is built in (m/d/yyyy h:mm), 14 too (a date); 164 is written.
    await writeHandWrittenXlsx(file, {
      styles:
        '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts>' +
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="22"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs>' +
        // A conditional format's own number format is not the cell's.
        '<dxfs count="1"><dxf><numFmt numFmtId="164" formatCode="0.00"/></dxf></dxfs>',
      sheetData:
        '<row r="1"><c r="A1" s="1"><v>46087</v></c><c r="B1" s="3"><v>46087</v></c>' +
        '<c r="C1" s="2"><v>46087.75</v></c><c r="D1" s="2"><f>DATE(2026,3,5)</f><v>46086</v></c>' +
        '<c r="E1" s="1"><f>NOW()</f><v>46087.604166666664</v></c></row>',
    });
    expect(await rowsOf(file)).toEqual([
      ['2026-03-06T00:00', '2026-03-06T00:00', '2026-03-06', '2026-03-05', '2026-03-06T14:30'],
    ]);
  });

  it("reads an error, typed or a formula's, and a formula without a saved result, as such", async () => {
    const file = path.join(tempDir('portaldesk-xlsx-'), 'a.xlsx');
    // As Excel writes an error, and as openpyxl writes a formula (an empty <v>); an empty text
    // result is a result.
    await writeHandWrittenXlsx(file, {
      sheetData:
        '<row r="1"><c r="A1" t="e"><v>#N/A</v></c><c r="B1" t="e"><f>1/0</f><v>#DIV/0!</v></c>' +
        '<c r="C1"><f>UPPER("x")</f><v></v></c><c r="D1" t="str"><f>""</f><v></v></c>' +
        '<c r="E1"><f t="shared" si="0"/></c></row>',
    });
    expect(await rowsOf(file)).toEqual([
      [
        { kind: 'error', error: '#N/A' },
        { kind: 'error', error: '#DIV/0!' },
        { kind: 'formula without result', formula: 'UPPER("x")' },
        '',
        { kind: 'formula without result', formula: '' },
      ],
    ]);
  });

  it('counts days from 1904 when the workbook says so, and reads ISO dates (t="d")', async () => {
    const file = path.join(tempDir('portaldesk-xlsx-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      date1904: true,
      styles:
        '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="22"/></cellXfs>',
      sheetData:
        '<row r="1"><c r="A1" s="1"><v>44625</v></c><c r="B1" t="d"><v>2026-03-06T00:00:00</v></c>' +
        '<c r="C1" t="d" s="2"><v>2026-03-06T00:00:00</v></c><c r="D1" t="d"><v>2026-03-06T09:15:00</v></c></row>',
    });
    expect(await rowsOf(file)).toEqual([
      ['2026-03-06', '2026-03-06', '2026-03-06T00:00', '2026-03-06T09:15'],
    ]);
  });

  it('reads cells and rows written without their references as the next ones, as Excel does', async () => {
    const file = path.join(tempDir('portaldesk-xlsx-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sheetData: `<row>${inlineCell('B1', 'b')}<c><v>2</v></c></row><row><c t="b"><v>1</v></c></row><row r="5"/>`,
    });
    expect(await rowsOf(file)).toEqual([[null, 'b', 2], [true], [], [], []]);
  });

  it('refuses a sheet whose cell points at a shared text the file does not hold, in words', async () => {
    const file = path.join(tempDir('portaldesk-xlsx-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      sharedStrings: '<si><t>a</t></si>',
      sheetData: '<row r="1"><c r="A1" t="s"><v>3</v></c></row>',
    });
    await expect(rowsOf(file)).rejects.toThrow(
      'its sheet points at shared text 3, which the file does not hold',
    );
  });
});
