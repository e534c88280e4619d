/**
 * Which records the comment backfill reads next, and how many there are, read a chunk at a time
 * with `pause` between chunks, so the engine's thread answers the window between them even when a
 * walk passes every record of a large module (at a million records 505 chunks of at most 28 ms,
 * where one statement held the thread for 10-15 s: bench/README.md, "The comment backfill's
 * batches"). The batches are the `limit` most recently changed records whose comments need
 * reading, ties by id, newest first, as one statement over the whole module would name them:
 * each list_state is walked apart (`CommentRepository.commentNeedsChunk`, an index range each).
 */
import type { CommentRepository, CommentWalkCursor } from '../store/mirror/commentRepository';

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
  // A record edited (or its edit undone) during a pause moves to the other list_state and can be
  // met by both walks: read once.
  const ids = new Set<string>();
  for (const record of found.sort(newestFirst)) {
    if (ids.size === options.limit) break;
    ids.add(record.id);
  }
  return [...ids];
}

/**
 * How many of a module's records need their comments read (never read, or read at an older
 * version; not the weekly refresh, which the batches find): its commentable records less the
 * portal's comment_sync rows read at their record's current version, those counted a chunk at
 * a time with `pause` between chunks (1.9-2.8 s in one statement at a million records).
 */
export async function countRecordsNeedingComments(
  comments: Pick<CommentRepository, 'commentableRecords' | 'commentsReadChunk'>,
  portalId: string,
  moduleId: string,
  options: { chunk?: number; pause: () => Promise<void> },
): Promise<number> {
  const chunk = options.chunk ?? COMMENT_WALK_CHUNK;
  let current = 0;
  let after: string | null = null;
  for (;;) {
    const read = comments.commentsReadChunk(portalId, moduleId, after, chunk);
    current += read.current;
    after = read.next;
    if (after === null) break;
    await options.pause();
  }
  // Read after the walk: a record stored meanwhile is counted, never one fewer than the batches.
  return Math.max(0, comments.commentableRecords(portalId, moduleId) - current);
}
