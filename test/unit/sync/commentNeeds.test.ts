/**
 * The comment backfill's walk pauses between chunks, so the engine's thread answers the window
 * while it passes every record of a large module (the statement before held it 10-15 s at a
 * million records). Its answers are held to that statement by
 * test/unit/store/mirror/recordsNeedingComments.property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  recordsNeedingComments,
  type CommentNeedsChunk,
} from '../../../src/main/sync/commentNeeds';

/** A module of `records` per list_state, none needing comments but those in `needing`. */
function module(
  records: number,
  needing: ReadonlySet<number> = new Set(),
): {
  read: CommentNeedsChunk;
  reads: number[];
} {
  const reads: number[] = [];
  const read: CommentNeedsChunk = (listState, after, chunk) => {
    reads.push(listState);
    const from = after === null ? records : after.updated;
    const places = Array.from({ length: Math.min(chunk, from) }, (_, i) => from - 1 - i);
    const at = (place: number) => ({ updated: place, id: `${listState}-${place}` });
    return {
      needing: places.filter((place) => needing.has(place)).map(at),
      next: places.length < chunk ? null : at(places.at(-1) as number),
    };
  };
  return { read, reads };
}

describe('the comment backfill walk', () => {
  it('pauses between every two chunks of a module with nothing to read', async () => {
    const { read, reads } = module(10_000);
    const events: string[] = [];
    const sizes: number[] = [];
    const ids = await recordsNeedingComments(
      (listState, after, chunk) => {
        events.push('read');
        sizes.push(chunk);
        return read(listState, after, chunk);
      },
      {
        limit: 50,
        chunk: 1000,
        pause: () => {
          events.push('pause');
          return Promise.resolve();
        },
      },
    );
    expect(ids).toEqual([]);
    // Small first (twice the batch), doubling to the chunk's size.
    expect(sizes.slice(0, 5)).toEqual([100, 200, 400, 800, 1000]);
    expect(Math.max(...sizes)).toBe(1000);
    expect(reads.filter((state) => state === 0)).toHaveLength(13);
    // No two reads without a pause between them, but for the switch to the other list_state.
    const reading = events.join(' ');
    expect(reading.match(/read read/g) ?? []).toHaveLength(1);
  });

  it('stops walking once it has the batch', async () => {
    const { read, reads } = module(10_000, new Set([9_990, 9_980, 5_000]));
    const ids = await recordsNeedingComments(read, {
      limit: 2,
      chunk: 1000,
      pause: () => Promise.resolve(),
    });
    expect(ids).toEqual(['1-9990', '0-9990']);
    expect(reads).toEqual([0, 1]);
  });

  it('names a record met by both walks once (edited during a pause)', async () => {
    const moved = { updated: 10, id: '7' };
    const ids = await recordsNeedingComments(
      (listState) => ({
        needing: listState === 0 ? [moved, { updated: 5, id: '3' }] : [moved],
        next: null,
      }),
      { limit: 50, pause: () => Promise.resolve() },
    );
    expect(ids).toEqual(['7', '3']);
  });
});
