/**
 * An XLSX's dates, times and durations as their number formats show them (ECMA-376 Part 1,
 * 18.17.4: a serial day number, 1 = 1900-01-01, with the 1900 system's 29 February 1900 at 60;
 * 18.8.31: `[h]` an elapsed count of hours). The serials are made from a wall clock as a
 * spreadsheet stores it; what the import reads must be that wall clock, to the unit the format
 * shows, never another value.
 */
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import type { ImportCell } from '../../../src/shared/recordValues/parseCell';
import { writeHandWrittenXlsx } from '../../support/handWrittenXlsx';
import { tempDir } from '../../support/tempDir';

type Shows = 'date' | 'date-time' | 'time' | 'elapsed-h' | 'elapsed-m';

/** Formats as Excel and LibreOffice write them; `seconds`: the format shows them. */
const FORMATS: { code: string; shows: Shows; seconds: boolean }[] = [
  { code: 'd-mmm-yy', shows: 'date', seconds: false },
  { code: '[$-409]d-mmm-yy;@', shows: 'date', seconds: false },
  { code: '[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy', shows: 'date', seconds: false },
  { code: 'yyyy-mm-dd', shows: 'date', seconds: false },
  { code: 'yyyy-mm-dd hh:mm', shows: 'date-time', seconds: false },
  { code: '[$-409]m/d/yy h:mm AM/PM;@', shows: 'date-time', seconds: false },
  { code: 'yyyy-mm-dd hh:mm:ss', shows: 'date-time', seconds: true },
  { code: 'dd/mm/yyyy\\ hh:mm:ss AM/PM', shows: 'date-time', seconds: true },
  { code: 'hh:mm', shows: 'time', seconds: false },
  { code: 'h:mm AM/PM', shows: 'time', seconds: false },
  { code: 'hh:mm:ss AM/PM', shows: 'time', seconds: true },
  { code: '[$-F400]h:mm:ss\\ AM/PM', shows: 'time', seconds: true },
  { code: '[h]:mm', shows: 'elapsed-h', seconds: false },
  { code: '[h]:mm:ss', shows: 'elapsed-h', seconds: true },
  { code: '[hh]:mm:ss;@', shows: 'elapsed-h', seconds: true },
  { code: '[mm]:ss', shows: 'elapsed-m', seconds: true },
];

const DAY_S = 86_400;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A spreadsheet's serial day of a calendar date (1900 system, its 29 February 1900 kept). */
function serialDay(year: number, month: number, day: number): number {
  const days = Math.round((Date.UTC(year, month - 1, day) - Date.UTC(1899, 11, 31)) / 86_400_000);
  return year > 1900 || month > 2 ? days + 1 : days;
}

/** A moment to the second: a day (0: none, a time alone) and the seconds into it. */
const moment = fc.record({
  date: fc.option(
    fc.date({
      min: new Date(Date.UTC(1900, 0, 1)),
      max: new Date(Date.UTC(9999, 11, 31)),
      noInvalidDate: true,
    }),
    { nil: null },
  ),
  seconds: fc.integer({ min: 0, max: DAY_S - 1 }),
  /** Whole days of an elapsed time (a duration past 24 hours). */
  extraDays: fc.integer({ min: 0, max: 60 }),
});

function expected(
  shows: Shows,
  withSeconds: boolean,
  day: Date | null,
  seconds: number,
  extra: number,
) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  // Seconds are written when the format shows them and they are not zero (14:30 is 14:30:00).
  const clock = `${pad(h)}:${pad(m)}${withSeconds && s !== 0 ? `:${pad(s)}` : ''}`;
  const date = day
    ? `${pad(day.getUTCFullYear(), 4)}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`
    : '';
  switch (shows) {
    case 'date':
      return date;
    case 'date-time':
      return `${date}T${clock}`;
    case 'time':
      return clock;
    case 'elapsed-h':
      return `${extra * 24 + h}:${pad(m)}${withSeconds ? `:${pad(s)}` : ''}`;
    case 'elapsed-m':
      return `${(extra * 24 + h) * 60 + m}:${pad(s)}`;
  }
}

async function rowsOf(file: string): Promise<ImportCell[][]> {
  const rows: ImportCell[][] = [];
  for await (const row of readImportRows(file, 'xlsx')) rows.push(row);
  return rows;
}

const styles = (codes: string[]) =>
  `<numFmts count="${codes.length}">${codes.map((code, i) => `<numFmt numFmtId="${164 + i}" formatCode="${code.replace(/"/g, '&quot;')}"/>`).join('')}</numFmts>` +
  `<cellXfs count="${codes.length + 1}"><xf numFmtId="0"/>${codes.map((_, i) => `<xf numFmtId="${164 + i}"/>`).join('')}</cellXfs>`;

describe('an XLSX date, time or duration', () => {
  it('reads as the wall clock or the duration its format shows, to the unit it shows', async () => {
    const dir = tempDir('portaldesk-xlsx-time-');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: FORMATS.length - 1 }), moment), {
          minLength: 1,
          maxLength: 20,
        }),
        async (cells) => {
          const written = cells.map(([format, { date, seconds, extraDays }]) => {
            const { shows } = FORMATS[format]!;
            // A date's format needs a day; an elapsed time is a duration (days of it, no date).
            const day =
              shows === 'date' || shows === 'date-time'
                ? (date ?? new Date(Date.UTC(2026, 2, 5)))
                : shows === 'time'
                  ? date
                  : null;
            const days =
              day === null
                ? shows.startsWith('elapsed')
                  ? extraDays
                  : 0
                : serialDay(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate());
            // As a spreadsheet stores it: the day plus the fraction of it, the nearest double.
            const serial = days + seconds / DAY_S;
            return { format, serial, day, seconds, extraDays };
          });
          const file = path.join(dir, 'a.xlsx');
          await writeHandWrittenXlsx(file, {
            styles: styles(FORMATS.map((f) => f.code)),
            sheetData: `<row r="1">${written.map((c, i) => `<c r="${String.fromCharCode(65 + i)}1" s="${c.format + 1}"><v>${c.serial}</v></c>`).join('')}</row>`,
          });
          const [row] = await rowsOf(file);
          expect(row).toEqual(
            written.map((c) => {
              const f = FORMATS[c.format]!;
              return expected(f.shows, f.seconds, c.day, c.seconds, c.extraDays);
            }),
          );
        },
      ),
      { numRuns: 80 },
    );
  }, 60_000);

  it("reads the 1900 system's first two months as the sheet shows them, its 29 February and day 0 too", async () => {
    const file = path.join(tempDir('portaldesk-xlsx-time-'), 'a.xlsx');
    await writeHandWrittenXlsx(file, {
      styles: styles(['yyyy-mm-dd', 'yyyy-mm-dd hh:mm']),
      sheetData:
        '<row r="1"><c r="A1" s="1"><v>1</v></c><c r="B1" s="1"><v>59</v></c><c r="C1" s="1"><v>60</v></c>' +
        '<c r="D1" s="1"><v>61</v></c><c r="E1" s="2"><v>0.5</v></c><c r="F1" s="2"><v>60.25</v></c></row>',
    });
    // 1900-02-29 and 1900-01-00 are what the sheet shows, no calendar's dates: a date field
    // refuses them in words (parseCell), never reads them as another day.
    expect(await rowsOf(file)).toEqual([
      [
        '1900-01-01',
        '1900-02-28',
        '1900-02-29',
        '1900-03-01',
        '1900-01-00T12:00',
        '1900-02-29T06:00',
      ],
    ]);
  });

  it('rounds to the second before it shows minutes, as a spreadsheet does', async () => {
    const file = path.join(tempDir('portaldesk-xlsx-time-'), 'a.xlsx');
    const at = (h: number, m: number, s: number) => 46086 + (h * 3600 + m * 60 + s) / DAY_S;
    await writeHandWrittenXlsx(file, {
      styles: styles(['yyyy-mm-dd hh:mm', 'hh:mm:ss', 'yyyy-mm-dd']),
      sheetData:
        `<row r="1"><c r="A1" s="1"><v>${at(14, 29, 59.6)}</v></c><c r="B1" s="1"><v>${at(14, 29, 59.4)}</v></c>` +
        `<c r="C1" s="2"><v>${at(23, 59, 59.7)}</v></c><c r="D1" s="3"><v>${at(23, 59, 59.7)}</v></c></row>`,
    });
    expect(await rowsOf(file)).toEqual([
      ['2026-03-05T14:30', '2026-03-05T14:29', '00:00', '2026-03-05'],
    ]);
  });
});
