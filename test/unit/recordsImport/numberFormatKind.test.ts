/**
 * What a number format makes of a number: the formats Excel and LibreOffice write, with their
 * literal text, colours, locales and sections, and the built-in ones by number.
 */
import { describe, expect, it } from 'vitest';
import {
  builtInFormat,
  builtInFormatKind,
  numberFormat,
  numberFormatKind,
} from '../../../src/main/recordsImport/xlsx/numberFormatKind';

describe('numberFormatKind', () => {
  it.each([
    ['General', 'number'],
    ['0.00', 'number'],
    ['#,##0.00 [$€-407];[Red]-#,##0.00 [$€-407]', 'number'],
    ['0.00E+00', 'number'],
    ['##0.0e-0', 'number'],
    ['"Total: "0', 'number'],
    ['@', 'number'],
    ['0%', 'percent'],
    ['0.00%;[Red]-0.00%', 'percent'],
    ['"100%"0', 'number'],
    ['yyyy-mm-dd', 'date'],
    ['[$-409]mmmm d, yyyy;@', 'date'],
    ['[$-411]ggge"年"m"月"d"日"', 'date'],
    ['mmm-yy', 'date'],
    ['d/m/bb', 'date'],
    ['yyyy-mm-dd hh:mm', 'date-time'],
    ['m/d/yy h:mm AM/PM', 'date-time'],
    ['dd/mm/yyyy\\ hh:mm:ss', 'date-time'],
    ['h:mm', 'time'],
    ['mm:ss', 'time'],
    ['[h]:mm:ss', 'elapsed'],
    ['[mm]:ss', 'elapsed'],
    ['[$-409][h]:mm;@', 'elapsed'],
    ['h"h"mm', 'time'],
  ] as const)('%s is a %s', (code, kind) => {
    expect(numberFormatKind(code)).toBe(kind);
  });

  it('knows the built-in formats by number', () => {
    expect([0, 2, 9, 10, 14, 20, 22, 31, 32, 45, 46, 49, 57, 164].map(builtInFormatKind)).toEqual([
      'number',
      'number',
      'percent',
      'percent',
      'date',
      'time',
      'date-time',
      'date',
      'time',
      'time',
      'elapsed',
      'number',
      'date',
      'number',
    ]);
  });

  it('knows the smallest part of a time a format shows, and the unit an elapsed time counts', () => {
    const shows = (code: string) => {
      const { seconds, fraction, elapsed } = numberFormat(code);
      return { seconds, fraction, elapsed };
    };
    expect(shows('yyyy-mm-dd hh:mm')).toEqual({ seconds: false, fraction: 0, elapsed: null });
    expect(shows('hh:mm:ss AM/PM')).toEqual({ seconds: true, fraction: 0, elapsed: null });
    expect(shows('[$-F400]h:mm:ss\\ AM/PM')).toEqual({ seconds: true, fraction: 0, elapsed: null });
    expect(shows('yyyy-mm-dd hh:mm:ss.000')).toEqual({ seconds: true, fraction: 3, elapsed: null });
    expect(shows('[h]:mm')).toEqual({ seconds: false, fraction: 0, elapsed: 'h' });
    expect(shows('[mm]:ss.0')).toEqual({ seconds: true, fraction: 1, elapsed: 'm' });
    expect(shows('[ss]')).toEqual({ seconds: true, fraction: 0, elapsed: 's' });
    expect(builtInFormat(46)).toEqual({
      kind: 'elapsed',
      seconds: true,
      fraction: 0,
      elapsed: 'h',
    });
    expect(builtInFormat(47)).toEqual({ kind: 'time', seconds: true, fraction: 1, elapsed: null });
    expect(builtInFormat(19)).toEqual({ kind: 'time', seconds: true, fraction: 0, elapsed: null });
    expect(builtInFormat(22)).toEqual({
      kind: 'date-time',
      seconds: false,
      fraction: 0,
      elapsed: null,
    });
  });
});
