/**
 * The rows of a worksheet part (xl/worksheets/sheetN.xml) as its XML holds them, read streamed:
 * each cell's column, type (`t`), style (`s`), formula (`<f>`) and value (`<v>`, or the text of
 * an inline string `<is>`), nothing interpreted yet (sheetCellValue.ts does that). Read here
 * rather than by exceljs's WorksheetReader, which drops what says what a cell holds: a formula's
 * result type (an error result became NaN), whether a formula has a result at all, the number
 * format of a formula's result (a date came back as 46086), and every run of an inline rich text
 * but the last.
 */
import { IMPORT_ROW_MAX_CHARS } from '../../../shared/ipc/areas/recordsImport';
import { StringItemText } from './stringItemText';
import { xmlEvents } from './xmlEvents';

export interface SheetXmlCell {
  /** 1-based. */
  column: number;
  /** `t`: n (number, the default), s (shared string), str (a formula's text), inlineStr, b, e, d. */
  type: string;
  /** `s`: the cell's format (an index into the styles' cellXfs); 0 when absent. */
  style: number;
  /** `<f>`'s text ('' for a cell sharing another's formula); null when it has none. */
  formula: string | null;
  /** `<v>`'s text, or an inline string's; null when the cell has neither. */
  value: string | null;
}

interface SheetXmlRow {
  /** 1-based, as the sheet numbers it. */
  number: number;
  cells: SheetXmlCell[];
}

/** A sheet has 16,384 columns (XFD) and 1,048,576 rows (Excel's specifications and limits). */
const SHEET_MAX_COLUMNS = 16_384;
const SHEET_MAX_ROWS = 1_048_576;
/**
 * Ours: the most characters one cell's value or formula may hold while it is read. Excel keeps
 * 32,767 in a cell; a cell of gigabytes (a small zip unpacks to it) would be held whole.
 */
export const SHEET_CELL_MAX_CHARS = 1024 * 1024;

/** Why a row is refused: it holds more than a row of records could (xlsxRows.ts says it too). */
export function rowTooLong(row: number): string {
  return `its sheet's row ${row} holds more than ${IMPORT_ROW_MAX_CHARS.toLocaleString('en-US')} characters, far more than a record's fields hold`;
}

/** A cell reference's column ("BC12" → 55); null when it names none. */
function columnOf(ref: string): number | null {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) column = column * 26 + (c - 64);
    else if (c >= 97 && c <= 122) column = column * 26 + (c - 96);
    else break;
  }
  return i === 0 ? null : column;
}

export async function* sheetXmlRows(text: AsyncIterable<string>): AsyncGenerator<SheetXmlRow> {
  const done: SheetXmlRow[] = [];
  let row: SheetXmlRow | null = null;
  let lastRow = 0;
  let cell: SheetXmlCell | null = null;
  // The element whose text is being read: <f>, <v>, or an inline string.
  let reading: 'f' | 'v' | 'is' | null = null;
  let parts: string[] = [];
  /** Characters of the value or formula being read, and of the row's cells read so far. */
  let held = 0;
  let rowHeld = 0;
  const inline = new StringItemText();

  const events = xmlEvents(text, {
    open(name, attributes) {
      if (reading === 'is') {
        inline.open(name);
        return;
      }
      if (name === 'row') {
        const number = attributes.r === undefined ? lastRow + 1 : Number(attributes.r);
        if (!Number.isInteger(number) || number <= lastRow || number > SHEET_MAX_ROWS) {
          throw new Error(`its sheet has a row numbered "${attributes.r}" after row ${lastRow}`);
        }
        row = { number, cells: [] };
        rowHeld = 0;
        lastRow = number;
      } else if (name === 'c' && row !== null) {
        const previous = row.cells.at(-1)?.column ?? 0;
        const column = attributes.r === undefined ? previous + 1 : columnOf(attributes.r);
        if (column === null || column > SHEET_MAX_COLUMNS) {
          throw new Error(`its sheet has a cell at "${attributes.r}", not a column of a sheet`);
        }
        // Cells of a row come in column order, each once: a later one would replace an earlier.
        if (column <= previous) {
          throw new Error(
            `its sheet's row ${row.number} has a cell at "${attributes.r ?? ''}" after column ${previous}`,
          );
        }
        cell = {
          column,
          type: attributes.t ?? 'n',
          style: attributes.s === undefined ? 0 : Number(attributes.s),
          formula: null,
          value: null,
        };
      } else if (cell !== null && (name === 'f' || name === 'v' || name === 'is')) {
        reading = name;
        parts = [];
        held = 0;
      }
    },
    close(name) {
      if (reading === 'is' && name !== 'is') {
        inline.close(name);
        return;
      }
      if (cell !== null && name === reading) {
        const read = name === 'is' ? inline.take() : parts.join('');
        if (name === 'f') cell.formula = read;
        else cell.value = read;
        reading = null;
      } else if (name === 'c' && cell !== null) {
        row?.cells.push(cell);
        cell = null;
      } else if (name === 'row' && row !== null) {
        done.push(row);
        row = null;
      }
    },
    text(t) {
      if (reading === null) return;
      held += t.length;
      if (held > SHEET_CELL_MAX_CHARS) {
        throw new Error(
          `its sheet's row ${row?.number ?? lastRow} has a cell of more than ${SHEET_CELL_MAX_CHARS.toLocaleString('en-US')} characters`,
        );
      }
      // Each cell within its limit, thousands of them would still be held whole until the row ends.
      rowHeld += t.length;
      if (rowHeld > IMPORT_ROW_MAX_CHARS) throw new Error(rowTooLong(row?.number ?? lastRow));
      if (reading === 'is') inline.add(t);
      else parts.push(t);
    },
  });
  for await (const _ of events) {
    void _;
    yield* done;
    done.length = 0;
  }
}
