/** A cell as an XLSX sheet's XML can hold it (xlsxFileWriter.ts; made where a batch is encoded). Pure. */
import type { CellValue } from '../../shared/recordValues/cellText';
import { sheetText } from '../../shared/recordValues/xmlText';

/**
 * A cell as the XML of a sheet can hold it, text cut to what a cell holds (sheetText). A sheet holds no negative zero either: -0 (which a
 * JSON number can be) is written as 0, as the table shows it, rather than left to exceljs's
 * number formatting (its reader gives 0 back; the writer's property test met a -0 and expected it).
 */
export function xmlCell(value: CellValue): CellValue {
  if (typeof value === 'string') return sheetText(value);
  return Object.is(value, -0) ? 0 : value;
}
