/**
 * Waits until a file stream has written what it holds ('drain') or failed ('error'), whichever
 * comes first, and removes the other's listener: a raced pair of `once` left one listener behind
 * per wait (a MaxListenersExceededWarning within 100,000 exported rows). Never rejects: the
 * writers keep the stream's failure themselves and check it after.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

export async function streamDrained(stream: Writable): Promise<void> {
  const settled = new AbortController();
  const { signal } = settled;
  try {
    await Promise.race([once(stream, 'drain', { signal }), once(stream, 'error', { signal })]);
  } catch {
    // The stream failed (its writer holds the error) or the wait was ended: either way, go on.
  } finally {
    settled.abort();
  }
}
