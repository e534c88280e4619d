import { Pool } from 'undici';
import type { TargetRequest } from './buildTargetRequest';
import type { TargetAnswer } from './targetAnswer';

/**
 * The same webhook call as `callWebhook`, through undici's `Pool` (keep-alive, optional
 * pipelining), kept so `bench:router` can measure the two side by side
 * (`PORTALDESK_WEBHOOK_CLIENT=undici`; `PORTALDESK_WEBHOOK_PIPELINING=N`). The figures and the
 * choice are in bench/README.md.
 */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'host']);

export interface UndiciCallOptions {
  socketsPerOrigin: number;
  idleMs: number;
  maxBodyBytes: number;
  pipelining: number;
}

export function makeUndiciCaller(
  options: UndiciCallOptions,
): (request: TargetRequest, timeoutMs: number) => Promise<TargetAnswer> {
  const pools = new Map<string, Pool>();
  const poolOf = (origin: string): Pool => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: options.socketsPerOrigin,
        pipelining: options.pipelining,
        keepAliveTimeout: options.idleMs,
      });
      pools.set(origin, pool);
    }
    return pool;
  };

  return async (request, timeoutMs) => {
    let url: URL;
    try {
      url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`${url.protocol} URLs cannot be called; use http or https`);
      }
      if (url.username !== '' || url.password !== '') {
        // As our own client (webhookRequestBytes): never sent without them, never silently.
        throw new Error(
          'a URL with a user name or password is not called; move them into an Authorization header',
        );
      }
    } catch (error) {
      return { response: null, error: `The request was not sent: ${(error as Error).message}.` };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!FRAMING_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    try {
      const answer = await poolOf(url.origin).request({
        method: request.method as 'POST',
        path: `${url.pathname}${url.search}`,
        headers,
        body: request.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        if (size >= options.maxBodyBytes) continue;
        const kept = chunk.subarray(0, options.maxBodyBytes - size);
        chunks.push(kept);
        size += kept.length;
      }
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        response: {
          status: answer.statusCode,
          headers: flat,
          body: Buffer.concat(chunks).toString('utf8'),
        },
        error: null,
      };
    } catch (error) {
      return { response: null, error: `The call failed (${(error as Error).message}).` };
    }
  };
}
