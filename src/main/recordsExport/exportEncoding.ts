/**
 * A batch of the view's rows as its file's writer takes it, made where the rows are read (the
 * export's helper threads make most of them): CSV lines as one text, or XLSX rows as cells XML can
 * hold. Making them is most of an export's time (reading, `describeValue`, quoting); writing them
 * is the rest. Pure.
 */
import { delimitedLine } from '../../shared/csv/delimitedText';
import type { RecordsField } from '../../shared/ipc/areas/records';
import type { ExportFormat } from '../../shared/ipc/areas/recordsExport';
import { rowCellsOf, type CellOptions, type CellValue } from '../../shared/recordValues/cellText';
import type { RecordRow } from '../../shared/ipc/areas/records';
import { xmlCell } from './xmlCell';

/** `rows` data rows: CSV as their lines (CRLF after each), XLSX as their cells. */
export type EncodedBatch =
  | { format: 'csv'; rows: number; text: string }
  | { format: 'xlsx'; rows: number; cells: CellValue[][] };

/** Rows of cells as `format`'s writer takes them. */
export function encodeCells(
  format: ExportFormat,
  rows: readonly (readonly CellValue[])[],
): EncodedBatch {
  if (format === 'csv') {
    let text = '';
    for (const row of rows) text += delimitedLine(row);
    return { format, rows: rows.length, text };
  }
  return { format, rows: rows.length, cells: rows.map((row) => row.map(xmlCell)) };
}

/** What a batch of records becomes: their cells for `columns`, encoded for `format`. */
export interface BatchLayout {
  format: ExportFormat;
  columns: readonly Pick<RecordsField, 'key' | 'type'>[];
  cells: CellOptions;
}

export function encodeRecords(layout: BatchLayout, records: readonly RecordRow[]): EncodedBatch {
  return encodeCells(layout.format, records.map(rowCellsOf(layout.columns, layout.cells)));
}
