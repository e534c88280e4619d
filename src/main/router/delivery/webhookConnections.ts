import net from 'node:net';
import tls from 'node:tls';
import { HttpResponseParser, type ParsedResponse } from './httpResponseParser';

/** Where a webhook request goes; `host` is what to connect to (an IPv6 address without brackets). */
export interface WebhookOrigin {
  secure: boolean;
  host: string;
  port: number;
}

export type ExchangeResult =
  { response: ParsedResponse; error: null } | { response: null; error: string };

export interface WebhookConnectionsOptions {
  maxSocketsPerOrigin: number;
  /** How long an unused connection stays open (shorter when the target's Keep-Alive says so). */
  idleMs: number;
  maxHeadBytes: number;
  maxBodyBytes: number;
}

interface Exchange {
  bytes: string | Buffer;
  headRequest: boolean;
  timeoutMs: number;
  done: (result: ExchangeResult) => void;
  timer: NodeJS.Timeout | null;
  connection: Connection | null;
  parser: HttpResponseParser | null;
}

interface Connection {
  socket: net.Socket;
  origin: OriginState;
  active: Exchange | null;
  idleTimer: NodeJS.Timeout | null;
  closed: boolean;
}

interface OriginState {
  key: string;
  target: WebhookOrigin;
  idle: Connection[];
  open: number;
  waiting: Exchange[];
}

/** Keep-Alive: timeout=N (seconds) as the server's own idle limit. */
const KEEP_ALIVE_TIMEOUT = /\btimeout=(\d+)/i;
/** Closing this much before the server's idle limit avoids sending on a connection it is closing. */
const KEEP_ALIVE_MARGIN_MS = 1_000;

/**
 * Keep-alive HTTP/1.1 connections to webhook targets, one request at a time per connection, at most
 * `maxSocketsPerOrigin` per origin (more requests wait for a free one). It does only what a
 * delivery needs: write a prepared request, read one answer (HttpResponseParser), reuse or close
 * the connection. node:http's client costs about three times more CPU per call (ClientRequest,
 * IncomingMessage and the Agent around each), which bounded the router's throughput.
 */
export class WebhookConnections {
  private readonly origins = new Map<string, OriginState>();

  constructor(private readonly options: WebhookConnectionsOptions) {}

  /** Sends `bytes` (request line, headers and body) and calls `done` once with the answer. */
  send(
    origin: WebhookOrigin,
    bytes: string | Buffer,
    options: { timeoutMs: number; headRequest?: boolean },
    done: (result: ExchangeResult) => void,
  ): void {
    const exchange: Exchange = {
      bytes,
      headRequest: options.headRequest ?? false,
      timeoutMs: options.timeoutMs,
      done,
      timer: null,
      connection: null,
      parser: null,
    };
    // The timeout covers waiting for a free connection too, as a whole call's limit.
    exchange.timer = setTimeout(() => this.timeOut(exchange), options.timeoutMs);
    const state = this.originState(origin);
    const idle = state.idle.pop();
    if (idle) this.start(idle, exchange);
    else if (state.open < this.options.maxSocketsPerOrigin) this.start(this.open(state), exchange);
    else state.waiting.push(exchange);
  }

  /** Connections open now (in use or idle), for tests. */
  openConnections(): number {
    let open = 0;
    for (const state of this.origins.values()) open += state.open;
    return open;
  }

  /** Closes every connection; requests under way fail. */
  closeAll(): void {
    for (const state of this.origins.values()) {
      for (const exchange of state.waiting.splice(0)) {
        this.settle(exchange, { response: null, error: 'The router closed before sending it.' });
      }
      for (const connection of [...state.idle]) this.discard(connection);
    }
  }

  private originState(origin: WebhookOrigin): OriginState {
    const key = `${origin.secure ? 'https' : 'http'}://${origin.host}:${origin.port}`;
    let state = this.origins.get(key);
    if (!state) {
      state = { key, target: origin, idle: [], open: 0, waiting: [] };
      this.origins.set(key, state);
    }
    return state;
  }

  private open(state: OriginState): Connection {
    const { host, port, secure } = state.target;
    const socket = secure
      ? tls.connect({
          host,
          port,
          ...(net.isIP(host) ? {} : { servername: host }),
          ALPNProtocols: ['http/1.1'],
        })
      : net.connect({ host, port });
    socket.setNoDelay(true);
    const connection: Connection = {
      socket,
      origin: state,
      active: null,
      idleTimer: null,
      closed: false,
    };
    state.open += 1;
    socket.on('data', (chunk: Buffer) => this.onData(connection, chunk));
    socket.on('error', (error) => this.onGone(connection, error.message));
    socket.on('close', () => this.onGone(connection, null));
    return connection;
  }

  private start(connection: Connection, exchange: Exchange): void {
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    connection.idleTimer = null;
    connection.active = exchange;
    exchange.connection = connection;
    exchange.parser = new HttpResponseParser({
      maxHeadBytes: this.options.maxHeadBytes,
      maxBodyBytes: this.options.maxBodyBytes,
      headRequest: exchange.headRequest,
    });
    connection.socket.ref();
    connection.socket.write(exchange.bytes);
  }

  private onData(connection: Connection, chunk: Buffer): void {
    const exchange = connection.active;
    if (!exchange?.parser) {
      // Bytes nobody asked for on an idle connection: it cannot be trusted for the next request.
      this.discard(connection);
      return;
    }
    let response: ParsedResponse | null;
    try {
      response = exchange.parser.push(chunk);
    } catch (error) {
      connection.active = null;
      this.discard(connection);
      this.settle(exchange, {
        response: null,
        error: `The target's answer is not valid HTTP (${(error as Error).message}).`,
      });
      return;
    }
    if (!response) return;
    connection.active = null;
    if (response.keepAlive) this.release(connection, response.headers['keep-alive']);
    else this.discard(connection);
    this.settle(exchange, { response, error: null });
  }

  /** The connection failed or closed: the request under way ends with what arrived, or fails. */
  private onGone(connection: Connection, reason: string | null): void {
    const exchange = connection.active;
    connection.active = null;
    this.discard(connection);
    if (!exchange?.parser) return;
    if (reason === null) {
      try {
        this.settle(exchange, { response: exchange.parser.end(), error: null });
        return;
      } catch (error) {
        reason = (error as Error).message;
      }
    }
    this.settle(exchange, {
      response: null,
      error: exchange.parser.started
        ? `The answer broke off (${reason}).`
        : `Could not reach the target (${reason}).`,
    });
  }

  private timeOut(exchange: Exchange): void {
    exchange.timer = null;
    const connection = exchange.connection;
    if (connection) {
      connection.active = null;
      this.discard(connection);
    } else {
      for (const state of this.origins.values()) {
        const index = state.waiting.indexOf(exchange);
        if (index >= 0) state.waiting.splice(index, 1);
      }
    }
    this.settle(exchange, {
      response: null,
      error: `No answer within the target's timeout of ${exchange.timeoutMs} ms.`,
    });
  }

  private settle(exchange: Exchange, result: ExchangeResult): void {
    if (exchange.timer) clearTimeout(exchange.timer);
    exchange.timer = null;
    const done = exchange.done;
    exchange.done = () => {};
    done(result);
  }

  /** Hands a finished connection to the next waiting request, or keeps it idle for a while. */
  private release(connection: Connection, keepAlive: string | undefined): void {
    const state = connection.origin;
    const next = state.waiting.shift();
    if (next) {
      this.start(connection, next);
      return;
    }
    const hint = keepAlive ? KEEP_ALIVE_TIMEOUT.exec(keepAlive) : null;
    const idleMs = hint
      ? Math.max(0, Math.min(this.options.idleMs, Number(hint[1]) * 1000 - KEEP_ALIVE_MARGIN_MS))
      : this.options.idleMs;
    // An idle connection must not keep a finished process (a test, the CLI) alive.
    connection.socket.unref();
    connection.idleTimer = setTimeout(() => this.discard(connection), idleMs);
    connection.idleTimer.unref();
    state.idle.push(connection);
  }

  /** Closes a connection for good; a waiting request gets a new one. */
  private discard(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    connection.idleTimer = null;
    connection.socket.destroy();
    const state = connection.origin;
    const index = state.idle.indexOf(connection);
    if (index >= 0) state.idle.splice(index, 1);
    state.open -= 1;
    const next = state.waiting.shift();
    if (next) this.start(this.open(state), next);
  }
}
