/**
 * A streaming reader of delimited text (RFC 4180 and what spreadsheets write besides): text is
 * pushed in pieces of any size and whole rows come out, so a file of any length is read with one
 * row (and one piece) in memory. Quoted fields may hold separators, doubled quotes and line
 * breaks; rows end with CRLF, LF or CR; a byte order mark at the start is dropped. The separator
 * is found on the first row (outside quotes): the most frequent of comma, semicolon and tab, as
 * spreadsheets set to a locale whose decimal mark is a comma write semicolons. Pure.
 */

export type CsvSeparator = ',' | ';' | '\t';

const CANDIDATES: readonly CsvSeparator[] = [',', ';', '\t'];

/** The separator of a first row: the candidate seen most often outside quotes (a comma on ties). */
export function detectSeparator(firstRow: string): CsvSeparator {
  const counts = new Map<string, number>(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const c of firstRow) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best: CsvSeparator = ',';
  for (const c of CANDIDATES) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

/**
 * Ours: the most text held while looking for the end of the first row (the column names). A
 * header this long is a quote left open in it, and the rest of the file would be held to find
 * its end.
 */
export const CSV_FIRST_ROW_MAX_CHARS = 1_048_576;

/** A text that is not delimited text as written: the message says where and what to do. */
export class CsvError extends Error {}

export class CsvReader {
  private separator: CsvSeparator | null;
  /** Text held until the separator is known (the first row). */
  private head = '';
  /** How far `head` was searched for the first row's end, and whether a quote is open there. */
  private headScanned = 0;
  private headQuoted = false;
  private started = false;
  /** Rows completed, and the row and column where the quoted field being read opened. */
  private rowsDone = 0;
  private quoteOpened: { row: number; column: number } | null = null;
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** A quote just closed inside a quoted field: a second one is a literal quote. */
  private quoteSeen = false;
  /** A CR ended the last row: an LF right after it belongs to it. */
  private crSeen = false;
  /** The current row has begun (a character, or a separator, was read). */
  private inRow = false;

  /** Characters of the current row read so far (its line break left out). */
  private rowChars = 0;

  /**
   * `maxRowChars`: a row holding more characters (quotes and separators included, its line
   * break not) is refused, as soon as the reader would hold more than that of it.
   */
  constructor(
    separator?: CsvSeparator,
    private readonly maxRowChars = Infinity,
  ) {
    this.separator = separator ?? null;
  }

  /** The separator in use; null until the first row has been seen. */
  get delimiter(): CsvSeparator | null {
    return this.separator;
  }

  /** Reads a piece of text; the rows it completed. */
  push(text: string): string[][] {
    if (!this.started) {
      this.head += text;
      if (this.head.length === 0) return [];
      if (this.headScanned === 0 && this.head.charCodeAt(0) === 0xfeff) {
        this.head = this.head.slice(1);
      }
      if (this.separator === null) {
        const end = this.firstRowEnd();
        if (end === -1) {
          if (this.head.length > CSV_FIRST_ROW_MAX_CHARS) {
            throw new CsvError(
              `the first row, which names the columns, is longer than ${CSV_FIRST_ROW_MAX_CHARS.toLocaleString('en-US')} characters: a quote opened in it is probably never closed. Close it (a quote inside a name is written twice: "") and choose the file again`,
            );
          }
          return [];
        }
        this.separator = detectSeparator(this.head.slice(0, end));
      }
      this.started = true;
      text = this.head;
      this.head = '';
    }
    return this.read(text);
  }

  /**
   * Where the end of the first row is (outside quotes), or -1 when it has not come yet. Each
   * piece is searched once: the search goes on from where the last piece's stopped.
   */
  private firstRowEnd(): number {
    const text = this.head;
    for (let i = this.headScanned; i < text.length; i++) {
      const c = text[i];
      if (c === '"') this.headQuoted = !this.headQuoted;
      else if (!this.headQuoted && (c === '\n' || c === '\r')) return i;
    }
    this.headScanned = text.length;
    return -1;
  }

  /**
   * The last row, when the text did not end with a line break. Throws a CsvError when a quoted
   * field is still open: every line after its quote would be read as that one field, and the
   * rows they hold would be lost without a word.
   */
  end(): string[][] {
    if (!this.started) {
      if (this.head.charCodeAt(0) === 0xfeff) this.head = this.head.slice(1);
      this.separator ??= detectSeparator(this.head);
      this.started = true;
      const rows = this.read(this.head);
      this.head = '';
      return [...rows, ...this.end()];
    }
    if (this.quoted && !this.quoteSeen && this.quoteOpened !== null) {
      const { row, column } = this.quoteOpened;
      throw new CsvError(
        `a quote opened in row ${row}, column ${column}, is never closed, so every line after it would be read as that one cell. Close it (a quote inside a value is written twice: "") and choose the file again`,
      );
    }
    if (!this.inRow) return [];
    this.row.push(this.field);
    const row = this.row;
    this.row = [];
    this.rowChars = 0;
    this.field = '';
    this.inRow = false;
    this.quoted = false;
    this.quoteSeen = false;
    return [row];
  }

  /** Counts `n` characters into the current row; refuses the row past `maxRowChars`. */
  private count(n: number): void {
    this.rowChars += n;
    if (this.rowChars <= this.maxRowChars) return;
    const open =
      this.quoted && !this.quoteSeen && this.quoteOpened !== null
        ? `: the quote opened in row ${this.quoteOpened.row}, column ${this.quoteOpened.column}, is probably never closed. Close it (a quote inside a value is written twice: "")`
        : ': it is no row of records (their fields hold far less). Check that its values are quoted where they hold line breaks';
    throw new CsvError(
      `row ${this.rowsDone + 1} is longer than ${this.maxRowChars.toLocaleString('en-US')} characters${open}, and choose the file again`,
    );
  }

  /**
   * The rows `text` completes. Characters are taken in runs (up to the next quote inside quotes,
   * up to the next separator or line break outside), each appended to its field at once: a field
   * grown a character at a time is a chain of one-character strings, 35 bytes a character.
   */
  private read(text: string): string[][] {
    const rows: string[][] = [];
    const separator = this.separator!;
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.crSeen) {
        this.crSeen = false;
        if (text[i] === '\n') {
          i++;
          continue;
        }
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (text[i] === '"') {
            this.count(1);
            this.field += '"';
            i++;
            continue;
          }
          this.quoted = false;
          // Falls through: the character after a closing quote is read as outside quotes.
        } else {
          const close = text.indexOf('"', i);
          const end = close === -1 ? n : close;
          // The closing quote is counted with the run before it.
          this.count(end - i + (close === -1 ? 0 : 1));
          this.field += text.slice(i, end);
          if (close !== -1) this.quoteSeen = true;
          i = close === -1 ? n : close + 1;
          continue;
        }
      }
      const c = text[i]!;
      if (c === '"' && this.field === '') {
        this.count(1);
        this.quoted = true;
        this.quoteOpened = { row: this.rowsDone + 1, column: this.row.length + 1 };
        this.inRow = true;
        i++;
      } else if (c === separator) {
        this.count(1);
        this.row.push(this.field);
        this.field = '';
        this.inRow = true;
        i++;
      } else if (c === '\r' || c === '\n') {
        this.crSeen = c === '\r';
        this.row.push(this.field);
        rows.push(this.row);
        this.rowsDone++;
        this.rowChars = 0;
        this.row = [];
        this.field = '';
        this.inRow = false;
        i++;
      } else {
        // Plain characters up to the next separator or line break (a quote inside is literal).
        let end = i + 1;
        for (; end < n; end++) {
          const d = text[end];
          if (d === separator || d === '\r' || d === '\n') break;
        }
        this.count(end - i);
        this.field += text.slice(i, end);
        this.inRow = true;
        i = end;
      }
    }
    return rows;
  }
}
