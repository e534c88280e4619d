/**
 * Which records the comment backfill reads next: the `limit` most recently changed records of a
 * module whose comments need reading, ties by id, newest first, as one statement over the whole
 * module would name them. The module is walked a chunk at a time per list_state
 * (`CommentRepository.commentNeedsChunk`, an index range each) with `pause` between chunks, so
 * the engine's thread answers the window between them even when the walk passes every record
 * of a large module to find none (at a million records 501 chunks of 17-23 ms, 8.6 s in all,
 * where one statement held the thread for 10-15 s: bench/README.md, "The comment backfill's
 * batches").
 */
import type { CommentWalkCursor } from '../store/mirror/commentRepository';

/** Records read per chunk: about 17 ms of the engine's thread at a million records. */
export const COMMENT_WALK_CHUNK = 2000;

/** The smallest first chunk of a walk (twice the batch when that is more). */
const FIRST_CHUNK_MIN = 64;

/** One chunk of one list_state's walk (CommentRepository.commentNeedsChunk, bound to a module). */
export type CommentNeedsChunk = (
  listState: 0 | 1,
  after: CommentWalkCursor | null,
  chunk: number,
) => { needing: CommentWalkCursor[]; next: CommentWalkCursor | null };

/** Newest first, ties by id descending (SQLite's order of the text ids). */
function newestFirst(a: CommentWalkCursor, b: CommentWalkCursor): number {
  if (a.updated !== b.updated) return b.updated - a.updated;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The first `limit` records needing their comments read, leaving out `skip` (records whose
 * reading failed in this backfill). Each list_state is walked until it has given `limit` of them
 * or ended; the two are then merged in order.
 */
export async function recordsNeedingComments(
  read: CommentNeedsChunk,
  options: {
    limit: number;
    skip?: ReadonlySet<string>;
    chunk?: number;
    pause: () => Promise<void>;
  },
): Promise<string[]> {
  const chunk = options.chunk ?? COMMENT_WALK_CHUNK;
  const found: CommentWalkCursor[] = [];
  for (const listState of [0, 1] as const) {
    let after: CommentWalkCursor | null = null;
    let taken = 0;
    // Small first: the batch is usually among the newest records (a first backfill, records just
    // changed, the weekly refresh); doubling up to `chunk` when it is not.
    let size = Math.min(chunk, Math.max(FIRST_CHUNK_MIN, 2 * options.limit));
    do {
      const next = read(listState, after, size);
      size = Math.min(chunk, size * 2);
      for (const record of next.needing) {
        if (taken === options.limit) break;
        if (options.skip?.has(record.id)) continue;
        found.push(record);
        taken += 1;
      }
      after = next.next;
      if (after !== null && taken < options.limit) await options.pause();
    } while (after !== null && taken < options.limit);
  }
  return found
    .sort(newestFirst)
    .slice(0, options.limit)
    .map((record) => record.id);
}
