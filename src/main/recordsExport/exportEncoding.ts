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
import { overSheetCell } from '../../shared/recordValues/xmlText';
import { xmlCell } from './xmlCell';

/**
 * `rows` data rows: CSV as their lines (CRLF after each) in UTF-8, XLSX as their cells. CSV's
 * bytes are made where the rows are read: a helper thread hands them over without a copy (their
 * buffer moved, not cloned), and the export thread only writes them (a text crossing threads was
 * copied twice, then encoded on the thread that writes the file).
 */
export type EncodedBatch =
  | { format: 'csv'; rows: number; bytes: Uint8Array }
  /** `cut`: text cells longer than a sheet's cell holds, cut to fit (xmlCell). */
  | { format: 'xlsx'; rows: number; cells: CellValue[][]; cut: number };

/** Each encoding into a buffer of its own (Buffer.from may share a pooled one: not movable). */
const utf8 = new TextEncoder();

/** What moves with a batch posted to another thread: CSV's buffer. */
export function batchTransfer(batch: EncodedBatch): ArrayBuffer[] {
  return batch.format === 'csv' ? [batch.bytes.buffer as ArrayBuffer] : [];
}

/** Rows of cells as `format`'s writer takes them. */
export function encodeCells(
  format: ExportFormat,
  rows: readonly (readonly CellValue[])[],
): EncodedBatch {
  if (format === 'csv') {
    let text = '';
    for (const row of rows) text += delimitedLine(row);
    return { format, rows: rows.length, bytes: utf8.encode(text) };
  }
  let cut = 0;
  const cells = rows.map((row) =>
    row.map((cell) => {
      if (typeof cell === 'string' && overSheetCell(cell)) cut++;
      return xmlCell(cell);
    }),
  );
  return { format, rows: rows.length, cells, cut };
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
