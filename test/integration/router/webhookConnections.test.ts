import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callWebhook } from '../../../src/main/router/delivery/callWebhook';
import {
  WebhookConnections,
  type ExchangeResult,
} from '../../../src/main/router/delivery/webhookConnections';
import { webhookRequestBytes } from '../../../src/main/router/delivery/webhookRequestBytes';

const servers: (http.Server | net.Server)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server instanceof http.Server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen<S extends http.Server | net.Server>(server: S): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP server that counts the connections it was opened. */
async function countingServer(handler: http.RequestListener) {
  let connections = 0;
  const server = http.createServer(handler);
  server.on('connection', () => (connections += 1));
  const url = await listen(server);
  return { url, connections: () => connections };
}

/** A TCP server that answers every request with `reply` bytes (then does what `after` says). */
async function rawServer(reply: string, after: (socket: net.Socket) => void = () => {}) {
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      socket.write(reply);
      after(socket);
    });
  });
  return listen(server);
}

const pool = ({ idleMs = 5_000 } = {}) =>
  new WebhookConnections({
    maxSocketsPerOrigin: 2,
    idleMs,
    maxHeadBytes: 16 * 1024,
    maxBodyBytes: 64 * 1024,
  });

function send(
  connections: WebhookConnections,
  url: string,
  body: string | null = '{}',
  timeoutMs = 5_000,
): Promise<ExchangeResult> {
  const request = webhookRequestBytes({
    method: body === null ? 'GET' : 'POST',
    url,
    headers: {},
    body,
  });
  return new Promise((resolve) =>
    connections.send(request.origin, request.bytes, { timeoutMs }, resolve),
  );
}

describe('webhook connections', () => {
  it('one keep-alive connection carries call after call', async () => {
    const server = await countingServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => response.writeHead(200).end(`got ${text}`));
    });
    const connections = pool();
    for (const n of [1, 2, 3]) {
      const result = await send(connections, `${server.url}/hook`, `{"n":${n}}`);
      expect(result.response?.status).toBe(200);
      expect(result.response?.body.toString()).toBe(`got {"n":${n}}`);
    }
    expect(server.connections()).toBe(1);
    connections.closeAll();
  });

  it('at most maxSocketsPerOrigin connections; the other calls wait their turn', async () => {
    const server = await countingServer((_request, response) => {
      setTimeout(() => response.writeHead(204).end(), 20);
    });
    const connections = pool();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => send(connections, server.url)),
    );
    expect(results.map((result) => result.response?.status)).toEqual(Array(10).fill(204));
    expect(server.connections()).toBe(2);
    connections.closeAll();
  });

  it('reads chunked answers and answers that end with the connection', async () => {
    const chunked = await countingServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('part one, ');
      setTimeout(() => response.end('part two'), 5);
    });
    const connections = pool();
    const first = await send(connections, chunked.url);
    expect(first.response?.body.toString()).toBe('part one, part two');
    expect(first.response?.headers['transfer-encoding']).toBe('chunked');

    const untilClose = await rawServer(
      'HTTP/1.1 503 Busy\r\nRetry-After: 7\r\n\r\ncome back later',
      (s) => s.end(),
    );
    const second = await send(connections, untilClose);
    expect(second).toMatchObject({ error: null, response: { status: 503 } });
    expect(second.response?.headers['retry-after']).toBe('7');
    expect(second.response?.body.toString()).toBe('come back later');
    connections.closeAll();
  });

  it('a connection the target closed while idle is not used again', async () => {
    let opened = 0;
    let closedByTarget: () => void = () => {};
    const targetClosed = new Promise<void>((resolve) => (closedByTarget = resolve));
    const server = net.createServer((socket) => {
      opened += 1;
      socket.once('close', closedByTarget);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        setTimeout(() => socket.destroy(), 10);
      });
    });
    const url = await listen(server);
    // Idle far longer than the wait below: only the target's close can empty the pool in time.
    const connections = pool({ idleMs: 60_000 });
    expect((await send(connections, url)).response?.status).toBe(200);
    // Waits for the close itself, not a fixed time a loaded machine may not keep: the target's
    // side first, then the pool's (its socket's 'close' comes a poll of the event loop later).
    await targetClosed;
    await vi.waitFor(() => expect(connections.openConnections()).toBe(0), {
      timeout: 5_000,
      interval: 5,
    });
    expect((await send(connections, url)).response?.status).toBe(200);
    expect(opened).toBe(2);
    connections.closeAll();
  });

  it('says why a call failed: no answer in time, refused, broken off, not HTTP', async () => {
    const connections = pool();
    const silent = await rawServer('');
    const late = await send(connections, silent, '{}', 100);
    expect(late).toEqual({
      response: null,
      error: "No answer within the target's timeout of 100 ms.",
    });
    expect(connections.openConnections()).toBe(0);

    const closed = net.createServer();
    const closedUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    servers.splice(servers.indexOf(closed), 1);
    expect((await send(connections, closedUrl)).error).toMatch(
      /^Could not reach the target \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\.$/,
    );

    const broken = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nhalf', (s) =>
      s.destroy(),
    );
    expect((await send(connections, broken)).error).toBe(
      'The answer broke off (the connection closed mid-answer).',
    );

    const garbage = await rawServer('SSH-2.0-OpenSSH_9.2\r\n\r\n');
    expect((await send(connections, garbage)).error).toBe(
      'The target\'s answer is not valid HTTP (invalid status line "SSH-2.0-OpenSSH_9.2").',
    );
    connections.closeAll();
  });
});

describe('callWebhook', () => {
  it('records the answer with its body cut at 64 KB, and refuses an unsendable header', async () => {
    const server = await countingServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('z'.repeat(100_000));
    });
    const answer = await callWebhook(
      { method: 'POST', url: `${server.url}/in`, headers: {}, body: '{}' },
      5_000,
    );
    expect(answer.error).toBeNull();
    expect(answer.response?.status).toBe(200);
    expect(answer.response?.body).toBe('z'.repeat(64 * 1024));

    const refused = await callWebhook(
      { method: 'POST', url: `${server.url}/in`, headers: { 'x-a': 'b\nc' }, body: '{}' },
      5_000,
    );
    expect(refused).toEqual({
      response: null,
      error:
        'The request was not sent: the value of header x-a has characters HTTP does not allow (such as a line break).',
    });
  });
});
