/**
 * A record's values as cells of a file or a paste: what the table shows as plain text (the same
 * `describeValue` the table renders), or the API's own values ("raw"). The records export (CSV,
 * XLSX) and the table's Copy use it, so a file, a paste and the screen agree. Pure.
 */
import { defuseFormula } from '../csv/csvField';
import type { RecordRow } from '../ipc/areas/records';
import { describeValue, fieldGetter, type ValueContext, type ValueView } from './describeValue';

/** A cell: text, or in raw values a number or a yes/no the spreadsheet keeps as one. */
export type CellValue = string | number | boolean;

/** `shown`: as the table shows them; `raw`: the API's values (objects as their JSON). */
export type CellValues = 'shown' | 'raw';

export interface CellOptions {
  values: CellValues;
  context: ValueContext;
  /**
   * Text a spreadsheet would run as a formula gets its leading apostrophe (CSV and pastes; an
   * XLSX cell is typed as text, so it is never run). Values made from numbers are left alone: a
   * negative amount is not a formula.
   */
  defuse: boolean;
}

/** The text of a view, as a cell holds it: a check box as Yes/No (its accessible name), items joined. */
export function viewText(view: ValueView): string {
  switch (view.kind) {
    case 'empty':
      return '';
    case 'check':
      return view.checked ? 'Yes' : 'No';
    case 'chips':
      return view.items.join(', ');
    default:
      return view.text;
  }
}

/** A code Intl writes itself, beside the amount (describeValue's formatCurrency). */
const ISO_CURRENCY_CODE = /^[A-Z]{3}$/;

/** Whether `value` of a field of `type` is shown as text Intl made from a number alone (an amount, a count, a share). */
function shownFromNumber(type: string, value: unknown): boolean {
  switch (type) {
    case 'number':
    case 'decimal':
    case 'percentage':
      return typeof value === 'number';
    case 'currency': {
      if (typeof value === 'number') return true;
      if (typeof value !== 'object' || value === null) return false;
      const { amount, currency_code: code } = value as Record<string, unknown>;
      // A code that is not ISO 4217's three letters is shown as the service keeps it, before the
      // amount (describeValue): text anyone can write, "=1+2+0*" as well as "usd".
      return (
        typeof amount === 'number' &&
        (typeof code !== 'string' || code.trim() === '' || ISO_CURRENCY_CODE.test(code))
      );
    }
    default:
      return false;
  }
}

/** The API's value as a cell: text, numbers and yes/no as they are, anything else as JSON. */
function rawCell(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  return JSON.stringify(value);
}

/**
 * A row's value in the API's own shape, for raw cells: the row names the status's closed flag
 * as the renderer does (`isClosedType`), the API `is_closed_type` (spec: status
 * `{id,name,color,is_closed_type}`). Every other value the row holds as the API shows it.
 */
function apiValue(key: string, value: unknown): unknown {
  if (key !== 'status' || typeof value !== 'object' || value === null) return value;
  const { id, name, color, isClosedType } = value as NonNullable<RecordRow['status']>;
  return { id, name, color, is_closed_type: isClosedType };
}

/** The cell of a value of a field of `type` (an import compares a file's cells with it). */
export function valueCell(type: string, value: unknown, options: CellOptions): CellValue {
  const cell =
    options.values === 'raw'
      ? rawCell(value)
      : viewText(describeValue(type, value, options.context));
  if (!options.defuse || typeof cell !== 'string') return cell;
  return options.values === 'shown' && shownFromNumber(type, value) ? cell : defuseFormula(cell);
}

/**
 * Cells remembered a column, for one `rowCellsOf`: a batch's rows repeat a few statuses, owners,
 * options and yes/no far more than they differ, and making a cell (`describeValue`, Intl) costs
 * about as much as reading its row (bench/README.md, "Cells remembered within a batch"). Ours:
 * enough for a batch's distinct values of such a column; a column of values that never repeat
 * (amounts, times) stops adding at this size and just makes its cells.
 */
const CELL_MEMO_SIZE = 256;

/**
 * The value a cell is remembered by, or undefined when it is not: text, yes/no and numbers by
 * their value (not 0, which would meet -0: Map keys are SameValueZero and Intl writes "-0"), an
 * object by itself (a row source shares one object among the rows holding it: columnRows.ts).
 */
function memoKey(value: unknown): unknown {
  if (value === 0) return undefined;
  return value;
}

/**
 * How a row's cells for `columns` are made, in their order: each column's reading and values
 * found once, for many rows (an export's batches; bench/README.md, "Rows read for their
 * columns"). A cell is a pure function of its column and value, so a value met again (the same
 * text, number, yes/no or the very same object) gets the cell made the first time. The rows'
 * values must not change while the returned function is in use.
 */
export function rowCellsOf(
  columns: readonly { key: string; type: string }[],
  options: CellOptions,
): (row: RecordRow) => CellValue[] {
  const raw = options.values === 'raw';
  const cells = columns.map(({ key, type }) => {
    const get = fieldGetter(key);
    const make = raw
      ? (value: unknown) => valueCell(type, apiValue(key, value), options)
      : (value: unknown) => valueCell(type, value, options);
    const memo = new Map<unknown, CellValue>();
    return (row: RecordRow): CellValue => {
      const value = get(row);
      const key = memoKey(value);
      if (key === undefined) return make(value);
      let cell = memo.get(key);
      if (cell === undefined) {
        cell = make(value);
        if (memo.size < CELL_MEMO_SIZE) memo.set(key, cell);
      }
      return cell;
    };
  });
  return (row) => {
    const out: CellValue[] = new Array<CellValue>(cells.length);
    for (let i = 0; i < cells.length; i++) out[i] = cells[i]!(row);
    return out;
  };
}

/** A row's cells for `columns`, in their order. */
export function rowCells(
  columns: readonly { key: string; type: string }[],
  row: RecordRow,
  options: CellOptions,
): CellValue[] {
  return rowCellsOf(columns, options)(row);
}
