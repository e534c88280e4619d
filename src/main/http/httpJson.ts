/**
 * JSON over Node's HTTP server, for the engine's own servers: the web bridge (bridge/webServer)
 * and the router's ingress and admin API (router/routerIngress, router/routerAdminApi).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sends a JSON answer, never cached; `headers` add to (or replace) the defaults. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/**
 * Reads a request body up to `limit` bytes, with plain stream events (the async iterator costs
 * several promises per chunk, on the router ingress's hot path too). Past the limit the rest is
 * read and thrown away (so the client can finish sending and read our answer) and `tooLarge` is
 * set.
 */
export function readBody(
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
