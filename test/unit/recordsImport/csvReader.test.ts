/**
 * The streaming CSV reader against the writer it inverts (delimitedText.ts) and a writer of its
 * own for semicolons: any rows, cut into pieces anywhere (inside quotes, between CR and LF,
 * inside the byte order mark's row), come back whole and equal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delimitedLine } from '../../../src/shared/csv/delimitedText';
import {
  CSV_FIRST_ROW_MAX_CHARS,
  CsvError,
  CsvReader,
  detectSeparator,
} from '../../../src/shared/csv/csvReader';
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

describe('CsvReader refusing what it cannot read', () => {
  // Rows of cells without quotes, then one quote put at the start of one cell and never closed.
  const plainCell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é') });
  it('names the row and column of a quote never closed, instead of reading the rest as one cell', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((width) =>
          fc.tuple(
            fc.array(fc.array(plainCell, { minLength: width, maxLength: width }), {
              minLength: 1,
              maxLength: 6,
            }),
            fc.nat(),
            fc.nat(),
          ),
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        ([rows, r, c], cuts) => {
          const row = r % rows.length;
          const column = c % rows[0]!.length;
          const text = rows
            .map((cells, i) =>
              cells.map((cell, j) => (i === row && j === column ? `"${cell}` : cell)).join(','),
            )
            .join('\r\n');
          expect(() => readInPieces(`${text}\r\n`, cuts)).toThrow(
            new CsvError(
              `a quote opened in row ${row + 1}, column ${column + 1}, is never closed, so every line after it would be read as that one cell. Close it (a quote inside a value is written twice: "") and choose the file again`,
            ),
          );
        },
      ),
    );
  });

  it('stops looking for the end of a first row held open by a quote', () => {
    const reader = new CsvReader();
    reader.push('"name,x\r\n');
    const rows = 'a,b\r\n'.repeat(64 * 1024);
    let thrown: unknown = null;
    let read = 0;
    try {
      while (read <= CSV_FIRST_ROW_MAX_CHARS) {
        reader.push(rows);
        read += rows.length;
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CsvError);
    expect((thrown as Error).message).toMatch(
      /^the first row, which names the columns, is longer than 1,048,576 characters/,
    );
    // It gave up as soon as it held more than the most a first row may be.
    expect(read).toBeLessThanOrEqual(CSV_FIRST_ROW_MAX_CHARS);
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
  });

  it('defuses exactly the texts that start with apostrophes and then a formula character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '\n', 'a', ' ') }),
        fc.string(),
        (head, tail) => {
          const t = head + tail;
          expect(defuseFormula(t)).toBe(/^'*[=+\-@\t\r]/.test(t) ? `'${t}` : t);
        },
      ),
    );
    expect(restoreDefused("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(restoreDefused("'plain")).toBe("'plain");
  });
});
