/**
 * A CSV row longer than any row of records (IMPORT_ROW_MAX_CHARS) is refused in words naming the
 * row, as soon as the reader holds more than that: the upload's 100 MiB in one line (one cell, or
 * millions of empty ones) was held whole, a character at a time, and a 10 MB cell alone took 350
 * MB of the engine's heap. Rows within the limit read as they did, in pieces of any size.
 */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import { CsvError, CsvReader } from '../../../src/shared/csv/csvReader';
import { delimitedLine } from '../../../src/shared/csv/delimitedText';
import { IMPORT_ROW_MAX_CHARS } from '../../../src/shared/ipc/areas/recordsImport';
import { tempDir } from '../../support/tempDir';

/** Pushes `text` in pieces of `size`; the rows read, or the error thrown and the text pushed. */
function readInPieces(reader: CsvReader, text: string, size: number) {
  const rows: string[][] = [];
  let pushed = 0;
  try {
    for (let at = 0; at < text.length; at += size) {
      rows.push(...reader.push(text.slice(at, at + size)));
      pushed = Math.min(text.length, at + size);
    }
    rows.push(...reader.end());
    return { rows, error: null, pushed };
  } catch (error) {
    return { rows, error, pushed };
  }
}

const cell = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', 'é'), maxLength: 12 });

describe('a CSV row past the longest a row may be', () => {
  it('is refused naming the row once the reader holds more; shorter rows read as written', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 17 }),
        (rows, size) => {
          const lines = [['x', 'y'], ...rows].map((r) => delimitedLine(r));
          // The longest row's line (CRLF left out) as the limit: every row fits.
          const limit = Math.max(...lines.map((l) => l.length - 2));
          const text = lines.join('');
          expect(readInPieces(new CsvReader(undefined, limit), text, size).rows).toEqual([
            ['x', 'y'],
            ...rows,
          ]);
          // One character less: the first row at the limit is refused, by its number.
          const longest = lines.findIndex((l) => l.length - 2 === limit);
          if (longest === 0) return;
          const read = readInPieces(new CsvReader(undefined, limit - 1), text, size);
          expect(read.error).toBeInstanceOf(CsvError);
          expect((read.error as Error).message).toMatch(
            new RegExp(`^row ${longest + 1} is longer than ${limit - 1} characters`),
          );
          // Rows completed before it in the piece that went past are not handed on: the file
          // is refused whole.
          expect([['x', 'y'], ...rows.slice(0, longest - 1)]).toEqual(
            expect.arrayContaining(read.rows),
          );
        },
      ),
    );
  });

  it('stops a file whose second row is one line of millions of cells or characters', async () => {
    const dir = tempDir('portaldesk-csv-row-limit-');
    for (const [name, line] of [
      ['cell.csv', 'x'.repeat(IMPORT_ROW_MAX_CHARS + 1)],
      ['cells.csv', ','.repeat(IMPORT_ROW_MAX_CHARS + 1)],
      ['quote.csv', `"${'a\r\n'.repeat(IMPORT_ROW_MAX_CHARS / 3 + 1)}`],
    ] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, `Name,Note\r\n${line}\r\nlast,row\r\n`);
      const reading = (async () => {
        for await (const row of readImportRows(file, 'csv')) void row;
      })();
      await expect(reading).rejects.toThrow(
        new RegExp(
          `^row 2 is longer than ${IMPORT_ROW_MAX_CHARS.toLocaleString('en-US')} characters`,
        ),
      );
    }
  }, 60_000);
});
