import type { IncomingMessage } from 'node:http';

/**
 * A request body up to `limit` bytes, read with plain stream events (the async iterator costs
 * several promises per chunk on the ingress's hot path). Past the limit the rest is read and thrown
 * away, so the client can finish sending and read our answer, and `tooLarge` is set.
 */
export function readLimitedBody(
  request: IncomingMessage,
  limit: number,
): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(request.headers['content-length'] ?? 0) > limit;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.once('end', () => {
      const text = tooLarge
        ? ''
        : chunks.length === 1
          ? (chunks[0] as Buffer).toString('utf8')
          : Buffer.concat(chunks).toString('utf8');
      resolve({ text, tooLarge });
    });
    request.once('error', reject);
  });
}
