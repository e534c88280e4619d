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

/** Where the end of the first row is (outside quotes), or -1 when it has not come yet. */
function firstRowEnd(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return i;
  }
  return -1;
}

export class CsvReader {
  private separator: CsvSeparator | null;
  /** Text held until the separator is known (the first row). */
  private head = '';
  private started = false;
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** A quote just closed inside a quoted field: a second one is a literal quote. */
  private quoteSeen = false;
  /** A CR ended the last row: an LF right after it belongs to it. */
  private crSeen = false;
  /** The current row has begun (a character, or a separator, was read). */
  private inRow = false;

  constructor(separator?: CsvSeparator) {
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
      if (this.head.charCodeAt(0) === 0xfeff) this.head = this.head.slice(1);
      if (this.separator === null) {
        const end = firstRowEnd(this.head);
        if (end === -1) return [];
        this.separator = detectSeparator(this.head.slice(0, end));
      }
      this.started = true;
      text = this.head;
      this.head = '';
    }
    return this.read(text);
  }

  /** The last row, when the text did not end with a line break. */
  end(): string[][] {
    if (!this.started) {
      if (this.head.charCodeAt(0) === 0xfeff) this.head = this.head.slice(1);
      this.separator ??= detectSeparator(this.head);
      this.started = true;
      const rows = this.read(this.head);
      this.head = '';
      return [...rows, ...this.end()];
    }
    if (!this.inRow) return [];
    this.row.push(this.field);
    const row = this.row;
    this.row = [];
    this.field = '';
    this.inRow = false;
    this.quoted = false;
    this.quoteSeen = false;
    return [row];
  }

  private read(text: string): string[][] {
    const rows: string[][] = [];
    const separator = this.separator!;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.crSeen) {
        this.crSeen = false;
        if (c === '\n') continue;
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === '"') {
            this.field += '"';
            continue;
          }
          this.quoted = false;
          // Falls through: the character after a closing quote is read as outside quotes.
        } else {
          if (c === '"') this.quoteSeen = true;
          else this.field += c;
          continue;
        }
      }
      if (c === '"' && this.field === '') {
        this.quoted = true;
        this.inRow = true;
      } else if (c === separator) {
        this.row.push(this.field);
        this.field = '';
        this.inRow = true;
      } else if (c === '\r' || c === '\n') {
        this.crSeen = c === '\r';
        this.row.push(this.field);
        rows.push(this.row);
        this.row = [];
        this.field = '';
        this.inRow = false;
      } else {
        this.field += c;
        this.inRow = true;
      }
    }
    return rows;
  }
}
