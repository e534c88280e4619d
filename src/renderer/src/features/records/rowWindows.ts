/**
 * The rows of one list (module + filter + sort) the renderer holds: blocks of BLOCK_ROWS rows
 * fetched from the main process as the table scrolls, at most MAX_BLOCKS of them (the blocks
 * farthest from what is on screen are dropped), so a million records never live in the renderer.
 * Which block to fetch next is decided here; fetching is the store's job. Pure.
 */
import type { RecordRow } from '../../../../shared/ipc/areas/records';

/** Rows per request: a few screens, cheap at any offset (the mirror's windows go to 1000). */
export const BLOCK_ROWS = 100;
/** Blocks kept: 6,000 rows, enough to scroll back and forth without refetching. */
export const MAX_BLOCKS = 60;
/** Requests in flight at once: a fast scroll asks only for where it stopped, not every block passed. */
export const MAX_IN_FLIGHT = 3;

export class RowWindows {
  private readonly blocks = new Map<number, RecordRow[]>();
  private readonly inFlight = new Set<number>();

  row(index: number): RecordRow | undefined {
    return this.blocks.get(Math.floor(index / BLOCK_ROWS))?.[index % BLOCK_ROWS];
  }

  /** Where the row of record `id` is among the rows held, or undefined. */
  placeOf(id: string): number | undefined {
    for (const [block, rows] of this.blocks) {
      const at = rows.findIndex((row) => row.id === id);
      if (at >= 0) return block * BLOCK_ROWS + at;
    }
    return undefined;
  }

  has(block: number): boolean {
    return this.blocks.has(block);
  }

  get size(): number {
    return this.blocks.size;
  }

  /**
   * The next block to fetch for rows first..last on screen (plus one block either side), nearest
   * to the middle of the screen first, then the block of `keepRow` (the focused row, which the
   * table keeps rendered wherever the screen is); undefined when all are here or enough are in
   * flight.
   */
  nextToFetch(first: number, last: number, total: number, keepRow?: number): number | undefined {
    if (this.inFlight.size >= MAX_IN_FLIGHT || total === 0) return undefined;
    const lastBlock = Math.floor((total - 1) / BLOCK_ROWS);
    const from = Math.max(0, Math.floor(first / BLOCK_ROWS) - 1);
    const to = Math.min(lastBlock, Math.floor(last / BLOCK_ROWS) + 1);
    const middle = Math.floor((first + last) / 2 / BLOCK_ROWS);
    const wanted: number[] = [];
    for (let block = from; block <= to; block += 1) {
      if (!this.blocks.has(block) && !this.inFlight.has(block)) wanted.push(block);
    }
    wanted.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle));
    if (wanted.length === 0 && keepRow !== undefined && keepRow < total) {
      const kept = Math.floor(keepRow / BLOCK_ROWS);
      if (!this.blocks.has(kept) && !this.inFlight.has(kept)) return kept;
    }
    return wanted[0];
  }

  started(block: number): void {
    this.inFlight.add(block);
  }

  /**
   * A fetch ended (rows undefined: it failed, so the block may be asked for again). Past
   * MAX_BLOCKS, the blocks farthest from `screenRow` go, never the one holding `keepRow` (the
   * focused row: dropped, it showed as "Loading" under the focus, and Enter opened nothing).
   */
  finished(
    block: number,
    rows: RecordRow[] | undefined,
    screenRow: number,
    keepRow?: number,
  ): void {
    this.inFlight.delete(block);
    if (!rows) return;
    this.blocks.set(block, rows);
    if (this.blocks.size <= MAX_BLOCKS) return;
    const screen = Math.floor(screenRow / BLOCK_ROWS);
    const kept = keepRow === undefined ? undefined : Math.floor(keepRow / BLOCK_ROWS);
    const farthest = [...this.blocks.keys()]
      .filter((b) => b !== kept)
      .sort((a, b) => Math.abs(b - screen) - Math.abs(a - screen));
    for (const drop of farthest.slice(0, this.blocks.size - MAX_BLOCKS)) this.blocks.delete(drop);
  }
}
