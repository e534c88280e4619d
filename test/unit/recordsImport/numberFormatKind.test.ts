/**
 * What a number format makes of a number: the formats Excel and LibreOffice write, with their
 * literal text, colours, locales and sections, and the built-in ones by number.
 */
import { describe, expect, it } from 'vitest';
import {
  builtInFormatKind,
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
    ['[h]:mm:ss', 'time'],
    ['h"h"mm', 'time'],
  ] as const)('%s is a %s', (code, kind) => {
    expect(numberFormatKind(code)).toBe(kind);
  });

  it('knows the built-in formats by number', () => {
    expect([0, 2, 9, 10, 14, 20, 22, 31, 32, 45, 49, 57, 164].map(builtInFormatKind)).toEqual([
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
      'number',
      'date',
      'number',
    ]);
  });
});
