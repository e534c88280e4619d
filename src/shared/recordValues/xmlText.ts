/**
 * Text as an XML 1.0 file can hold it: the export writes an XLSX's cells so, and the import
 * compares a sheet's cells with a record's values so (a record's text never reaches a sheet
 * unchanged when it holds one of these). Pure.
 */

/**
 * Characters an XML 1.0 file cannot hold (controls but tab and line breaks, U+FFFE/U+FFFF,
 * unpaired surrogates): written as they are they make the whole workbook unreadable, so each
 * becomes U+FFFD. So does DEL, which XML holds but exceljs's writer drops without a trace (an
 * untouched cell imported back then removed it from the record). (A carriage return is kept, but
 * XML reads it back as a line break.)
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

/**
 * The most UTF-16 units an Excel cell holds ("Total number of characters that a cell can
 * contain: 32,767", Excel's specifications and limits): a workbook with a longer cell is one
 * Excel calls damaged, and its repair cuts the cell anyway.
 */
export const SHEET_CELL_MAX_UNITS = 32_767;

/** What a cut cell ends with, so a reader of the sheet sees that the text goes on. */
const CUT_MARK = '…';

/** Whether `text` is longer than a sheet's cell holds (sheetText cuts it). */
export function overSheetCell(text: string): boolean {
  return text.length > SHEET_CELL_MAX_UNITS;
}

/**
 * Text as an XLSX cell holds it: xmlText's characters, and a text longer than a cell holds cut
 * to fit with "…" at its end (never between the two halves of a character). The export writes
 * cells so, and the import compares a record's text with a sheet's cell so: an untouched cut
 * cell is not a change to the record.
 */
export function sheetText(text: string): string {
  const kept = xmlText(text);
  if (!overSheetCell(kept)) return kept;
  let end = SHEET_CELL_MAX_UNITS - CUT_MARK.length;
  const last = kept.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return kept.slice(0, end) + CUT_MARK;
}
