/**
 * Large replies are read one per turn of the event loop.
 *
 * Why: during a sync, replies of 200 records arrive from many endpoint keys at once, and libuv
 * hands every socket that became readable to JavaScript in one poll phase. Reading a page
 * (parseJsonBytes, the records' shapes, mapping them and handing them to the writer thread) is a
 * few milliseconds; a dozen of them back to back held the engine's thread for 100–200 ms, and a
 * records list, a scroll or an edit the renderer asked for waited behind them
 * (`query_p99_ms_during_sync` in bench:scale). Waiting here for a turn lets each reply's
 * reading run in a turn of the loop of its own, with the loop's other work (I/O, timers) between
 * two of them. The work is the same; only its order changes.
 *
 * A turn is a `setImmediate`: one released per check phase, and one scheduled from a check
 * phase's callback runs in the next iteration of the loop, after its timers and its I/O.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  const next = waiting.shift();
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(releaseOne);
  // What `next` resumes (the reply's reading, up to its next await) runs in this callback's
  // microtasks, before the loop moves on.
  next?.();
}

/** Resolves in a later turn of the event loop than any reply that asked before. */
export function replyTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
}

/**
 * Replies at least this big wait for a turn: a page of records (about 1 KB a record). A smaller
 * one (a count, a record, a settings list) is read at once: its reading is short and a caller
 * may be waiting on it.
 */
export const REPLY_TURN_BYTES = 32 * 1024;
