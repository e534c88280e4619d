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
