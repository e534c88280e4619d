/**
 * Numbers a double cannot hold, kept as the service wrote them.
 *
 * Why: the spec's Number field holds "whole number, max 19 digits" and Decimal "max 17 digits",
 * and ids are "long"; JSON.parse turns 1234567890123456789 into 1234567890123456800, so the
 * mirror would hold, show and export a value the service does not have. A number literal whose
 * double does not write back to the same decimal value (beyond 2^53, more than ~15 significant
 * digits, 1e400, 1e-400) becomes a JSON string of its exact text before JSON.parse; any other
 * number (0.1, 1.10, -0, 1e-7) stays a number, as before.
 *
 * Cost: only text where a number of 16 or more digits, or with an exponent, can start is looked
 * at again (`mayHoldInexact`, one regex over the text); digits inside strings (ids are strings of
 * 19 digits) follow a quote, not a `:`, `,` or `[`, so the usual page never takes the slow path.
 */

import { inexactDouble } from '../../../shared/fieldValues/exactDecimal';

/** A number of 16+ digits (and points), or with an exponent, where a value can start. */
const MAY_HOLD_INEXACT = /(?:^|[:,[])\s*-?(?:[0-9.]{16}|[0-9.]+[eE])/;

/** Only JSON's own number grammar is rewritten: anything else is left for JSON.parse to refuse. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function mayHoldInexact(text: string): boolean {
  return MAY_HOLD_INEXACT.test(text);
}

/** True when JSON.parse would give a double whose value differs from the literal's. */
export function isInexact(literal: string): boolean {
  return JSON_NUMBER.test(literal) && inexactDouble(literal) !== null;
}

const isDelimiter = (c: string) =>
  c === ',' || c === ']' || c === '}' || c === ' ' || c === '\n' || c === '\r' || c === '\t';

/**
 * `text` with every number literal outside strings that a double cannot hold exactly written as
 * a JSON string of the same digits; everything else as it was (malformed text stays malformed).
 */
export function quoteInexactNumbers(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      let quote = text.indexOf('"', i + 1);
      for (;;) {
        if (quote === -1) return copied === 0 ? text : out + text.slice(copied);
        let backslashes = 0;
        while (text[quote - 1 - backslashes] === '\\') backslashes++;
        if (backslashes % 2 === 0) break;
        quote = text.indexOf('"', quote + 1);
      }
      i = quote + 1;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      let end = i + 1;
      while (end < text.length && !isDelimiter(text[end]!) && text[end] !== ':') end++;
      const literal = text.slice(i, end);
      if (isInexact(literal)) {
        out += `${text.slice(copied, i)}"${literal}"`;
        copied = end;
      }
      i = end;
      continue;
    }
    i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * JSON.parse, with numbers a double cannot hold kept as their exact text. The text is parsed as
 * it is first, so it is refused exactly when JSON.parse refuses it, and the rewrite only ever
 * meets valid JSON (where a number is never a key).
 */
export function parseKeepingExactNumbers(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!mayHoldInexact(text)) return value;
  const rewritten = quoteInexactNumbers(text);
  return rewritten === text ? value : JSON.parse(rewritten);
}
