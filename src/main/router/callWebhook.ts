import http from 'node:http';
import https from 'node:https';
import type { TargetRequest } from './buildTargetRequest';

/** What a target answered, as recorded on the attempt; response bodies are cut at 64 KB. */
export interface TargetAnswer {
  response: { status: number; headers: Record<string, string>; body: string | null } | null;
  error: string | null;
}

export const MAX_RECORDED_RESPONSE_CHARS = 64 * 1024;
/** Connections kept open per target origin; node:http rather than fetch, which costs far more per call. */
const SOCKETS_PER_ORIGIN = 64;

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_ORIGIN }),
};

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** One webhook call; the target's timeout is real time (it bounds a network wait). */
export function callWebhook(request: TargetRequest, timeoutMs: number): Promise<TargetAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: TargetAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const url = new URL(request.url);
    const protocol = url.protocol === 'https:' ? https : http;
    const body = request.body === null ? null : Buffer.from(request.body);
    const outgoing = protocol.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RECORDED_RESPONSE_CHARS) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          finish({
            response: {
              status: response.statusCode ?? 0,
              headers: flatHeaders(response.headers),
              body:
                text.length > MAX_RECORDED_RESPONSE_CHARS
                  ? text.slice(0, MAX_RECORDED_RESPONSE_CHARS)
                  : text,
            },
            error: null,
          });
        });
        response.on('error', (error) =>
          finish({ response: null, error: `The answer broke off (${error.message}).` }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({
        response: null,
        error: `No answer within the target's timeout of ${timeoutMs} ms.`,
      });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error) =>
      finish({ response: null, error: `Could not reach the target (${error.message}).` }),
    );
    outgoing.end(body ?? undefined);
  });
}
