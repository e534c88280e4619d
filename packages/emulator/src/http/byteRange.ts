/**
 * Single byte ranges of RFC 9110 (§14): `Range: bytes=a-b`, `bytes=a-` and `bytes=-n`, and the
 * `If-Range` precondition. Pure functions; the route that serves a file decides what to answer.
 */

/**
 * What a `Range` header asks of a representation of `total` bytes:
 * - `whole`: no header, another unit, a malformed header or more than one range (a server may
 *   ignore any of these and send the whole representation with 200);
 * - `range`: the bytes `start`..`end` (inclusive), already clamped to the representation;
 * - `unsatisfiable`: a valid single range that selects nothing (416).
 */
export type RangeRequest =
  { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: RangeRequest = { kind: 'whole' };
const DIGITS = /^\d+$/;

export function parseRange(header: string | undefined, total: number): RangeRequest {
  if (header === undefined) return WHOLE;
  const equals = header.indexOf('=');
  if (equals < 0) return WHOLE;
  // Range units are case-insensitive; `bytes` is the only one there is.
  if (header.slice(0, equals).toLowerCase() !== 'bytes') return WHOLE;
  // `1#range-spec`: a list whose empty elements are ignored, with optional spaces around commas.
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length !== 1) return WHOLE;
  const spec = specs[0]!;
  const dash = spec.indexOf('-');
  if (dash < 0) return WHOLE;
  const first = spec.slice(0, dash);
  const last = spec.slice(dash + 1);

  if (first === '') {
    // A suffix range: the last n bytes; all of them when the representation is shorter.
    if (!DIGITS.test(last)) return WHOLE;
    const length = Number(last);
    if (length === 0) return { kind: 'unsatisfiable' };
    // An empty representation has no bytes to name in a Content-Range; send it whole.
    if (total === 0) return WHOLE;
    return { kind: 'range', start: Math.max(0, total - length), end: total - 1 };
  }
  if (!DIGITS.test(first) || (last !== '' && !DIGITS.test(last))) return WHOLE;
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  // `a-b` with b < a is invalid syntax, not an unsatisfiable range.
  if (end < start) return WHOLE;
  if (start >= total) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end: Math.min(end, total - 1) };
}

/**
 * Whether a `Range` may be honoured given the request's `If-Range` (RFC 9110 §13.1.5): yes
 * without one, or when it is exactly the current strong entity tag. A weak tag or a date never
 * matches (no Last-Modified is sent), so the whole representation goes out.
 */
export function ifRangeAllows(ifRange: string | undefined, etag: string): boolean {
  if (ifRange === undefined) return true;
  return ifRange.trim() === etag;
}

/** The `Content-Range` value of a 206 answer. */
export const contentRange = (start: number, end: number, total: number) =>
  `bytes ${start}-${end}/${total}`;

/** The `Content-Range` value of a 416 answer. */
export const unsatisfiedRange = (total: number) => `bytes */${total}`;
