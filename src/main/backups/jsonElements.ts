/**
 * A streaming reader for one JSON document, for checking backup archive entries of any size
 * with bounded memory. When the top-level value is an array, its elements come out one by one
 * as soon as each is complete, each parsed with `JSON.parse` on its own text, so memory is
 * bounded by the largest element rather than by the document. Any other top-level value (an
 * object, a string, a number...) comes out whole at `end()`.
 *
 * The splitter only finds where each element begins and ends (tracking strings and their
 * escapes, and the nesting of `[`/`{`), and checks the array's own punctuation and the
 * whitespace between; each element's text is then checked by `JSON.parse` itself. So it accepts
 * exactly the documents `JSON.parse` accepts, and agrees with it on their values, except that it
 * also refuses nesting deeper than {@link MAX_JSON_DEPTH} and elements over the byte limit.
 *
 * Offsets in errors count UTF-16 code units from the start of the document (a character outside
 * the Basic Multilingual Plane counts two), starting at 0. Sizes are counted in UTF-8 bytes.
 *
 * Pure: no I/O, no Node built-ins. The caller decodes bytes with a streaming `TextDecoder`.
 */

/** The deepest nesting of arrays and objects accepted, the top-level array counting as 1. */
export const MAX_JSON_DEPTH = 512;

/** Why the document was refused, and where (`offset`, in UTF-16 code units from its start). */
export class JsonStreamError extends Error {
  override readonly name = 'JsonStreamError';
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

export interface JsonElementSplitterOptions {
  /** The largest element accepted, in UTF-8 bytes of its text (e.g. 16 MiB). */
  maxElementBytes: number;
}

// Where the reader stands between values.
const START = 0; // before the top-level value
const ARRAY_FIRST = 1; // just after the top-level '[': a value or ']'
const ARRAY_NEXT = 2; // just after a ',': a value
const ARRAY_AFTER = 3; // just after an element: ',' or ']'
const DONE = 4; // after the top-level value: whitespace only
const IN_ELEMENT = 5; // inside a value

// The kinds of value, by how their end is found.
const NESTED = 0; // an array, an object or a string: ends at its own closing character
const BARE = 1; // a number, true, false or null: ends at the first character that can't be in one

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** ASCII characters that can be part of a number or a literal: letters, digits, '+', '-', '.'. */
const BARE_PART = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  BARE_PART[c] = /[0-9A-Za-z+\-.]/.test(ch) ? 1 : 0;
}

/** Characters that can begin a number or a literal. */
function startsBare(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x74 || c === 0x66 || c === 0x6e;
}

function isWhitespace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB;
}

/** How a character is shown in a message: `','`, or `U+000B` when it is not printable ASCII. */
function describeChar(c: number): string {
  if (c > 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Splits one JSON document into its top-level array's elements, fed as text in chunks of any
 * size (a chunk may end anywhere: inside a string, an escape or a surrogate pair).
 *
 * After an error, every further call throws the same error.
 */
export class JsonElementSplitter {
  private readonly maxElementBytes: number;
  private state = START;
  /** Whether the top-level value is something other than an array. */
  private whole = false;
  private wholeValue: unknown = undefined;
  /** Offset of the first character of the chunk being scanned. */
  private consumed = 0;
  private failure: JsonStreamError | undefined = undefined;
  private ended = false;

  // The element being read.
  private kind = NESTED;
  private elementStart = 0; // offset of its first character
  private sliceFrom = 0; // where its text begins in the current chunk
  private pieces: string[] = []; // its text from earlier chunks
  private pieceUnits = 0; // the UTF-16 length of `pieces`
  private counted = 0; // how many of `pieces` have been measured in UTF-8...
  private countedUnits = 0; // ...their UTF-16 length...
  private countedBytes = 0; // ...and their UTF-8 size
  private depth = 0; // arrays and objects open inside it
  private inString = false;
  private escaped = false; // just after a backslash in a string

  constructor(options: JsonElementSplitterOptions) {
    if (!(options.maxElementBytes > 0)) {
      throw new RangeError(`maxElementBytes must be positive, got ${options.maxElementBytes}`);
    }
    this.maxElementBytes = options.maxElementBytes;
  }

  /** Feeds the next chunk of text; returns the top-level array elements it completed. */
  push(text: string): unknown[] {
    this.checkUsable();
    const out: unknown[] = [];
    try {
      this.scan(text, out);
    } catch (error) {
      if (error instanceof JsonStreamError) this.failure = error;
      throw error;
    }
    this.consumed += text.length;
    return out;
  }

  /**
   * Ends the input: throws a {@link JsonStreamError} if the document is incomplete or invalid;
   * returns the elements still to come (for a top-level value that is not an array, the value).
   */
  end(): unknown[] {
    this.checkUsable();
    this.ended = true;
    const out: unknown[] = [];
    try {
      this.finishInput(out);
    } catch (error) {
      if (error instanceof JsonStreamError) this.failure = error;
      throw error;
    }
    return out;
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.ended) throw new Error('JsonElementSplitter: the input has already ended');
  }

  private scan(text: string, out: unknown[]): void {
    const n = text.length;
    const base = this.consumed;
    let i = 0;
    while (i < n) {
      const state = this.state;
      if (state === IN_ELEMENT) {
        i = this.kind === BARE ? this.scanBare(text, i, out) : this.scanNested(text, i, out);
        continue;
      }
      const c = text.charCodeAt(i);
      if (isWhitespace(c)) {
        i++;
        continue;
      }
      switch (state) {
        case START:
          if (c === OPEN_BRACKET) {
            this.state = ARRAY_FIRST;
            i++;
          } else {
            this.whole = true;
            this.beginElement(c, i, base + i, 'a JSON value was expected');
          }
          break;
        case ARRAY_FIRST:
          if (c === CLOSE_BRACKET) {
            this.state = DONE;
            i++;
          } else {
            this.beginElement(c, i, base + i, "a value or ']' was expected");
          }
          break;
        case ARRAY_NEXT:
          this.beginElement(c, i, base + i, 'a value was expected');
          break;
        case ARRAY_AFTER:
          if (c === COMMA) this.state = ARRAY_NEXT;
          else if (c === CLOSE_BRACKET) this.state = DONE;
          else throw unexpected(c, base + i, "',' or ']' was expected");
          i++;
          break;
        default:
          throw unexpected(c, base + i, 'nothing but whitespace may follow the top-level value');
      }
    }
    if (this.state === IN_ELEMENT) this.carryOver(text);
  }

  /** Starts a value at `text[i]`, which the next scan step reads (or refuses it). */
  private beginElement(c: number, i: number, offset: number, expected: string): void {
    if (c === OPEN_BRACKET || c === OPEN_BRACE || c === QUOTE) this.kind = NESTED;
    else if (startsBare(c)) this.kind = BARE;
    else throw unexpected(c, offset, expected);
    this.state = IN_ELEMENT;
    this.elementStart = offset;
    this.sliceFrom = i;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** Reads a number or literal from `text[i]`; returns where its scanning stopped. */
  private scanBare(text: string, i: number, out: unknown[]): number {
    const n = text.length;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c >= 128 || BARE_PART[c] === 0) {
        this.finishElement(text, i, out);
        return i;
      }
      i++;
    }
    return n;
  }

  /** Reads an array, object or string from `text[i]`; returns where its scanning stopped. */
  private scanNested(text: string, i: number, out: unknown[]): number {
    const n = text.length;
    const maxDepth = this.whole ? MAX_JSON_DEPTH : MAX_JSON_DEPTH - 1;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    scan: for (; i < n; i++) {
      if (inString) {
        if (escaped) {
          escaped = false; // the loop steps over the escaped character
          continue;
        }
        // Jump to the next '"' that is not escaped: one after an even run of backslashes (each
        // pair is an escaped backslash), counting only the backslashes after `i`.
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote === -1) {
            escaped = oddBackslashRun(text, i, n);
            i = n;
            break scan;
          }
          const escapedQuote = oddBackslashRun(text, i, quote);
          i = quote;
          if (!escapedQuote) break;
          i++;
        }
        inString = false;
        if (depth === 0) break;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        inString = true;
      } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
        if (++depth > maxDepth) {
          throw new JsonStreamError(
            `nesting deeper than ${MAX_JSON_DEPTH} at character ${this.consumed + i}`,
            this.consumed + i,
          );
        }
      } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
        if (--depth === 0) break;
      }
    }
    if (i === n) {
      this.depth = depth;
      this.inString = inString;
      this.escaped = escaped;
      return n;
    }
    this.finishElement(text, i + 1, out);
    return i + 1;
  }

  /** Keeps the current element's part of `text`, which has ended before the element. */
  private carryOver(text: string): void {
    const piece = this.sliceFrom === 0 ? text : text.substring(this.sliceFrom);
    this.sliceFrom = 0;
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.pieceUnits += piece.length;
    this.checkSize('', 0, 0);
  }

  /**
   * Refuses the element if `pieces` and `text[from, to)` together are over the limit. A UTF-16
   * code unit takes at most 3 bytes in UTF-8, so text is only measured exactly (once) when that
   * bound is over the limit: never for elements under a third of it.
   */
  private checkSize(text: string, from: number, to: number): void {
    const max = this.maxElementBytes;
    if (this.countedBytes + 3 * (this.pieceUnits - this.countedUnits + (to - from)) <= max) return;
    for (; this.counted < this.pieces.length; this.counted++) {
      const piece = this.pieces[this.counted] as string;
      this.countedBytes += utf8Length(piece, 0, piece.length);
      this.countedUnits += piece.length;
    }
    if (this.countedBytes + utf8Length(text, from, to) > max) {
      const what = this.whole ? 'the top-level value' : 'the element';
      throw new JsonStreamError(
        `${what} starting at character ${this.elementStart} is larger than the limit of ` +
          `${max} bytes`,
        this.elementStart,
      );
    }
  }

  /** The current element ends just before `text[end]`: parses it and moves on. */
  private finishElement(text: string, end: number, out: unknown[]): void {
    this.checkSize(text, this.sliceFrom, end);
    const slice = text.substring(this.sliceFrom, end);
    let source = slice;
    if (this.pieces.length > 0) {
      source = this.pieces.join('') + slice;
      this.pieces = [];
      this.pieceUnits = 0;
      this.counted = 0;
      this.countedUnits = 0;
      this.countedBytes = 0;
    }
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      throw invalid(error, this.elementStart);
    }
    if (this.whole) {
      this.wholeValue = value;
      this.state = DONE;
    } else {
      out.push(value);
      this.state = ARRAY_AFTER;
    }
  }

  private finishInput(out: unknown[]): void {
    const offset = this.consumed;
    if (this.state === IN_ELEMENT && this.kind === BARE) this.finishElement('', 0, out);
    switch (this.state) {
      case START:
        throw new JsonStreamError(
          `unexpected end of input at character ${offset}: a JSON value was expected`,
          offset,
        );
      case ARRAY_FIRST:
        throw new JsonStreamError(
          `unexpected end of input at character ${offset}: a value or ']' was expected`,
          offset,
        );
      case ARRAY_NEXT:
        throw new JsonStreamError(
          `unexpected end of input at character ${offset}: a value was expected`,
          offset,
        );
      case ARRAY_AFTER:
        throw new JsonStreamError(
          `unexpected end of input at character ${offset}: ',' or ']' was expected`,
          offset,
        );
      case IN_ELEMENT: {
        const what = this.whole ? 'the top-level value' : 'the element';
        throw new JsonStreamError(
          `unexpected end of input at character ${offset}: ${what} starting at character ` +
            `${this.elementStart} is incomplete`,
          offset,
        );
      }
      default:
        if (this.whole) {
          out.push(this.wholeValue);
          this.wholeValue = undefined;
        }
    }
  }
}

/** Whether `text[from, to)` ends with an odd number of backslashes. */
function oddBackslashRun(text: string, from: number, to: number): boolean {
  let j = to - 1;
  while (j >= from && text.charCodeAt(j) === BACKSLASH) j--;
  return ((to - 1 - j) & 1) === 1;
}

/** The UTF-8 size of `text[from, to)`, as `TextEncoder` would encode it (without lone surrogates). */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // 2 bytes below U+0800, 4 for a surrogate pair (2 per half), else 3.
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

function unexpected(c: number, offset: number, expected: string): JsonStreamError {
  return new JsonStreamError(
    `unexpected ${describeChar(c)} at character ${offset}: ${expected}`,
    offset,
  );
}

/** Restates `JSON.parse`'s complaint with an offset in the whole document. */
function invalid(error: unknown, elementStart: number): JsonStreamError {
  const message = error instanceof Error ? error.message : String(error);
  const at = / in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message);
  if (at === null) {
    return new JsonStreamError(
      `invalid JSON in the value starting at character ${elementStart}: ${message}`,
      elementStart,
    );
  }
  const offset = elementStart + Number(at[1]);
  return new JsonStreamError(
    `invalid JSON at character ${offset}: ${message.slice(0, at.index)}`,
    offset,
  );
}
