import { BAD_TARGET_MESSAGE, requestTarget } from '../http/requestTarget';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CallOutcome } from '../../shared/ipc/contract';
import { contentSecurityPolicy } from '../csp';
import {
  BACKUP_FILE_PATH_PREFIX,
  CALL_PATH_PREFIX,
  EXPORT_FILE_PATH_PREFIX,
  EVENTS_PATH,
  EVENTS_PROTOCOL,
  SECRET_FRAGMENT_KEY,
  secretFromProtocols,
  type PushedEventMessage,
} from '../../shared/ipc/webProtocol';
import { decodePathSegment } from '../http/decodePathSegment';
import { readBody, sendJson } from '../http/httpJson';
import { jsonNestingExceeds, MAX_JSON_NESTING } from '../http/jsonNestingExceeds';
import type { ContractDispatcher } from './dispatcher';
import type { EventHub } from './eventHub';
import { replaceCspMeta } from './replaceCspMeta';
import { loadStaticAsset, securityHeaders } from './staticAssets';
import { bearerToken, isAllowedOrigin, secretMatches } from './webGuards';
import { foreignHostMessage, isAllowedHostHeader } from '@portaldesk/portal-api/http/loopbackHost';

/** Web mode is bound to loopback only; the engine is never reachable from another machine. */
export const WEB_HOST = '127.0.0.1';
/** Call arguments are small JSON values; anything larger is refused before it is parsed. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Ours: the events socket carries nothing from the browser, so a larger message is refused. */
const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;
/**
 * Ours: how often each events socket is pinged; one that has not answered the previous ping is
 * closed. A peer that vanished without closing (a laptop gone to sleep, a dropped tunnel) kept
 * its socket open for good, and every pushed event was held for it in memory.
 */
const SOCKET_HEARTBEAT_MS = 30_000;

export interface WebServerOptions {
  dispatcher: ContractDispatcher;
  events: EventHub;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Fixed only in tests; otherwise 32 random bytes per launch. */
  secret?: string;
  /**
   * The file a backup download link's token opens (`GET /api/backups/file/<token>`), or null;
   * without it no file is served.
   */
  files?: (token: string) => { file: string; fileName: string } | null;
  /**
   * The finished records export a link's token opens (`GET /api/exports/file/<token>`), or null;
   * without it no export is served.
   */
  exportFiles?: (token: string) => { file: string; fileName: string; contentType: string } | null;
  /** Where a refused event socket is reported; default: the console. */
  log?: { warn(message: string): void };
  /** Tests only: the events sockets' ping interval (default SOCKET_HEARTBEAT_MS). */
  socketHeartbeatMs?: number;
}

export interface WebServer {
  port: number;
  secret: string;
  /** The address to open: carries the secret in the fragment, which browsers never send. */
  url: string;
  close(): Promise<void>;
}

/** Every answer of the bridge is JSON the browser must not sniff as anything else. */
function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, body, { 'X-Content-Type-Options': 'nosniff', ...headers });
}

function refuse(response: ServerResponse, status: number, message: string): void {
  send(response, status, { ok: false, error: { code: 'forbidden_sender', message } });
}

const STATUS_FOR_OUTCOME: Record<string, number> = {
  unknown_request: 404,
  invalid_argument: 400,
  forbidden_sender: 403,
  failed: 422,
};

function statusFor(outcome: CallOutcome<unknown>): number {
  return outcome.ok ? 200 : (STATUS_FOR_OUTCOME[outcome.error.code] ?? 500);
}

/**
 * Serves the built renderer and carries the contract over HTTP (calls) and a WebSocket (pushed
 * events) on 127.0.0.1. Every request must name our host; calls and the event socket also need
 * our Origin (when a browser sends one) and the per-launch secret.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const { dispatcher, events, staticDir, log = console } = options;
  const secret = options.secret ?? randomBytes(32).toString('hex');
  let port = options.port;

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_SOCKET_MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has(EVENTS_PROTOCOL) ? EVENTS_PROTOCOL : false),
  });

  // Sockets that answered (pong) since the last ping; the others are gone and are closed.
  const answered = new WeakSet<WebSocket>();
  const heartbeatMs = options.socketHeartbeatMs ?? SOCKET_HEARTBEAT_MS;
  const heartbeat = setInterval(() => {
    for (const client of sockets.clients) {
      if (!answered.has(client)) {
        log.warn(
          `Closed an events socket that did not answer for ${heartbeatMs} ms. A browser tab still open reconnects; nothing else was affected.`,
        );
        client.terminate();
        continue;
      }
      answered.delete(client);
      client.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  const unsubscribe = events.subscribe((event, payload) => {
    const message: PushedEventMessage = { event, payload };
    const text = JSON.stringify(message);
    for (const client of sockets.clients) {
      if (client.readyState === client.OPEN) client.send(text);
    }
  });

  async function handleCall(
    request: IncomingMessage,
    response: ServerResponse,
    name: string,
  ): Promise<void> {
    if (request.method !== 'POST') {
      send(
        response,
        405,
        { ok: false, error: { code: 'failed', message: 'Use POST.' } },
        {
          Allow: 'POST',
        },
      );
      return;
    }
    if (!isAllowedOrigin(request.headers.origin, port)) {
      refuse(response, 403, `Origin ${request.headers.origin ?? ''} may not call PortalDesk.`);
      return;
    }
    if (!secretMatches(bearerToken(request.headers.authorization), secret)) {
      refuse(
        response,
        401,
        'This call lacks the secret of this PortalDesk launch. Open the address printed by `npm run web`.',
      );
      return;
    }
    const { text: body, tooLarge } = await readBody(request, MAX_BODY_BYTES);
    if (tooLarge) {
      send(response, 413, {
        ok: false,
        error: { code: 'invalid_argument', message: 'The argument is larger than 1 MiB.' },
      });
      return;
    }
    if (jsonNestingExceeds(body)) {
      send(response, 400, {
        ok: false,
        error: {
          code: 'invalid_argument',
          message: `The argument nests deeper than ${MAX_JSON_NESTING} levels; nothing was called.`,
        },
      });
      return;
    }
    let args: unknown;
    try {
      args = body.trim() === '' ? undefined : JSON.parse(body);
    } catch {
      send(response, 400, {
        ok: false,
        error: { code: 'invalid_argument', message: 'The argument is not valid JSON.' },
      });
      return;
    }
    const decoded = decodePathSegment(name);
    if (decoded === null) {
      send(response, 400, {
        ok: false,
        error: {
          code: 'invalid_argument',
          message: `The request name in ${CALL_PATH_PREFIX}${name.slice(0, 100)} has a malformed %-escape; nothing was called. Encode the name with encodeURIComponent.`,
        },
      });
      return;
    }
    const outcome = await dispatcher.dispatch(decoded, args, {
      transport: 'web',
      trusted: true,
      description: `web client ${request.socket.remoteAddress ?? ''}`,
    });
    send(response, statusFor(outcome), outcome);
  }

  async function handleStatic(request: IncomingMessage, response: ServerResponse, path: string) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const asset = await loadStaticAsset(staticDir, path);
    if (asset === null) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const csp = contentSecurityPolicy({
      mode: 'web',
      socketOrigin: `ws://${request.headers.host ?? ''}`,
    });
    const body = asset.contentType.startsWith('text/html')
      ? Buffer.from(replaceCspMeta(asset.body.toString('utf8'), csp))
      : asset.body;
    response.writeHead(200, { 'Content-Type': asset.contentType, ...securityHeaders(csp) });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /**
   * A backup's or an export's file by its link's token: streamed, never read whole. `lookUp` runs
   * in here, so a resolver that throws fails this request (500), not the process.
   */
  async function handleFile(
    request: IncomingMessage,
    response: ServerResponse,
    lookUp: () => { file: string; fileName: string; contentType?: string } | null,
    gone: string,
  ) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const found = lookUp();
    let size: number | null = null;
    if (found)
      size = await stat(found.file).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      );
    if (!found || size === null) {
      refuse(response, 404, gone);
      return;
    }
    const name = found.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
    response.writeHead(200, {
      'Content-Type': found.contentType ?? 'application/zip',
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    await pipeline(createReadStream(found.file), response);
  }

  const server = createServer((request, response) => {
    // Every answer, refusals and errors too (writeHead adds its own headers to this one): a
    // browser must never read a plain-text refusal as script or HTML.
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (!isAllowedHostHeader(request.headers.host, port)) {
      // A foreign Host means DNS rebinding or a misdirected request: answer nothing useful.
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(foreignHostMessage(port));
      return;
    }
    const target = requestTarget(request.url, 'http://placeholder');
    if (target === null) {
      send(response, 400, {
        ok: false,
        error: { code: 'bad_request', message: BAD_TARGET_MESSAGE },
      });
      return;
    }
    const path = target.pathname;
    const work = path.startsWith(CALL_PATH_PREFIX)
      ? handleCall(request, response, path.slice(CALL_PATH_PREFIX.length))
      : path.startsWith(BACKUP_FILE_PATH_PREFIX)
        ? handleFile(
            request,
            response,
            () => options.files?.(path.slice(BACKUP_FILE_PATH_PREFIX.length)) ?? null,
            'This download link has expired or names no backup; open the Backups view again.',
          )
        : path.startsWith(EXPORT_FILE_PATH_PREFIX)
          ? handleFile(
              request,
              response,
              () => options.exportFiles?.(path.slice(EXPORT_FILE_PATH_PREFIX.length)) ?? null,
              'This download link has expired or names no finished export; export the view again.',
            )
          : path.startsWith('/api/')
            ? Promise.resolve(
                send(response, 404, {
                  ok: false,
                  error: { code: 'unknown_request', message: `No endpoint ${path}.` },
                }),
              )
            : handleStatic(request, response, path);
    work.catch((error: unknown) => {
      // A download cut short (headers out) or a call whose peer left mid-body: nothing to answer.
      if (response.headersSent || request.socket.destroyed) {
        response.destroy();
        return;
      }
      // The detail (a store error, a path of this computer) goes to the terminal of the user who
      // started web mode; the file routes answer anyone holding a link, so the answer names none.
      // Nor is the path logged: a download link's token is in it.
      log.warn(
        `Web mode failed to answer a ${request.method ?? ''} request: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      send(response, 500, {
        ok: false,
        error: {
          code: 'failed',
          message:
            'PortalDesk failed to answer this request and nothing was changed; the terminal running `npm run web` shows why. Try again.',
        },
      });
    });
  });

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // The peer may reset the connection before or while it is refused: an 'error' on this raw
    // socket without a listener would end the process.
    socket.on('error', () => socket.destroy());
    const reject = (status: number, reason: string): void => {
      // Closed for good once the answer is out: nothing reads this socket after the upgrade, so a
      // peer keeping its half open held it (and server.close) with no time limit.
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        () => socket.destroy(),
      );
    };
    if (!isAllowedHostHeader(request.headers.host, port)) return reject(403, 'Forbidden');
    const target = requestTarget(request.url, 'http://placeholder');
    if (target === null) return reject(400, 'Bad Request');
    if (target.pathname !== EVENTS_PATH) return reject(404, 'Not Found');
    // Browsers always send Origin on WebSocket upgrades; cross-site pages must not listen in.
    if (!isAllowedOrigin(request.headers.origin, port)) return reject(403, 'Forbidden');
    const offered = (request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((value) => value.trim());
    if (!secretMatches(secretFromProtocols(offered), secret)) return reject(401, 'Unauthorized');
    sockets.handleUpgrade(request, socket, head, (client: WebSocket) => {
      answered.add(client);
      client.on('pong', () => answered.add(client));
      client.on('message', () => {
        // The socket only carries events from the engine; calls go over HTTP.
      });
      // A frame over the size limit or text that is not UTF-8: ws has already closed the socket
      // with 1009 or 1007; without this listener the 'error' event would end the whole process.
      client.on('error', (error) => {
        log.warn(
          `Closed an events socket from ${request.socket.remoteAddress ?? 'an unknown address'}: ${error.message}. The browser tab reconnects; nothing else was affected.`,
        );
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, WEB_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    secret,
    url: `http://${WEB_HOST}:${port}/#${SECRET_FRAGMENT_KEY}=${secret}`,
    close: async () => {
      unsubscribe();
      clearInterval(heartbeat);
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
