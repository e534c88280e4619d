/**
 * Rows of cells as delimited text (RFC 4180: CRLF after every row): CSV files and the table's
 * tab-separated copies. The cells come already defused where they must be (cellText.ts);
 * header labels are defused here, as they come from the service too. Pure.
 */
import type { CellValue } from '../recordValues/cellText';
import { csvField, quoteField } from './csvField';

/** One row's line, CRLF included. */
export function delimitedLine(cells: readonly CellValue[], separator: ',' | '\t' = ','): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (i > 0) line += separator;
    line += typeof cell === 'string' ? quoteField(cell, separator) : String(cell);
  }
  return `${line}\r\n`;
}

/** The header row's line: labels defused and quoted. */
export function headerLine(labels: readonly string[], separator: ',' | '\t' = ','): string {
  return `${labels.map((label) => csvField(label, separator)).join(separator)}\r\n`;
}
