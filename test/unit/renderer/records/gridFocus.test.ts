/**
 * The records table's keyboard model (the ARIA grid pattern), decided by `nextCell`: examples of
 * each key, and properties over any grid and any position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HEADER_ROW,
  nextCell,
  type GridShape,
} from '../../../../src/renderer/src/features/records/gridFocus';

const SHAPE: GridShape = { rows: 100, cols: 5, pageRows: 20 };
const press = (key: string, primary = false) => ({ key, primary });

describe('nextCell', () => {
  it('moves one cell per arrow and stops at the edges', () => {
    const at = { row: 10, col: 2 };
    expect(nextCell(at, press('ArrowDown'), SHAPE)).toEqual({ row: 11, col: 2 });
    expect(nextCell(at, press('ArrowUp'), SHAPE)).toEqual({ row: 9, col: 2 });
    expect(nextCell(at, press('ArrowRight'), SHAPE)).toEqual({ row: 10, col: 3 });
    expect(nextCell(at, press('ArrowLeft'), SHAPE)).toEqual({ row: 10, col: 1 });
    expect(nextCell({ row: 0, col: 0 }, press('ArrowUp'), SHAPE)).toEqual({ row: 0, col: 0 });
    expect(nextCell({ row: 0, col: 0 }, press('ArrowLeft'), SHAPE)).toEqual({ row: 0, col: 0 });
    expect(nextCell({ row: 99, col: 4 }, press('ArrowDown'), SHAPE)).toEqual({ row: 99, col: 4 });
    expect(nextCell({ row: 99, col: 4 }, press('ArrowRight'), SHAPE)).toEqual({ row: 99, col: 4 });
  });

  it('pages by a screenful, Home/End within the row, Ctrl+Home/End to the corners', () => {
    const at = { row: 50, col: 2 };
    expect(nextCell(at, press('PageDown'), SHAPE)).toEqual({ row: 70, col: 2 });
    expect(nextCell(at, press('PageUp'), SHAPE)).toEqual({ row: 30, col: 2 });
    expect(nextCell({ row: 90, col: 2 }, press('PageDown'), SHAPE)).toEqual({ row: 99, col: 2 });
    expect(nextCell({ row: 5, col: 2 }, press('PageUp'), SHAPE)).toEqual({ row: 0, col: 2 });
    expect(nextCell(at, press('Home'), SHAPE)).toEqual({ row: 50, col: 0 });
    expect(nextCell(at, press('End'), SHAPE)).toEqual({ row: 50, col: 4 });
    expect(nextCell(at, press('Home', true), SHAPE)).toEqual({ row: 0, col: 0 });
    expect(nextCell(at, press('End', true), SHAPE)).toEqual({ row: 99, col: 4 });
  });

  it('pages by at least one row when the screen holds almost none', () => {
    expect(nextCell({ row: 3, col: 0 }, press('PageDown'), { ...SHAPE, pageRows: -2 })).toEqual({
      row: 4,
      col: 0,
    });
  });

  it('reaches the header row by ArrowUp from the first record only', () => {
    const withHeader = { ...SHAPE, header: true };
    const header = { row: HEADER_ROW, col: 2 };
    expect(nextCell({ row: 0, col: 2 }, press('ArrowUp'), withHeader)).toEqual(header);
    expect(nextCell(header, press('ArrowUp'), withHeader)).toEqual(header);
    expect(nextCell(header, press('ArrowRight'), withHeader)).toEqual({ row: HEADER_ROW, col: 3 });
    expect(nextCell(header, press('End'), withHeader)).toEqual({ row: HEADER_ROW, col: 4 });
    expect(nextCell(header, press('ArrowDown'), withHeader)).toEqual({ row: 0, col: 2 });
    expect(nextCell(header, press('PageUp'), withHeader)).toEqual(header);
    expect(nextCell({ row: 10, col: 2 }, press('PageUp'), withHeader)).toEqual({ row: 0, col: 2 });
    expect(nextCell(header, press('Home', true), withHeader)).toEqual({ row: 0, col: 0 });
    // Without records the header is the whole grid.
    const empty = { ...withHeader, rows: 0 };
    expect(nextCell(header, press('ArrowDown'), empty)).toEqual(header);
    expect(nextCell(header, press('End', true), empty)).toEqual({ row: HEADER_ROW, col: 4 });
  });

  it('enters the header only by ArrowUp, from the first record or within the header', () => {
    fc.assert(
      fc.property(cases, ({ shape, at, key, primary }) => {
        const from = { row: Math.min(at.row, shape.rows - 1), col: at.col };
        const to = nextCell(from, { key, primary }, { ...shape, header: true })!;
        expect(to.row).toBeGreaterThanOrEqual(HEADER_ROW);
        expect(to.row).toBeLessThan(shape.rows);
        if (to.row === HEADER_ROW) {
          expect(key).toBe('ArrowUp');
          expect(from.row).toBe(0);
        }
        // Without the header, the same keys give the same answers below it.
        if (to.row !== HEADER_ROW) expect(to).toEqual(nextCell(from, { key, primary }, shape));
      }),
    );
  });

  it('leaves other keys and empty grids alone', () => {
    expect(nextCell({ row: 1, col: 1 }, press('Enter'), SHAPE)).toBeNull();
    expect(nextCell({ row: 1, col: 1 }, press('a', true), SHAPE)).toBeNull();
    expect(nextCell({ row: 0, col: 0 }, press('ArrowDown'), { ...SHAPE, rows: 0 })).toBeNull();
    expect(nextCell({ row: 0, col: 0 }, press('ArrowDown'), { ...SHAPE, cols: 0 })).toBeNull();
  });

  const KEYS = [
    'ArrowDown',
    'ArrowUp',
    'ArrowLeft',
    'ArrowRight',
    'PageDown',
    'PageUp',
    'Home',
    'End',
  ];
  const shapes = fc.record({
    rows: fc.integer({ min: 1, max: 2_000_000 }),
    cols: fc.integer({ min: 1, max: 40 }),
    pageRows: fc.integer({ min: -5, max: 100 }),
  });
  const cases = shapes.chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      // Also positions a shorter list or fewer columns left outside.
      at: fc.record({
        row: fc.integer({ min: 0, max: shape.rows + 50 }),
        col: fc.integer({ min: 0, max: shape.cols + 5 }),
      }),
      key: fc.constantFrom(...KEYS),
      primary: fc.boolean(),
    }),
  );

  it('always answers a cell inside the grid for a movement key', () => {
    fc.assert(
      fc.property(cases, ({ shape, at, key, primary }) => {
        const to = nextCell(at, { key, primary }, shape);
        expect(to).not.toBeNull();
        expect(to!.row).toBeGreaterThanOrEqual(0);
        expect(to!.row).toBeLessThan(shape.rows);
        expect(to!.col).toBeGreaterThanOrEqual(0);
        expect(to!.col).toBeLessThan(shape.cols);
      }),
    );
  });

  it('moves rows or columns, never both, except to a corner', () => {
    fc.assert(
      fc.property(cases, ({ shape, at, key, primary }) => {
        const from = {
          row: Math.min(at.row, shape.rows - 1),
          col: Math.min(at.col, shape.cols - 1),
        };
        const to = nextCell(at, { key, primary }, shape)!;
        if (key.startsWith('Page') || key === 'ArrowUp' || key === 'ArrowDown') {
          expect(to.col).toBe(from.col);
        } else if (!primary || key.startsWith('Arrow')) {
          expect(to.row).toBe(from.row);
        } else {
          expect(to).toEqual(
            key === 'Home' ? { row: 0, col: 0 } : { row: shape.rows - 1, col: shape.cols - 1 },
          );
        }
      }),
    );
  });

  it('undoes an arrow with the opposite arrow away from the edges', () => {
    const opposite: Record<string, string> = {
      ArrowDown: 'ArrowUp',
      ArrowUp: 'ArrowDown',
      ArrowLeft: 'ArrowRight',
      ArrowRight: 'ArrowLeft',
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 998 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(...Object.keys(opposite)),
        (row, col, key) => {
          const shape = { rows: 1000, cols: 10, pageRows: 10 };
          const there = nextCell({ row, col }, press(key), shape)!;
          expect(nextCell(there, press(opposite[key]!), shape)).toEqual({ row, col });
        },
      ),
    );
  });
});
