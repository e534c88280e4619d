/**
 * parseCell with the cells only a spreadsheet holds: a number shown as a percentage is the number
 * the sheet shows (15% is 15) in a number field of any kind, its text elsewhere; an error or a
 * formula without its saved result fails in words, whatever the field and whether the record
 * holds a value (it is never an empty cell, which would empty the field).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EditableField } from '../../../src/shared/ipc/areas/outbox';
import {
  parseCell,
  shownPercent,
  type ImportCell,
} from '../../../src/shared/recordValues/parseCell';

function field(type: string, label: string, patch: Partial<EditableField> = {}): EditableField {
  return {
    key: `cf_${type}`,
    label,
    type,
    mandatory: false,
    options: [],
    users: [],
    usersRestricted: false,
    statuses: [],
    currencyCode: 'USD',
    precision: 2,
    ...patch,
  };
}

const reading = { context: { locale: 'en-GB', timeZone: 'Asia/Kolkata' }, defused: false };
const TYPES: [string, unknown][] = [
  ['single_line', 'keep me'],
  ['multi_line', ''],
  ['number', 3],
  ['percentage', 15],
  ['date', '2026-03-05'],
  ['timestamp', '2026-03-05T10:00:00+05:30'],
  ['check_box', false],
];

describe('parseCell with a spreadsheet’s error or formula without result', () => {
  it.each(TYPES)('%s: fails on update and on create, never read as empty', (type, current) => {
    const f = field(type, 'Description');
    const error: ImportCell = { kind: 'error', error: '#DIV/0!' };
    const formula: ImportCell = { kind: 'formula without result', formula: 'UPPER("x")' };
    for (const held of [current, null, undefined]) {
      expect(parseCell(f, error, reading, held)).toEqual({
        kind: 'fail',
        rule: 'Description holds the spreadsheet error #DIV/0!, not a value: its formula failed or the error was typed. Nothing of this row is queued; correct the cell in the spreadsheet (clear it to empty the field), save the file and import it again.',
      });
      expect(parseCell(f, formula, reading, held)).toEqual({
        kind: 'fail',
        rule: 'Description is a formula with no saved result (=UPPER("x")): the program that wrote the file stored the formula but not its value, and the import does not calculate. Nothing of this row is queued; open and save the file in a spreadsheet so its results are stored, and import it again.',
      });
    }
  });

  it('quotes a long formula shortened, and a shared one not at all', () => {
    const f = field('single_line', 'Name');
    const long = `CONCATENATE(${'"abc",'.repeat(30)}"z")`;
    expect(parseCell(f, { kind: 'formula without result', formula: long }, reading)).toEqual({
      kind: 'fail',
      rule: expect.stringContaining(`(=${long.slice(0, 60)}…):`),
    });
    expect(parseCell(f, { kind: 'formula without result', formula: '' }, reading)).toEqual({
      kind: 'fail',
      rule: expect.stringMatching(/^Name is a formula with no saved result: the program/),
    });
  });
});

describe('parseCell with a number shown as a percentage', () => {
  const percent = (value: number): ImportCell => ({ kind: 'percent', value });

  it('is the number the sheet shows in a percentage, number or decimal field', () => {
    expect(parseCell(field('percentage', 'Share'), percent(0.15), reading)).toEqual({
      kind: 'value',
      value: 15,
    });
    expect(parseCell(field('decimal', 'Rate'), percent(0.155), reading)).toEqual({
      kind: 'value',
      value: 15.5,
    });
    expect(parseCell(field('number', 'Quantity'), percent(0.07), reading)).toEqual({
      kind: 'value',
      value: 7,
    });
    // Unchanged when the record holds what the sheet shows.
    expect(parseCell(field('percentage', 'Share'), percent(0.15), reading, 15)).toEqual({
      kind: 'same',
    });
  });

  it('is its text elsewhere: a text field holds "15%", an amount is not a percentage', () => {
    expect(parseCell(field('single_line', 'Note'), percent(0.15), reading)).toEqual({
      kind: 'value',
      value: '15%',
    });
    expect(parseCell(field('currency', 'Cost'), percent(0.15), reading)).toEqual({
      kind: 'fail',
      rule: '"15%" is not an amount (such as USD 12.50).',
    });
  });

  it('shifts the decimal point exactly: the number shown is the decimal the cell holds × 100', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 0, max: 12 }),
        (units, decimals) => {
          // A decimal with up to 12 places, as typed: its shown percentage is the same digits.
          const typed = Number(`${units}e-${decimals}`);
          expect(shownPercent(typed)).toBe(Number(`${units}e${2 - decimals}`));
        },
      ),
    );
    expect(shownPercent(1e-7)).toBe(0.00001);
    expect(shownPercent(1e21)).toBe(1e23);
  });
});

describe('parseCell with what an XLSX date, time or duration reads as', () => {
  const at = (type: string) => field(type, type === 'timestamp' ? 'Due at' : 'Due');
  const rule = (type: string, cell: ImportCell, held?: unknown) => {
    const parsed = parseCell(at(type), cell, reading, held);
    return parsed.kind === 'fail' ? parsed.rule : parsed;
  };

  it('keeps the seconds a format shows, and a time stamp the sheet shows as the record holds it is the same', () => {
    // Asia/Kolkata: +05:30.
    expect(parseCell(at('timestamp'), '2026-03-05T14:30:45', reading)).toEqual({
      kind: 'value',
      value: '2026-03-05T09:00:45.000Z',
    });
    // The table shows minutes: a sheet showing 14:30 (or 14:30:45) of a record at 14:30:45.120
    // shows what the record holds, and rewriting it to 14:30:00 is a change nobody made.
    const held = '2026-03-05T09:00:45.120Z';
    for (const shown of ['2026-03-05T14:30', '2026-03-05T14:30:45', '2026-03-05 14:30']) {
      expect(parseCell(at('timestamp'), shown, reading, held), shown).toEqual({ kind: 'same' });
    }
    expect(parseCell(at('timestamp'), '2026-03-05T14:31', reading, held)).toEqual({
      kind: 'value',
      value: '2026-03-05T09:01:00.000Z',
    });
    expect(parseCell(at('timestamp'), '2026-03-05T14:30:44', reading, held)).toMatchObject({
      kind: 'value',
    });
  });

  it('refuses in words what a field cannot hold as the sheet shows it, never another value', () => {
    // A duration ([h]:mm), a time alone, a date alone, the 1900 system's 29 February and day 0.
    expect(rule('date', '36:00')).toMatch(/^"36:00" is not a date/);
    expect(rule('timestamp', '36:00')).toMatch(/^"36:00" is not a date and time/);
    expect(rule('timestamp', '14:30')).toMatch(/^"14:30" is not a date and time/);
    expect(rule('timestamp', '2026-03-05')).toMatch(/^"2026-03-05" is not a date and time/);
    expect(rule('date', '1900-02-29')).toMatch(/1900-02-29 is not a real calendar date/);
    expect(rule('date', '1900-01-00')).toMatch(/1900-01-00 is not a real calendar date/);
    expect(rule('timestamp', '1900-01-00T12:00')).toMatch(/a date and time/);
    // A time field holds hours and minutes: 14:30:45 is refused, not cut to 14:30.
    expect(rule('time', '14:30:45')).toMatch(/a time written HH:MM/);
    expect(parseCell(at('time'), '14:30', reading)).toEqual({ kind: 'value', value: '14:30' });
  });
});
