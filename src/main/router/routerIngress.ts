import { BAD_TARGET_MESSAGE, requestTarget } from '../http/requestTarget';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  INGRESS_BLOCK_MS,
  INGRESS_REQUESTS_PER_WINDOW,
  INGRESS_WINDOW_MS,
  MAX_EVENT_BODY_BYTES,
} from '../../shared/ipc/areas/router';
import { decodePathSegment } from '../http/decodePathSegment';
import { readBody, sendJson } from '../http/httpJson';
import { jsonNestingExceeds, MAX_JSON_NESTING } from '../http/jsonNestingExceeds';
import { foreignHostMessage, isAllowedHostHeader } from '@portaldesk/portal-api/http/loopbackHost';
import { RateWindow } from './engine/rateWindow';
import type { RouterEngine } from './engine/routerEngine';

/** The ingress answers on loopback only: the sandbox is for this machine's own tests. */
export const ROUTER_HOST = '127.0.0.1';

const EVENT_PATH = /^\/publishers\/([0-9]{1,19})\/events\/([^/]+)$/;
const CAPTURE_PATH = /^\/capture\/([0-9a-f]{32})$/;

/**
 * The HTTP ingress for custom publishers (issue 8):
 * `POST /publishers/{publisher_id}/events/{event_api_name}` with `X-Api-Key` and the event's data
 * as the JSON body → 202 `{"id"}`; and the live capture URLs `POST /capture/{token}`.
 * Checks in order: publisher (404), key (401), rate limit (429), event name (404), body (400).
 */
export class RouterIngress {
  private server: Server | null = null;
  private starting: Promise<string> | null = null;
  private readonly windows = new Map<string, RateWindow>();

  constructor(
    private readonly engine: RouterEngine,
    private readonly port = 0,
  ) {}

  get url(): string | null {
    return this.engine.ingressUrl;
  }

  /** Listens if not yet listening; returns the ingress's base address. */
  start(): Promise<string> {
    this.starting ??= new Promise<string>((resolve, reject) => {
      const server = createServer((request, response) => {
        this.handle(request, response).catch((error: unknown) => {
          if (!response.headersSent) {
            sendJson(response, 500, {
              error: `The router failed on this request: ${error instanceof Error ? error.message : String(error)}. The event may not have been recorded; send it again.`,
            });
          }
        });
      });
      // Keep-alive connections from publishers should not hold a closing process open for long.
      server.keepAliveTimeout = 5_000;
      server.once('error', (error) => {
        this.starting = null;
        reject(error);
      });
      server.listen(this.port, ROUTER_HOST, () => {
        this.server = server;
        const { port } = server.address() as AddressInfo;
        this.engine.ingressUrl = `http://${ROUTER_HOST}:${port}`;
        resolve(this.engine.ingressUrl);
      });
    });
    return this.starting;
  }

  captureUrl(token: string): string | null {
    return this.url ? `${this.url}/capture/${token}` : null;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.starting = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private windowFor(publisherId: string): RateWindow {
    let window = this.windows.get(publisherId);
    if (!window) {
      window = new RateWindow(INGRESS_REQUESTS_PER_WINDOW, INGRESS_WINDOW_MS, INGRESS_BLOCK_MS);
      this.windows.set(publisherId, window);
    }
    return window;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const port = request.socket.localPort ?? 0;
    if (!isAllowedHostHeader(request.headers.host, port)) {
      // DNS rebinding: a web page reaching the ingress under its own name is refused first.
      request.resume();
      sendJson(response, 403, { error: foreignHostMessage(port) });
      return;
    }
    const path = requestPath(request.url ?? '/');
    if (path === null) {
      request.resume();
      sendJson(response, 400, { error: BAD_TARGET_MESSAGE });
      return;
    }
    const event = EVENT_PATH.exec(path);
    const capture = CAPTURE_PATH.exec(path);
    if (!event && !capture) {
      request.resume();
      sendJson(response, 404, {
        error: `Nothing here. Events go to POST /publishers/{publisher_id}/events/{event_api_name}.`,
      });
      return;
    }
    if (request.method !== 'POST') {
      request.resume();
      sendJson(response, 405, { error: 'Use POST.' }, { allow: 'POST' });
      return;
    }
    if (capture) {
      const body = await this.readJson(request, response);
      if (body === undefined) return;
      const answer = this.engine.capture(capture[1] as string, body.value);
      sendJson(response, answer.status, answer.body);
      return;
    }
    const publisherId = event![1] as string;
    const apiName = decodePathSegment(event![2] as string);
    if (apiName === null) {
      request.resume();
      sendJson(response, 400, {
        error: `The event name in ${path.slice(0, 200)} has a malformed %-escape. Nothing was recorded; encode the event's API name with encodeURIComponent.`,
      });
      return;
    }
    const key = request.headers['x-api-key'];
    const refusal = this.engine.authenticate(publisherId, Array.isArray(key) ? key[0] : key);
    if (refusal) {
      request.resume();
      sendJson(response, refusal.status, { error: refusal.error });
      return;
    }
    const waitMs = this.windowFor(publisherId).take(this.engine.clock.now());
    if (waitMs !== null) {
      request.resume();
      const seconds = Math.max(1, Math.ceil(waitMs / Math.max(this.engine.clock.scale, 1) / 1000));
      sendJson(
        response,
        429,
        {
          error: `Publisher ${publisherId} sent more than ${INGRESS_REQUESTS_PER_WINDOW} requests in a minute; events are refused for 60 seconds. This event was not recorded: send it again after Retry-After.`,
        },
        { 'retry-after': String(seconds) },
      );
      return;
    }
    if (!this.engine.hasEvent(publisherId, apiName)) {
      request.resume();
      sendJson(response, 404, {
        error: `Publisher ${publisherId} has no event named "${apiName}". Nothing was recorded; create the event first or check its API name.`,
      });
      return;
    }
    const body = await this.readJson(request, response);
    if (body === undefined) return;
    if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
      sendJson(response, 400, {
        error: 'The body must be a JSON object: the event\'s "data". Nothing was recorded.',
      });
      return;
    }
    const id = this.engine.publish(publisherId, apiName, body.value);
    try {
      // 202 promises the event is stored: answer only once its group commit is done.
      await this.engine.stored();
    } catch (error) {
      sendJson(response, 500, {
        error: `The router could not store this event (${error instanceof Error ? error.message : String(error)}). Nothing was recorded; send it again, and check the disk if it keeps failing.`,
      });
      return;
    }
    sendJson(response, 202, { id });
  }

  /** The parsed JSON body, or undefined after answering 400. */
  private async readJson(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<{ value: unknown } | undefined> {
    const { text, tooLarge } = await readBody(request, MAX_EVENT_BODY_BYTES);
    if (tooLarge) {
      sendJson(response, 400, {
        error: `The body is over ${MAX_EVENT_BODY_BYTES / 1024} KB, the most an event may carry. Nothing was recorded; send less data.`,
      });
      return undefined;
    }
    if (jsonNestingExceeds(text)) {
      sendJson(response, 400, {
        error: `The body nests deeper than ${MAX_JSON_NESTING} levels. Nothing was recorded; send flatter data.`,
      });
      return undefined;
    }
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      sendJson(response, 400, {
        error:
          "The body is not valid JSON. Nothing was recorded; send the event's data as a JSON object.",
      });
      return undefined;
    }
  }
}

/**
 * The request's path without query or fragment; dot segments resolved as a URL would. Null when
 * the target is no address at all.
 */
function requestPath(target: string): string | null {
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  return !path.startsWith('/') || path.includes('/.') || path.includes('\\')
    ? (requestTarget(path, 'http://ingress')?.pathname ?? null)
    : path;
}
