/**
 * The streaming CSV reader against the writer it inverts (delimitedText.ts) and a writer of its
 * own for semicolons: any rows, cut into pieces anywhere (inside quotes, between CR and LF,
 * inside the byte order mark's row), come back whole and equal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delimitedLine } from '../../../src/shared/csv/delimitedText';
import { CsvReader, detectSeparator } from '../../../src/shared/csv/csvReader';
import { defuseFormula, restoreDefused } from '../../../src/shared/csv/csvField';

/** Reads `text` pushed in the pieces `cuts` makes of it. */
function readInPieces(text: string, cuts: number[]): string[][] {
  const reader = new CsvReader();
  const rows: string[][] = [];
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    rows.push(...reader.push(text.slice(from, cut)));
    from = cut;
  }
  rows.push(...reader.push(text.slice(from)), ...reader.end());
  return rows;
}

const cellText = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', ',', ';', '"', '\r', '\n', '\t', 'é', '='),
});
// A header row of plain labels (a real file's), then rows of anything.
const table = fc.integer({ min: 1, max: 5 }).chain((width) =>
  fc.tuple(
    fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,8}$/), {
      minLength: width,
      maxLength: width,
    }),
    fc.array(fc.array(cellText, { minLength: width, maxLength: width }), { maxLength: 8 }),
  ),
);

function semicolonLine(cells: readonly string[]): string {
  return `${cells.map((c) => (/[";\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(';')}\r\n`;
}

describe('CsvReader', () => {
  it('reads back what the export writes, with a BOM, in pieces of any size', () => {
    fc.assert(
      fc.property(table, fc.array(fc.nat(), { maxLength: 12 }), ([header, rows], cuts) => {
        // Rows whose only cell is empty are written as an empty line: the reader gives [''].
        const text = `\ufeff${[header, ...rows].map((r) => delimitedLine(r)).join('')}`;
        expect(readInPieces(text, cuts)).toEqual([header, ...rows]);
      }),
    );
  });

  it('finds semicolons as the separator and reads LF-only and CR-only line ends', () => {
    fc.assert(
      fc.property(
        table.filter(([header]) => header.length > 1),
        fc.constantFrom('\r\n', '\n', '\r'),
        fc.array(fc.nat(), { maxLength: 6 }),
        ([header, rows], eol, cuts) => {
          const text = [header, ...rows]
            .map((r) => semicolonLine(r).replace(/\r\n$/, eol))
            .join('');
          const reader = new CsvReader();
          expect(readInPieces(text, cuts)).toEqual([header, ...rows]);
          reader.push(text);
          expect(reader.delimiter).toBe(';');
        },
      ),
    );
  });

  it('reads a last row without a line break, and quoted separators do not count', () => {
    const reader = new CsvReader();
    expect(reader.push('"a,b";"c,d"\r\n1;2\r\n')).toEqual([
      ['a,b', 'c,d'],
      ['1', '2'],
    ]);
    expect(detectSeparator('"a;b;c",d')).toBe(',');
    expect(detectSeparator('a;b,c;d')).toBe(';');
    expect(detectSeparator('a\tb\tc')).toBe('\t');
    const last = new CsvReader();
    expect([...last.push('x,y\r\n1,"2\r\n3"'), ...last.end()]).toEqual([
      ['x', 'y'],
      ['1', '2\r\n3'],
    ]);
  });
});

describe('the formula guard undone', () => {
  it('restoreDefused(defuseFormula(t)) is t for any text, apostrophes and formulas included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', ' ') }),
        (t) => {
          expect(restoreDefused(defuseFormula(t))).toBe(t);
        },
      ),
    );
    expect(defuseFormula("'=1")).toBe("''=1");
    expect(restoreDefused("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(restoreDefused("'plain")).toBe("'plain");
  });
});
