/** A file's SHA-256 and size, read as a stream (a backup can be larger than memory). */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** `signal` stops the reading between two chunks; it then throws the signal's reason. */
export async function fileDigest(
  file: string,
  signal?: AbortSignal,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    signal?.throwIfAborted();
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
