/**
 * The cells a user meets in a file or a paste are the table's: for generated records (every field
 * type, text with what CSV and spreadsheets treat specially, instants around the portal zone's
 * clock changes, amounts with any code), the text the table renders (FieldValue, read from its
 * markup) equals the cell read back from the CSV the export writes (an RFC 4180 reader, the
 * formula guard undone), from its XLSX (exceljs's reader; XML keeps no CR, U+FFFD for what it
 * cannot hold) and from Copy's tab-separated text. A CSV or paste cell a spreadsheet would run
 * is only the text Intl writes of a number (a negative amount).
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvFileWriter } from '../../../src/main/recordsExport/csvFileWriter';
import { encodeCells } from '../../../src/main/recordsExport/exportEncoding';
import { XlsxFileWriter } from '../../../src/main/recordsExport/xlsxFileWriter';
import { rowsAsText } from '../../../src/renderer/src/features/records/selectedRowsText';
import { restoreDefused } from '../../../src/shared/csv/csvField';
import type { RecordRow, RecordsField } from '../../../src/shared/ipc/areas/records';
import { rowCells } from '../../../src/shared/recordValues/cellText';
import { fieldValue, type ValueContext } from '../../../src/shared/recordValues/describeValue';
import { xmlText } from '../../../src/shared/recordValues/xmlText';
import { readCsv } from '../../support/readCsv';
import { tempDir } from '../../support/tempDir';
import { sampleRow } from '../renderer/records/sampleRow';

const COLUMNS = [
  { key: 'name', type: 'name' },
  { key: 'status', type: 'status' },
  { key: 'owner', type: 'owner' },
  { key: 'created_time', type: 'timestamp' },
  { key: 'is_closed', type: 'check_box' },
  { key: 'cf_text', type: 'single_line' },
  { key: 'cf_notes', type: 'multi_line' },
  { key: 'cf_pick', type: 'pick_list' },
  { key: 'cf_tags', type: 'multi_select' },
  { key: 'cf_user', type: 'user_pick_list' },
  { key: 'cf_users', type: 'multi_user' },
  { key: 'cf_day', type: 'date' },
  { key: 'cf_at', type: 'timestamp' },
  { key: 'cf_done', type: 'check_box' },
  { key: 'cf_cost', type: 'currency' },
  { key: 'cf_share', type: 'percentage' },
  { key: 'cf_count', type: 'number' },
  { key: 'cf_ratio', type: 'decimal' },
  { key: 'cf_site', type: 'url' },
  { key: 'cf_phone', type: 'phone' },
] as const;
const FIELDS = COLUMNS.map(
  (c) => ({ ...c, label: c.key }) as Pick<RecordsField, 'key' | 'type' | 'label'>,
);

/** Text from the service: formulas, quotes, separators, line breaks, RTL, astral, controls. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      ' ',
      ',',
      ';',
      '"',
      "'",
      '\t',
      '\n',
      '\r',
      '=',
      '+',
      '-',
      '@',
      'é',
      'ש',
      '\u202E',
      '😀',
      '\u0000',
      '\u007F',
      '\u000B',
    ),
    maxLength: 12,
  }),
);
/** Instants within hours of the zones' clock changes in 2026, and any other. */
const instant = fc
  .oneof(
    fc.constantFrom(
      Date.UTC(2026, 2, 29, 1),
      Date.UTC(2026, 9, 25, 1),
      Date.UTC(2026, 2, 8, 7),
      Date.UTC(2026, 10, 1, 6),
      Date.UTC(2026, 3, 5, 16),
    ),
    fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }),
  )
  .chain((at) => fc.integer({ min: -3 * 3600, max: 3 * 3600 }).map((s) => at + s * 1000))
  .map((at) => new Date(at).toISOString());
const user = fc.record(
  { zpuid: fc.constantFrom('5002', '5003'), name: fc.option(text), email: fc.option(text) },
  { requiredKeys: ['zpuid'] },
);
const amount = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constant(-0),
);
const custom = fc.record(
  {
    cf_text: text,
    cf_notes: text,
    cf_pick: text,
    cf_tags: fc.array(text, { maxLength: 3 }),
    cf_user: user,
    cf_users: fc.array(user, { maxLength: 3 }),
    cf_day: fc
      .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2199, 11, 31)) })
      .map((d) => (Number.isNaN(d.getTime()) ? '2026-01-01' : d.toISOString().slice(0, 10))),
    cf_at: instant,
    cf_done: fc.boolean(),
    cf_cost: fc.record(
      {
        currency_code: fc.oneof(fc.constantFrom('USD', 'EUR', 'JPY', 'XBT', 'usd', ''), text),
        amount,
        formatted_amount: text,
      },
      { requiredKeys: ['amount'] },
    ),
    cf_share: amount,
    cf_count: fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
    cf_ratio: amount,
    cf_site: fc.oneof(text, fc.webUrl()),
    cf_phone: text,
  },
  { requiredKeys: [] },
);
const record: fc.Arbitrary<RecordRow> = fc
  .record({
    name: text,
    status: fc.option(
      fc.record({
        id: fc.constant('2003'),
        // A status deleted on the service keeps its id only.
        name: fc.option(text),
        color: fc.constant(null),
        isClosedType: fc.boolean(),
      }),
    ),
    owner: fc.option(user),
    createdTime: instant,
    isClosed: fc.boolean(),
    custom,
  })
  .map(
    ({ status, owner, ...rest }) =>
      sampleRow({
        ...rest,
        status: status as RecordRow['status'],
        owner: owner === null ? null : { name: null, email: null, ...owner },
      }) as RecordRow,
  );

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};
const decode = (html: string) =>
  html.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e]!);

/**
 * The table's cell component and React's server renderer, loaded by path: this test is of the
 * node project, whose type check does not take React (its global DOM placeholders clash with the
 * end-to-end tests' DOM types); the renderer's own tests render it typed.
 */
interface TableCell {
  render(type: string, value: unknown, context: ValueContext): string;
}
async function tableCell(): Promise<TableCell> {
  const at = (file: string) => new URL(file, import.meta.url).href;
  // A specifier held in a variable: the type check does not follow it.
  const packageNamed = (name: string) => name;
  const [{ createElement }, { renderToStaticMarkup }, { FieldValue }] = (await Promise.all([
    import(/* @vite-ignore */ packageNamed('react')),
    import(/* @vite-ignore */ packageNamed('react-dom/server')),
    import(/* @vite-ignore */ at('../../../src/renderer/src/features/records/FieldValue.tsx')),
  ])) as [
    { createElement(component: unknown, props: unknown): unknown },
    { renderToStaticMarkup(element: unknown): string },
    { FieldValue: unknown },
  ];
  return {
    render: (type, value, context) =>
      renderToStaticMarkup(createElement(FieldValue, { type, value, context })),
  };
}

/**
 * What the table's cell shows, read from its markup: a dash for empty (no value), a check box by
 * its accessible name, chips one by one, anything else its text.
 */
function tableText(cell: TableCell, type: string, value: unknown, context: ValueContext): string {
  const html = cell.render(type, value, context);
  if (html.includes('aria-label="empty"')) return '';
  const check = /role="img" aria-label="([^"]*)"/.exec(html);
  if (check) return check[1]!;
  if (html.includes('class="value chips"')) {
    return [...html.matchAll(/<span class="chip">(.*?)<\/span>/gs)]
      .map((m) => decode(m[1]!))
      .join(', ');
  }
  return decode(html.replace(/<[^>]*>/g, ''));
}

/** The cell XML reads back: what it can hold (U+FFFD else), line breaks as LF. */
const asXmlReads = (t: string) => xmlText(t).replace(/\r\n?/g, '\n');

async function readXlsx(file: string): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
    rows.push(COLUMNS.map((_, i) => String(row.getCell(i + 1).value ?? '')));
  });
  return rows;
}

/** A cell a spreadsheet would run: only a number's text as Intl writes it may start so. */
function runsAsFormula(cell: string): boolean {
  if (/^[=+@\t\r]/.test(cell)) return true;
  return cell.startsWith('-') && !/^-(\d|[A-Z]{3}\u00a0\d)/.test(cell);
}

const LOCALES = ['en-US', 'en-GB', 'de-DE'];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];

let n = 0;
describe('a record’s cells in the export’s files and in Copy', () => {
  it('read back as the table shows them, formulas defused (CSV, XLSX, tab-separated)', async () => {
    const dir = tempDir();
    const cell = await tableCell();
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...ZONES),
        async (records, locale, timeZone) => {
          const context = { timeZone, locale };
          const shown = records.map((row) =>
            COLUMNS.map(({ key, type }) => tableText(cell, type, fieldValue(row, key), context)),
          );
          const labels = FIELDS.map((f) => f.label);

          const csvFile = path.join(dir, `view-${++n}.csv`);
          const csv = new CsvFileWriter(csvFile);
          await csv.header(labels);
          const csvCells = records.map((row) =>
            rowCells(COLUMNS, row, { values: 'shown', context, defuse: true }),
          );
          await csv.rows(encodeCells('csv', csvCells));
          await csv.finish();
          const [, ...csvRows] = readCsv(readFileSync(csvFile, 'utf8').slice(1));
          expect(csvRows.map((row) => row.map(restoreDefused))).toEqual(shown);
          for (const text of csvRows.flat()) expect(runsAsFormula(text), text).toBe(false);

          const xlsxFile = path.join(dir, `view-${n}.xlsx`);
          const xlsx = new XlsxFileWriter(xlsxFile, 'Assets');
          await xlsx.header(labels);
          const xlsxCells = records.map((row) =>
            rowCells(COLUMNS, row, { values: 'shown', context, defuse: false }),
          );
          await xlsx.rows(encodeCells('xlsx', xlsxCells));
          await xlsx.finish();
          const [, ...xlsxRows] = await readXlsx(xlsxFile);
          expect(xlsxRows).toEqual(shown.map((row) => row.map(asXmlReads)));

          // Copy uses the table's own context (no locale: the browser's), as the table does.
          const pasted = readCsv(
            rowsAsText(FIELDS as RecordsField[], records, { timeZone }),
            '\t',
          ).slice(1);
          const shownHere = records.map((row) =>
            COLUMNS.map(({ key, type }) =>
              tableText(cell, type, fieldValue(row, key), { timeZone }),
            ),
          );
          expect(pasted.map((row) => row.map(restoreDefused))).toEqual(shownHere);
          for (const text of pasted.flat()) expect(runsAsFormula(text), text).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
