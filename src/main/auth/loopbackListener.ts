/**
 * The one-shot listener on 127.0.0.1 that the browser is redirected to after the accounts page
 * (RFC 8252 7.3). It answers the browser with a page, ignores answers carrying another `state`,
 * and gives up after the sign-in timeout. It is listening before the browser is opened.
 */
import { isAllowedHostHeader } from '@portaldesk/portal-api/http/loopbackHost';
import { requestTarget } from '../http/requestTarget';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { LoopbackRedirect } from './loopbackRedirectUri';
import { LOOPBACK_PAGES } from './loopbackPage';
import { readRedirectAnswer, type RedirectAnswer } from './redirectAnswer';

export type LoopbackOutcome =
  | Exclude<RedirectAnswer, { kind: 'state_mismatch' }>
  /** Nothing usable came back in time; `ignored` answers carried another sign-in's state. */
  | { kind: 'timeout'; ignored: number }
  | { kind: 'cancelled' };

export interface PendingRedirect {
  /** Settles once: the browser's answer, the timeout or the cancellation. */
  readonly outcome: Promise<LoopbackOutcome>;
  /** Stops listening (idempotent). */
  close(): void;
}

export class LoopbackPortBusyError extends Error {
  override name = 'LoopbackPortBusyError';
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'Referrer-Policy': 'no-referrer',
  // One shot: a browser must not keep a connection to a listener that is about to go away.
  Connection: 'close',
};

export async function listenForRedirect(options: {
  redirect: LoopbackRedirect;
  state: string;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<PendingRedirect> {
  const { redirect, state } = options;
  let settle: (outcome: LoopbackOutcome) => void = () => undefined;
  const outcome = new Promise<LoopbackOutcome>((resolve) => (settle = resolve));
  let ignored = 0;
  let done = false;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer = (status: number, page: string) => {
      response.writeHead(status, PAGE_HEADERS);
      response.end(page);
    };
    // DNS rebinding: a page under its own name must not answer (or end) the sign-in.
    if (!isAllowedHostHeader(request.headers.host, redirect.port)) {
      return answer(403, LOOPBACK_PAGES.notFound);
    }
    const url = requestTarget(request.url, `http://${redirect.host}:${redirect.port}`);
    if (url === null || url.pathname !== redirect.path || done) {
      return answer(url === null ? 400 : 404, LOOPBACK_PAGES.notFound);
    }
    if (request.method !== 'GET') return answer(405, LOOPBACK_PAGES.notFound);
    const read = readRedirectAnswer(url.searchParams, state);
    if (read.kind === 'state_mismatch') {
      ignored += 1;
      return answer(400, LOOPBACK_PAGES.wrongState);
    }
    answer(
      read.kind === 'code' ? 200 : 400,
      read.kind === 'code' ? LOOPBACK_PAGES.received : LOOPBACK_PAGES.refused,
    );
    finish(read);
  });

  const timer = setTimeout(() => finish({ kind: 'timeout', ignored }), options.timeoutMs);
  const onAbort = () => finish({ kind: 'cancelled' });

  function finish(result: LoopbackOutcome): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Let the page reach the browser before the connections go.
    server.close();
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 1000).unref();
    settle(result);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done = true;
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new LoopbackPortBusyError(
              `Port ${redirect.port} on this computer is in use by another program, so the browser's answer cannot reach PortalDesk there; nothing was stored. Close the program using it (or a sign-in still waiting in another PortalDesk), or register a redirect URI with another port.`,
            )
          : error,
      );
    });
    server.listen(redirect.port, redirect.host, () => resolve());
  });
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  return { outcome, close: () => finish({ kind: 'cancelled' }) };
}
