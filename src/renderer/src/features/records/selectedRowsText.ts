/**
 * The table's selected rows as tab-separated text that pastes into any spreadsheet: the header
 * row, then each selected row in the table's order, its cells as the table shows them (the
 * export's own cell rules, src/shared/recordValues/cellText.ts, formulas defused). Rows the table
 * has not loaded are read from the engine in windows, like the table's own. Pure but for `read`.
 */
import { delimitedLine, headerLine } from '../../../../shared/csv/delimitedText';
import { COPY_ROWS_MAX } from '../../../../shared/ipc/areas/recordsExport';
import type { RecordRow, RecordsField } from '../../../../shared/ipc/areas/records';
import { rowCells } from '../../../../shared/recordValues/cellText';
import type { ValueContext } from '../../../../shared/recordValues/describeValue';
import { selectedCount, type RowSelection } from './rowSelection';

/** Rows read at once for a copy (records.query's largest window is 1,000). */
const COPY_WINDOW = 500;

export class CopyRefused extends Error {}

export interface CopySource {
  /** A row the table holds, or undefined. */
  loaded(index: number): RecordRow | undefined;
  /** Rows offset..offset + limit of the list on screen, from the engine. */
  read(offset: number, limit: number): Promise<RecordRow[]>;
}

/** The selected rows, in order; refused in words beyond COPY_ROWS_MAX. */
export async function selectedRows(
  selection: RowSelection,
  source: CopySource,
): Promise<RecordRow[]> {
  const count = selectedCount(selection);
  if (count > COPY_ROWS_MAX) {
    throw new CopyRefused(
      `${count.toLocaleString()} rows are selected; Copy takes at most ${COPY_ROWS_MAX.toLocaleString()}. Nothing was copied: select fewer rows, or export the view to a file.`,
    );
  }
  return rowsInRanges(selection, source);
}

/** The rows of the selection's ranges, in order (loaded ones from the table, others read). */
export async function rowsInRanges(
  selection: RowSelection,
  source: CopySource,
): Promise<RecordRow[]> {
  const rows: RecordRow[] = [];
  for (const [first, last] of selection.ranges) {
    let index = first;
    while (index <= last) {
      const row = source.loaded(index);
      if (row) {
        rows.push(row);
        index++;
        continue;
      }
      const limit = Math.min(COPY_WINDOW, last - index + 1);
      const read = await source.read(index, limit);
      if (read.length === 0) return rows; // The list got shorter since the selection was made.
      rows.push(...read);
      index += read.length;
    }
  }
  return rows;
}

/** Tab-separated text: the header, then the rows (CRLF after each). */
export function rowsAsText(
  columns: readonly RecordsField[],
  rows: readonly RecordRow[],
  context: ValueContext,
): string {
  let text = headerLine(
    columns.map((c) => c.label),
    '\t',
  );
  const options = { values: 'shown', context, defuse: true } as const;
  for (const row of rows) text += delimitedLine(rowCells(columns, row, options), '\t');
  return text;
}
