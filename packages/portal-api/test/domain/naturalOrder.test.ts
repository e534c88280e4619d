/**
 * Natural order (issue 19): the comparison, and the sort key SQL sorts by, which must give the
 * same order byte by byte (SQLite's BINARY) for any text: digit runs longer than any fixed width,
 * leading zeros, case folding, characters beyond the BMP, lone surrogates.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText } from '@portaldesk/portal-api/filter';
import {
  NATURAL_SORT_SQL_FUNCTION,
  naturalCompare,
  naturalSortKey,
  naturalSortSqlValue,
} from '@portaldesk/portal-api/domain/naturalOrder';

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
/** How SQLite compares two texts with its BINARY collation: their UTF-8 bytes. */
const bytewise = (a: string, b: string) =>
  sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));

/** Digit runs of every length (beyond 9 and 10 digits), with and without leading zeros. */
const digitRun = fc.oneof(
  fc.stringMatching(/^[0-9]{1,3}$/),
  fc.stringMatching(/^0{1,12}[0-9]{0,3}$/),
  fc.stringMatching(/^[1-9][0-9]{8,40}$/),
  fc.constantFrom('9', '99999999999', '100000000000', '0', '00', '007', '7', '10', '9'.repeat(30)),
);
/** Characters around the digits' place, letters to fold, and text beyond ASCII and the BMP. */
const character = fc.constantFrom(
  ' ',
  '#',
  '-',
  '.',
  '/',
  ':',
  'A',
  'a',
  'Z',
  'z',
  'ß',
  'SS',
  'İ',
  'ﬁ',
  'Ä',
  'A\u0308',
  'Σ',
  'ς',
  '١',
  '７',
  '\u{1F600}',
  '\uFFFD',
  '\uD800',
  '\u0000',
  '\u00A0',
);
const text = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof(digitRun, character)).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const wellFormed = text.filter(
  (s) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s),
);

describe('naturalCompare', () => {
  it('compares numbers inside text by value', () => {
    const sorted = ['#1014', 'item 10', '#148', 'Item 2', '#2', 'item 1', 'item 01', 'item 001'];
    expect([...sorted].sort(naturalCompare)).toEqual([
      '#2',
      '#148',
      '#1014',
      'item 1',
      'item 01',
      'item 001',
      'Item 2',
      'item 10',
    ]);
    expect(naturalCompare('Straße 10', 'STRASSE 9')).toBe(1);
    expect(naturalCompare('Straße 9', 'STRASSE 9')).toBe(0);
    expect(naturalCompare('1'.padEnd(41, '0'), '9'.repeat(40))).toBe(1);
    expect(naturalCompare('0'.repeat(40) + '5', '6')).toBe(-1);
  });

  it('places a digit run where a digit stands among other characters', () => {
    // ' ' < '#' < '-' < '/' < digits < ':' < letters < beyond ASCII, as in code point order.
    const sorted = ['a', ':', '5', '/', '-', '#', ' ', 'é', '500'];
    expect([...sorted].sort(naturalCompare)).toEqual([
      ' ',
      '#',
      '-',
      '/',
      '5',
      '500',
      ':',
      'a',
      'é',
    ]);
  });

  it('without ASCII digits, is the folded text in byte order (the order names had)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        fc.pre(!/[0-9]/.test(foldText(a) + foldText(b)));
        expect(sign(naturalCompare(a, b))).toBe(bytewise(foldText(a), foldText(b)));
      }),
      { numRuns: 500 },
    );
  });

  it('is a total order: equal only for the same folded text, antisymmetric, transitive', () => {
    fc.assert(
      fc.property(text, text, text, (a, b, c) => {
        expect(sign(naturalCompare(a, b)) + sign(naturalCompare(b, a))).toBe(0);
        // SQLite holds UTF-8: a lone surrogate is U+FFFD there, and so it is here.
        expect(naturalCompare(a, b) === 0).toBe(bytewise(foldText(a), foldText(b)) === 0);
        const [x, y, z] = [a, b, c].sort(naturalCompare);
        expect(naturalCompare(x as string, z as string)).toBeLessThanOrEqual(0);
        expect(naturalCompare(x as string, y as string)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('naturalSortKey', () => {
  it('writes each digit run as its length, its digits and its leading zeros', () => {
    expect(naturalSortKey('#148')).toBe('#131480');
    expect(naturalSortKey('#1014')).toBe('#1410140');
    expect(naturalSortKey('007')).toBe('11712');
    expect(naturalSortKey('Ärger 0')).toBe('ärger 011');
    expect(naturalSortKey('x'.concat('5'.repeat(12)))).toBe(`x212${'5'.repeat(12)}0`);
  });

  it('orders byte by byte exactly as naturalCompare, for any text', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(bytewise(naturalSortKey(a), naturalSortKey(b))).toBe(sign(naturalCompare(a, b)));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives SQLite the same order through the SQL function, for well-formed text', () => {
    const db = new Database(':memory:');
    db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, naturalSortSqlValue);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    const insert = db.prepare('INSERT INTO t (id, name) VALUES (?, ?)');
    const read = db
      .prepare(`SELECT id FROM t ORDER BY ${NATURAL_SORT_SQL_FUNCTION}(name), id`)
      .pluck();
    try {
      fc.assert(
        // better-sqlite3 stores a lone surrogate as invalid UTF-8, read back as three U+FFFD.
        fc.property(fc.array(wellFormed, { maxLength: 30 }), (names) => {
          db.exec('DELETE FROM t');
          names.forEach((name, id) => insert.run(id, name));
          const want = names
            .map((name, id) => ({ name, id }))
            .sort((x, y) => naturalCompare(x.name, y.name) || x.id - y.id)
            .map((row) => row.id);
          expect(read.all()).toEqual(want);
        }),
        { numRuns: 200 },
      );
    } finally {
      db.close();
    }
    expect(naturalSortSqlValue(null)).toBeNull();
    expect(naturalSortSqlValue(12)).toBeNull();
  });
});
