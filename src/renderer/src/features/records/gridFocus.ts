/**
 * Where a key moves the records table's one tab stop (the ARIA grid pattern's keyboard model):
 * arrows by one cell, Page Up/Down by a screenful of rows, Home/End to the row's first and last
 * cell, Ctrl/Cmd+Home/End to the first and last record. The header row is row -1: only ArrowUp
 * from the first record (and keys pressed in the header itself) reach it, so paging and
 * Ctrl+Home stay among the records. Pure: the table applies the answer.
 */

/** The header row's place in `GridCell.row`. */
export const HEADER_ROW = -1;

export interface GridCell {
  /** Row position in the whole list (0 = the first record), or HEADER_ROW. */
  row: number;
  /** Column position among the columns shown (0 = the first). */
  col: number;
}

export interface GridShape {
  rows: number;
  cols: number;
  /** Rows Page Up/Down move by (about a screenful). */
  pageRows: number;
  /** Whether the header row is part of the keyboard model. */
  header?: boolean;
}

export interface GridKey {
  key: string;
  /** Ctrl on Windows and Linux, Cmd on macOS. */
  primary: boolean;
}

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

/**
 * The cell the tab stop moves to, or null when the key is not a movement key or there is no cell
 * at all. The answer is always inside the grid, even when `at` no longer is (a shorter list).
 */
export function nextCell(
  at: GridCell,
  { key, primary }: GridKey,
  shape: GridShape,
): GridCell | null {
  const minRow = shape.header ? HEADER_ROW : 0;
  const maxRow = shape.rows - 1;
  if (shape.cols <= 0 || maxRow < minRow) return null;
  const page = Math.max(1, shape.pageRows);
  const row = clamp(at.row, minRow, maxRow);
  const col = clamp(at.col, 0, shape.cols - 1);
  const to = (r: number, c: number): GridCell => ({
    row: clamp(r, minRow, maxRow),
    col: clamp(c, 0, shape.cols - 1),
  });
  switch (key) {
    case 'ArrowDown':
      return to(row + 1, col);
    case 'ArrowUp':
      return to(row - 1, col);
    case 'ArrowRight':
      return to(row, col + 1);
    case 'ArrowLeft':
      return to(row, col - 1);
    case 'PageDown':
      return to(row + page, col);
    case 'PageUp':
      return to(row === HEADER_ROW ? row : Math.max(0, row - page), col);
    case 'Home':
      return primary ? to(0, 0) : to(row, 0);
    case 'End':
      return primary ? to(maxRow, shape.cols - 1) : to(row, shape.cols - 1);
    default:
      return null;
  }
}
