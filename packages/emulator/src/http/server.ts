import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { foreignHostMessage, isAllowedHostHeader } from '@portaldesk/portal-api/http/loopbackHost';
import { ApiError, apiErrors } from './apiError';
import { authenticate } from './authenticate';
import type { HttpMethod, Router } from './router';
import { missingScope } from './scopes';
import type { ApiReply, ApiRequest, Route } from './types';
import type { EmulatorState } from '../state';

/** Bodies larger than this are refused before parsing (the largest legal body is ~100 KB). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
export const ADMIN_SECRET_HEADER = 'x-emulator-admin';

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw apiErrors.invalidInputStream('the body is larger than 8 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function makeRequest(
  method: HttpMethod,
  url: URL,
  params: Record<string, string>,
  incoming: IncomingMessage,
  rawBody: Buffer,
  dc: string,
): ApiRequest {
  let parsedJson: { value: unknown } | undefined;
  return {
    method,
    path: url.pathname,
    params,
    query: url.searchParams,
    headers: incoming.headers,
    dc,
    origin: `http://${incoming.headers.host ?? ''}`,
    rawBody,
    caller: undefined,
    json() {
      if (!parsedJson) {
        const text = rawBody.toString('utf8');
        try {
          parsedJson = { value: text.trim() === '' ? undefined : JSON.parse(text) };
        } catch {
          throw apiErrors.invalidInputStream('the body is not valid JSON');
        }
      }
      return parsedJson.value;
    },
    form() {
      return new URLSearchParams(rawBody.toString('utf8'));
    },
  };
}

/**
 * Sends `reply`. Raw bytes go out with their Content-Length (a 206 carries just its range, the
 * route sets Content-Range); with `cut` (the `cutBody` fault) only the first half of them follows
 * the headers, and then the connection is destroyed: a download truncated mid-body.
 */
function write(
  response: ServerResponse,
  reply: ApiReply,
  extraHeaders: Record<string, string>,
  cut = false,
) {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...extraHeaders, ...reply.headers };
  if (status === 204) {
    response.writeHead(204, headers).end();
    return;
  }
  if (reply.raw !== undefined) {
    const bytes = typeof reply.raw === 'string' ? Buffer.from(reply.raw) : reply.raw;
    headers['Content-Type'] = reply.contentType ?? 'application/octet-stream';
    headers['Content-Length'] = String(bytes.length);
    response.writeHead(status, headers);
    if (!cut) {
      response.end(bytes);
      return;
    }
    // The destroy waits until the half has been handed to the socket.
    response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => response.destroy());
    return;
  }
  headers['Content-Type'] = 'application/json;charset=UTF-8';
  response.writeHead(status, headers).end(JSON.stringify(reply.body ?? {}));
}

/** The rate limit is "counted per API endpoint": method + route template + portal. */
export function endpointKey(dc: string, route: Route, params: Record<string, string>): string {
  const portal = params.portal_id ? ` portal=${params.portal_id}` : '';
  return `${dc} ${route.method} ${route.template}${portal}`;
}

/**
 * One data center's server. Pipeline: Host (403 FORBIDDEN_HOST) → injected faults → route (URL_RULE_NOT_CONFIGURED /
 * INVALID_METHOD) → credentials (token for API routes, admin secret for /__emulator) → rate limit
 * (API routes) → scopes → handler → the `dropAnswer` fault (the answer lost after the handler ran)
 * or the `cutBody` fault (a raw body cut in half, any other answer lost). Any unexpected error is
 * a 500 INTERNAL_SERVER_ERROR and the server keeps serving.
 */
export function createDcServer(state: EmulatorState, router: Router<Route>, dc: string): Server {
  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const port = incoming.socket.localPort ?? 0;
    if (!isAllowedHostHeader(incoming.headers.host, port, state.config.allowedHosts)) {
      // DNS rebinding: a page under another name reaching us through 127.0.0.1. Refused before
      // anything else; the Host would also become the origin of backup download links.
      incoming.resume();
      const message = foreignHostMessage(port, state.config.allowedHosts);
      const error = new ApiError(403, 'FORBIDDEN_HOST', message);
      write(response, { status: error.status, body: error.body(), headers: error.headers }, {});
      return;
    }
    const method = (incoming.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(incoming.url ?? '/', 'http://emulator.invalid');
    } catch {
      // A request line that is no address (`GET http://[`): answered, never thrown (this server
      // runs inside the app for the demo portal).
      const error = apiErrors.urlRuleNotConfigured(String(incoming.url).slice(0, 200));
      write(response, { status: error.status, body: error.body(), headers: error.headers }, {});
      return;
    }
    let rateHeaders: Record<string, string> = {};
    const fault = state.faults.decide(method, url.pathname);
    try {
      if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault.kind === 'reset') {
        incoming.socket.destroy();
        return;
      }
      if (fault.kind === 'error500') throw apiErrors.internal();
      if (fault.kind === 'error429') {
        throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Injected fault: too many requests.', {
          'Retry-After': '1',
        });
      }

      const { route, params } = router.match(method, url.pathname);
      const rawBody = await readBody(incoming);
      const request = makeRequest(method as HttpMethod, url, params, incoming, rawBody, dc);

      if (route.kind === 'admin') {
        if (incoming.headers[ADMIN_SECRET_HEADER] !== state.config.adminSecret) {
          throw new ApiError(
            403,
            'INVALID_OAUTHTOKEN',
            'The admin surface needs the admin secret.',
          );
        }
      }
      if (route.kind === 'api') {
        request.caller = authenticate(state, incoming.headers.authorization, dc);
        const key = endpointKey(dc, route, params);
        state.stats.count(key);
        const verdict = state.rate.check(key);
        rateHeaders = verdict.headers;
        if (!verdict.allowed) {
          throw new ApiError(
            429,
            'RATE_LIMIT_EXCEEDED',
            `Too many requests to ${route.method} ${route.template}: it is blocked for ${verdict.headers['Retry-After']} s.`,
          );
        }
        const missing = missingScope(request.caller.scopes, route.scopes ?? []);
        if (missing) throw apiErrors.missingScope(missing);
      } else {
        state.stats.count(`${dc} ${route.method} ${route.template}`);
      }

      const reply = await route.handle(request, state);
      if (route.kind === 'api' && method !== 'GET' && (reply.status ?? 200) < 400) {
        state.stats.applied(method, url.pathname);
      }
      // Applied and committed; the answer is lost on the way (a write applied but unacknowledged).
      // `cutBody` loses only the second half of a raw body; an answer without one is dropped.
      const cut = fault.kind === 'cutBody';
      if (
        fault.kind === 'dropAnswer' ||
        (cut && (reply.raw === undefined || reply.status === 204))
      ) {
        incoming.socket.destroy();
        return;
      }
      write(response, reply, rateHeaders, cut);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : apiErrors.internal();
      if (!(error instanceof ApiError)) {
        state.config.log(`emulator: ${method} ${url.pathname} failed: ${String(error)}`);
      }
      if (response.headersSent || fault.kind === 'dropAnswer' || fault.kind === 'cutBody') {
        response.destroy();
        return;
      }
      write(
        response,
        { status: apiError.status, body: apiError.body(), headers: apiError.headers },
        rateHeaders,
      );
    }
  };

  return createServer((incoming, response) => {
    void handle(incoming, response);
  });
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
