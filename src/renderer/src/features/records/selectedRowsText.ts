/**
 * The table's selected rows as tab-separated text that pastes into any spreadsheet: the header
 * row, then each selected row, its cells as the table shows them (the export's own cell rules,
 * src/shared/recordValues/cellText.ts, formulas defused). The rows are read again from the engine
 * by id, so each shows its values as they are now. Pure but for the source's reads.
 */
import { delimitedLine, headerLine } from '../../../../shared/csv/delimitedText';
import { COPY_ROWS_MAX } from '../../../../shared/ipc/areas/recordsExport';
import {
  LIST_IDS_MAX,
  type RecordRow,
  type RecordsField,
  type RecordsIds,
} from '../../../../shared/ipc/areas/records';
import { rowCellsOf } from '../../../../shared/recordValues/cellText';
import type { ValueContext } from '../../../../shared/recordValues/describeValue';
import type { Picked } from './rowSelection';

export class CopyRefused extends Error {}

export interface CopySource {
  /** The ids of rows offset..offset + limit of the list on screen, and its total. */
  ids(offset: number, limit: number): Promise<RecordsIds>;
  /** The module's records of `ids` in that order, those no longer listed left out. */
  rows(ids: string[]): Promise<RecordRow[]>;
}

/**
 * The selected rows: the records picked, in the table's order when they were picked, or every
 * row of the list (of `total`) in its order now but those left out. `gone`: picked records no
 * longer in the list. Refused in words beyond COPY_ROWS_MAX.
 */
export async function selectedRows(
  picked: Picked,
  total: number,
  source: CopySource,
): Promise<{ rows: RecordRow[]; gone: number }> {
  const count = picked.kind === 'rows' ? picked.ids.length : total - picked.except.length;
  if (count > COPY_ROWS_MAX) {
    throw new CopyRefused(
      `${count.toLocaleString()} rows are selected; Copy takes at most ${COPY_ROWS_MAX.toLocaleString()}. Nothing was copied: select fewer rows, or export the view to a file.`,
    );
  }
  if (picked.kind === 'rows') {
    const rows = await source.rows(picked.ids);
    return { rows, gone: picked.ids.length - rows.length };
  }
  const except = new Set(picked.except);
  const ids: string[] = [];
  for (let offset = 0; ; offset += LIST_IDS_MAX) {
    const read = await source.ids(offset, LIST_IDS_MAX);
    for (const id of read.ids) if (!except.has(id)) ids.push(id);
    if (ids.length > COPY_ROWS_MAX) {
      throw new CopyRefused(
        `The list grew to more than ${COPY_ROWS_MAX.toLocaleString()} selected rows while they were read; Copy takes at most that. Nothing was copied: select fewer rows, or export the view to a file.`,
      );
    }
    if (offset + LIST_IDS_MAX >= read.total) break;
  }
  return { rows: await source.rows(ids), gone: 0 };
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
  const cellsOf = rowCellsOf(columns, options);
  for (const row of rows) text += delimitedLine(cellsOf(row), '\t');
  return text;
}
