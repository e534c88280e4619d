/**
 * JSON.parse of a reply's bytes, without ever making the whole reply one string.
 *
 * Why: V8 puts a string over 128 KiB in its large-object space, one memory mapping each. On the
 * machines the benchmarks run on (2 cores, a sandboxed kernel) that costs about 3 ms per string,
 * against 0.04 ms for one of 120 KiB, and a page of 200 records is about 250 KiB: decoding each
 * page as one string cost ~15 µs per record before JSON.parse even started. So a large value is
 * cut at its own structure (an object's members, an array's items) into pieces below
 * `splitAbove` bytes; each piece is decoded and parsed alone, and the pieces are put together as
 * JSON.parse would have built them.
 *
 * The result equals `JSON.parse(new TextDecoder().decode(bytes))` for every input, except that a
 * number a double cannot hold is kept as a string of its exact text (exactNumbers.ts), and it throws a
 * SyntaxError exactly when that would (test/unit/api/parseJsonBytes.property.test.ts): pieces are
 * cut only at ASCII bytes outside strings (a UTF-8 sequence never holds one, so invalid bytes
 * decode as they would have), every piece is checked by JSON.parse itself, and the scan checks
 * the commas, colons and brackets between pieces.
 */

import { parseKeepingExactNumbers } from './exactNumbers';

/** Pieces stay well below V8's 128 KiB large-object threshold, even as two-byte strings. */
const SPLIT_ABOVE_BYTES = 48 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Buffer, at: number, end: number): number {
  while (at < end && isSpace(bytes[at])) at++;
  return at;
}

function malformed(at: number): SyntaxError {
  return new SyntaxError(`Unexpected token in JSON at byte ${at}`);
}

/** The end (exclusive) of the string that opens at `at`. */
function stringEnd(bytes: Buffer, at: number, end: number): number {
  let from = at + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote === -1 || quote >= end) throw malformed(at);
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

const isDigitOrPoint = (byte: number | undefined) =>
  byte === 0x2e || (byte !== undefined && byte >= 0x30 && byte <= 0x39);
const isExponent = (byte: number | undefined) => byte === 0x65 || byte === 0x45;

/**
 * Whether the value valueEnd found last may hold a number a double cannot hold (16 digits or
 * more, or an exponent, outside strings): learnt by the scan that finds its end, so no other
 * pass over the bytes is needed to decide whether its piece takes exactNumbers' slower parse.
 */
let lastValueMayHoldInexact = false;

/**
 * The end (exclusive) of the value that starts at `at`. Only where it ends: what it holds is
 * checked when its piece is parsed (brackets of the wrong kind included).
 */
function valueEnd(bytes: Buffer, at: number, end: number): number {
  const first = bytes[at];
  lastValueMayHoldInexact = false;
  if (first === QUOTE) return stringEnd(bytes, at, end);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    // One tight loop over the bytes: a native call per string (indexOf) cost more than the
    // parsing it saved, records being mostly short strings.
    let depth = 0;
    let inString = false;
    let digits = 0;
    let mayHoldInexact = false;
    for (let i = at; i < end; i++) {
      const byte = bytes[i];
      if (inString) {
        if (byte === BACKSLASH) i++;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (isDigitOrPoint(byte)) {
        if (++digits >= 16) mayHoldInexact = true;
        continue;
      }
      if (digits > 0 && isExponent(byte)) mayHoldInexact = true;
      digits = 0;
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) {
          lastValueMayHoldInexact = mayHoldInexact;
          return i + 1;
        }
      }
    }
    throw malformed(at);
  }
  // A number or a literal: up to the next delimiter.
  let i = at;
  let exponent = false;
  while (i < end) {
    const byte = bytes[i];
    if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) break;
    if (isExponent(byte)) exponent = true;
    i++;
  }
  if (i === at) throw malformed(at);
  lastValueMayHoldInexact = i - at >= 16 || (exponent && (first === 0x2d || isDigitOrPoint(first)));
  return i;
}

/**
 * Buffer's UTF-8 decoding replaces invalid bytes as TextDecoder does (the property test holds it
 * to that) at about half the cost per small piece; a byte order mark inside is kept, as it must
 * be (only the reply's first one is dropped, below).
 */
function parsePiece(bytes: Buffer, start: number, end: number, mayHoldInexact = true): unknown {
  const text = bytes.toString('utf8', start, end);
  return mayHoldInexact ? parseKeepingExactNumbers(text) : JSON.parse(text);
}

/**
 * How deep values are cut: a reply's envelope (0), its list (1), the items (2), their members (3).
 * Deeper values are parsed whole: each level cut scans its bytes once more, and a hostile reply
 * nested 100,000 deep would otherwise cost a scan per level and a stack frame per level, where
 * JSON.parse itself takes it in one pass.
 */
const MAX_CUT_DEPTH = 4;

/** The value in [start, end), which holds exactly one value and no surrounding space. */
function parseValue(
  bytes: Buffer,
  start: number,
  end: number,
  splitAbove: number,
  depth: number,
  mayHoldInexact: boolean,
): unknown {
  if (end - start <= splitAbove || depth >= MAX_CUT_DEPTH) {
    return parsePiece(bytes, start, end, mayHoldInexact);
  }
  const first = bytes[start];
  if (first === OPEN_ARRAY) return parseArray(bytes, start, end, splitAbove, depth);
  if (first === OPEN_OBJECT) return parseObject(bytes, start, end, splitAbove, depth);
  return parsePiece(bytes, start, end, mayHoldInexact);
}

function parseArray(
  bytes: Buffer,
  start: number,
  end: number,
  splitAbove: number,
  depth: number,
): unknown[] {
  if (bytes[end - 1] !== CLOSE_ARRAY) throw malformed(end - 1);
  const items: unknown[] = [];
  const last = end - 1;
  let at = skipSpace(bytes, start + 1, last);
  if (at === last) return items;
  for (;;) {
    const itemEnd = valueEnd(bytes, at, last);
    items.push(parseValue(bytes, at, itemEnd, splitAbove, depth + 1, lastValueMayHoldInexact));
    at = skipSpace(bytes, itemEnd, last);
    if (at === last) return items;
    if (bytes[at] !== COMMA) throw malformed(at);
    at = skipSpace(bytes, at + 1, last);
    if (at === last) throw malformed(at);
  }
}

function parseObject(
  bytes: Buffer,
  start: number,
  end: number,
  splitAbove: number,
  depth: number,
): Record<string, unknown> {
  if (bytes[end - 1] !== CLOSE_OBJECT) throw malformed(end - 1);
  const object: Record<string, unknown> = {};
  const last = end - 1;
  let at = skipSpace(bytes, start + 1, last);
  if (at === last) return object;
  for (;;) {
    if (bytes[at] !== QUOTE) throw malformed(at);
    const keyEnd = stringEnd(bytes, at, last);
    const key = parsePiece(bytes, at, keyEnd, false) as string;
    at = skipSpace(bytes, keyEnd, last);
    if (bytes[at] !== COLON) throw malformed(at);
    at = skipSpace(bytes, at + 1, last);
    if (at === last) throw malformed(at);
    const memberEnd = valueEnd(bytes, at, last);
    // As JSON.parse makes it: an own member, even one named __proto__.
    Object.defineProperty(object, key, {
      value: parseValue(bytes, at, memberEnd, splitAbove, depth + 1, lastValueMayHoldInexact),
      writable: true,
      enumerable: true,
      configurable: true,
    });
    at = skipSpace(bytes, memberEnd, last);
    if (at === last) return object;
    if (bytes[at] !== COMMA) throw malformed(at);
    at = skipSpace(bytes, at + 1, last);
  }
}

/** True when the bytes hold nothing but JSON's white space. */
export function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (!isSpace(byte)) return false;
  return true;
}

/**
 * How deep a large reply is read in one pass ("streamed"): its envelope (0) and its list (1).
 * Their ends are found as their members are read, so their bytes are scanned once, by the scan
 * that finds each item's end; below this depth a value's end is found first (valueEnd), then it
 * is parsed whole or cut as parseValue decides. Scanning the envelope and the list ahead as well
 * cost two more passes over the whole page: 2.1 ms against 1.2 ms a page of 200 records.
 */
const STREAM_DEPTH = 2;

/** A value read from `at`, and the end (exclusive) of its bytes. */
interface Read {
  value: unknown;
  end: number;
}

/** The value that starts at `at` (no space before it), within `limit`. */
function readValue(
  bytes: Buffer,
  at: number,
  limit: number,
  splitAbove: number,
  depth: number,
): Read {
  if (at >= limit) throw malformed(at);
  const first = bytes[at];
  if (depth < STREAM_DEPTH && first === OPEN_ARRAY) {
    return readArray(bytes, at, limit, splitAbove, depth);
  }
  if (depth < STREAM_DEPTH && first === OPEN_OBJECT) {
    return readObject(bytes, at, limit, splitAbove, depth);
  }
  const end = valueEnd(bytes, at, limit);
  return { value: parseValue(bytes, at, end, splitAbove, depth, lastValueMayHoldInexact), end };
}

function readArray(
  bytes: Buffer,
  start: number,
  limit: number,
  splitAbove: number,
  depth: number,
): Read {
  const items: unknown[] = [];
  let at = skipSpace(bytes, start + 1, limit);
  if (bytes[at] === CLOSE_ARRAY) return { value: items, end: at + 1 };
  for (;;) {
    const item = readValue(bytes, at, limit, splitAbove, depth + 1);
    items.push(item.value);
    at = skipSpace(bytes, item.end, limit);
    if (at >= limit) throw malformed(at);
    if (bytes[at] === CLOSE_ARRAY) return { value: items, end: at + 1 };
    if (bytes[at] !== COMMA) throw malformed(at);
    at = skipSpace(bytes, at + 1, limit);
  }
}

function readObject(
  bytes: Buffer,
  start: number,
  limit: number,
  splitAbove: number,
  depth: number,
): Read {
  const object: Record<string, unknown> = {};
  let at = skipSpace(bytes, start + 1, limit);
  if (bytes[at] === CLOSE_OBJECT) return { value: object, end: at + 1 };
  for (;;) {
    if (at >= limit || bytes[at] !== QUOTE) throw malformed(at);
    const keyEnd = stringEnd(bytes, at, limit);
    const key = parsePiece(bytes, at, keyEnd, false) as string;
    at = skipSpace(bytes, keyEnd, limit);
    if (bytes[at] !== COLON) throw malformed(at);
    at = skipSpace(bytes, at + 1, limit);
    const member = readValue(bytes, at, limit, splitAbove, depth + 1);
    // As JSON.parse makes it: an own member, even one named __proto__.
    Object.defineProperty(object, key, {
      value: member.value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    at = skipSpace(bytes, member.end, limit);
    if (at >= limit) throw malformed(at);
    if (bytes[at] === CLOSE_OBJECT) return { value: object, end: at + 1 };
    if (bytes[at] !== COMMA) throw malformed(at);
    at = skipSpace(bytes, at + 1, limit);
  }
}

export function parseJsonBytes(data: Uint8Array, options: { splitAbove?: number } = {}): unknown {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const splitAbove = options.splitAbove ?? SPLIT_ABOVE_BYTES;
  // TextDecoder drops a leading byte order mark; so does this.
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (bytes.length - start <= splitAbove) return parsePiece(bytes, start, bytes.length);
  start = skipSpace(bytes, start, bytes.length);
  let end = bytes.length;
  while (end > start && isSpace(bytes[end - 1])) end--;
  if (start === end) throw malformed(start);
  const first = bytes[start];
  // Anything but an object or an array has no structure to cut at.
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) return parsePiece(bytes, start, end);
  const read = readValue(bytes, start, end, splitAbove, 0);
  // The value must fill [start, end): trailing text after it is refused as JSON.parse does.
  if (read.end !== end) throw malformed(read.end);
  return read.value;
}
