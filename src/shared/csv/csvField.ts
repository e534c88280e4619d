/**
 * Fields of delimited text (RFC 4180) that spreadsheet programs open safely: a field is quoted
 * when it holds the separator, a quote, a line break or leading/trailing space (quotes doubled),
 * and text a spreadsheet would run as a formula is defused. One guard for every file and paste
 * the app makes: the Outbox's history export, the records export and the records' copied rows.
 * Pure.
 */

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, a tab or carriage return first: OWASP's
 * "CSV injection") gets a leading apostrophe; record names come from the service, not from us.
 * Text that already starts with apostrophes before such a character gets one more, so the guard
 * can be undone exactly (`restoreDefused`): `'=x` is written `''=x`, never the same as `=x`'s.
 */
export function defuseFormula(text: string): string {
  // Most text starts with none of them: one character read before the regular expression (an
  // export defuses every text cell of a million rows).
  const first = text.charCodeAt(0);
  if (
    first !== 39 && // '
    first !== 61 && // =
    first !== 43 && // +
    first !== 45 && // -
    first !== 64 && // @
    first !== 9 &&
    first !== 13
  ) {
    return text;
  }
  return DEFUSABLE.test(text) ? `'${text}` : text;
}

const DEFUSABLE = /^'*[=+\-@\t\r]/;
const DEFUSED = /^'+[=+\-@\t\r]/;

/** The text `defuseFormula` was given, from what it made (an import of an exported CSV). */
export function restoreDefused(text: string): string {
  return DEFUSED.test(text) ? text.slice(1) : text;
}

// A comma-separated field holding a semicolon is quoted too: an import finds the separator on
// the first row outside quotes (csvReader.ts), and a header such as "Cost; net" must not make a
// comma-separated file look semicolon-separated.
const NEEDS_QUOTES = {
  ',': /[",;\r\n]|^\s|\s$/,
  '\t': /["\t\r\n]|^\s|\s$/,
} as const;

/** `text` as one field between `separator`s, quoted only when it must be (no formula guard). */
export function quoteField(text: string, separator: ',' | '\t' = ','): string {
  return NEEDS_QUOTES[separator].test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV field: numbers as they are, text defused and quoted when it must be. */
export function csvField(value: string | number | null, separator: ',' | '\t' = ','): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  return quoteField(defuseFormula(value), separator);
}
