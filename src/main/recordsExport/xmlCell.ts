/** A cell as an XLSX sheet's XML can hold it (xlsxFileWriter.ts; made where a batch is encoded). Pure. */
import type { CellValue } from '../../shared/recordValues/cellText';

/**
 * Characters an XML 1.0 file cannot hold (controls but tab and line breaks, U+FFFE/U+FFFF,
 * unpaired surrogates): written as they are they make the whole workbook unreadable, so each
 * becomes U+FFFD. (A carriage return is kept, but XML reads it back as a line break.)
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A cell as the XML of a sheet can hold it. A sheet holds no negative zero either: -0 (which a
 * JSON number can be) is written as 0, as the table shows it, rather than left to exceljs's
 * number formatting (its reader gives 0 back; the writer's property test met a -0 and expected it).
 */
export function xmlCell(value: CellValue): CellValue {
  if (typeof value === 'string') return value.replace(NOT_XML, '\uFFFD');
  return Object.is(value, -0) ? 0 : value;
}
