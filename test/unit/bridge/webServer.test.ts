import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../../../src/main/bridge/webServer';
import {
  EVENTS_PATH,
  EVENTS_PROTOCOL,
  SECRET_PROTOCOL_PREFIX,
} from '../../../src/shared/ipc/webProtocol';
import { testEngine } from '../../support/engine';
import { rawExchange } from '../../support/rawHttp';
import { tempDir } from '../../support/tempDir';
import { DEFAULT_SETTINGS } from '../../../src/shared/ipc/settings';
import { contentSecurityPolicy } from '../../../src/main/csp';

const servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve() {
  const engine = testEngine();
  // A secret file beside the renderer folder, which no URL may reach.
  const root = tempDir();
  writeFileSync(path.join(root, 'secret.txt'), 'do not serve');
  const staticDir = path.join(root, 'renderer');
  mkdirSync(staticDir);
  // As the build writes it: the desktop's policy in the meta tag (src/main/csp.ts).
  writeFileSync(
    path.join(staticDir, 'index.html'),
    `<!doctype html><meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy({ mode: 'desktop' })}" /><title>PortalDesk</title>`,
  );
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  const warnings: string[] = [];
  const server = await startWebServer({
    dispatcher: engine.dispatcher,
    events: engine.events,
    staticDir,
    port: 0,
    log: { warn: (message) => warnings.push(message) },
  });
  servers.push(server);
  return { engine, server, staticDir, warnings };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP, so tests control Host and Origin exactly as an attacker's page or rebinding would. */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function call(
  server: WebServer,
  name: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return send(server.port, {
    method: 'POST',
    path: `/api/call/${name}`,
    headers: { Authorization: `Bearer ${server.secret}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('web mode server', () => {
  it('answers app.info to a caller with the secret', async () => {
    const { server } = await serve();
    const reply = await call(server, 'app.info');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { mode: 'web' } });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#secret=${server.secret}`);
  });

  it('answers 401 without the secret, or with a wrong one, and does nothing', async () => {
    const { server, engine } = await serve();
    const missing = await call(server, 'settings.set', { theme: 'dark' }, { Authorization: '' });
    expect(missing.status).toBe(401);
    const wrong = await call(
      server,
      'settings.set',
      { theme: 'dark' },
      {
        Authorization: `Bearer ${'0'.repeat(64)}`,
      },
    );
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error.message).toContain('secret');
    expect(engine.store.db.prepare('SELECT COUNT(*) AS n FROM settings').get()).toEqual({ n: 0 });
  });

  it('refuses a foreign Host (DNS rebinding), even with the secret', async () => {
    const { server, engine } = await serve();
    for (const host of ['evil.example', `evil.example:${server.port}`, '127.0.0.1:1']) {
      const reply = await call(server, 'settings.set', { theme: 'dark' }, { Host: host });
      expect(reply.status).toBe(403);
    }
    const page = await send(server.port, { path: '/', headers: { Host: 'rebound.example' } });
    expect(page.status).toBe(403);
    expect(engine.store.db.prepare('SELECT COUNT(*) AS n FROM settings').get()).toEqual({ n: 0 });
  });

  it('refuses a foreign Origin, even with the secret', async () => {
    const { server } = await serve();
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${server.port + 1}`]) {
      const reply = await call(server, 'app.info', undefined, { Origin: origin });
      expect(reply.status).toBe(403);
    }
    const ours = await call(server, 'app.info', undefined, {
      Origin: `http://localhost:${server.port}`,
      Host: `localhost:${server.port}`,
    });
    expect(ours.status).toBe(200);
  });

  it('maps contract refusals to HTTP statuses and keeps the outcome body', async () => {
    const { server } = await serve();
    expect((await call(server, 'app.nothing')).status).toBe(404);
    const bad = await call(server, 'settings.set', { theme: 'sepia' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe('invalid_argument');
    const notJson = await send(server.port, {
      method: 'POST',
      path: '/api/call/settings.set',
      headers: { Authorization: `Bearer ${server.secret}` },
      body: '{theme:',
    });
    expect(notJson.status).toBe(400);
    expect(
      (
        await send(server.port, {
          path: '/api/call/app.info',
          headers: { Authorization: `Bearer ${server.secret}` },
        })
      ).status,
    ).toBe(405);
  });

  it('serves the renderer with a CSP naming its own socket, and nothing outside it', async () => {
    const { server } = await serve();
    const page = await send(server.port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>PortalDesk</title>');
    expect(page.headers['content-security-policy']).toContain(`ws://127.0.0.1:${server.port}`);
    // A page obeys every policy it gets: the meta tag must allow the socket too, and only it.
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page.body);
    expect(meta?.[1]).toBe(page.headers['content-security-policy']);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect((await send(server.port, { path: '/assets/app.js' })).headers['content-type']).toMatch(
      /javascript/,
    );
    for (const escape of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
    ]) {
      expect((await send(server.port, { path: escape })).status).toBe(404);
    }
  });

  it('tells the browser not to sniff any answer it gives, refusals and errors too', async () => {
    const { server } = await serve();
    const asks: Parameters<typeof send>[1][] = [
      { path: '/' },
      { path: '/assets/app.js' },
      { path: '/nothing-here' },
      { path: '/../secret.txt' },
      { method: 'POST', path: '/' },
      { path: '/', headers: { Host: 'rebound.example' } },
      { path: '/api/call/app.info', headers: { Host: 'rebound.example' } },
      { method: 'POST', path: '/api/call/app.info' },
      { method: 'POST', path: '/api/call/app.info', headers: { Origin: 'https://evil.example' } },
      { method: 'POST', path: '/api/call/%zz' },
    ];
    for (const ask of asks) {
      const reply = await send(server.port, ask);
      expect(reply.headers['x-content-type-options'], JSON.stringify(ask)).toBe('nosniff');
    }
  });

  it('pushes events over the socket only to a client with the secret and our origin', async () => {
    const { server } = await serve();
    const url = `ws://127.0.0.1:${server.port}${EVENTS_PATH}`;
    const origin = `http://127.0.0.1:${server.port}`;

    const refused = (protocols: string[], headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url, protocols, { headers });
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('open', () => resolve(101));
      });
    expect(await refused([EVENTS_PROTOCOL], { Origin: origin })).toBe(401);
    expect(
      await refused([EVENTS_PROTOCOL, `${SECRET_PROTOCOL_PREFIX}${server.secret}`], {
        Origin: 'https://evil.example',
      }),
    ).toBe(403);

    const socket = new WebSocket(
      url,
      [EVENTS_PROTOCOL, `${SECRET_PROTOCOL_PREFIX}${server.secret}`],
      {
        headers: { Origin: origin },
      },
    );
    await new Promise((resolve) => socket.once('open', resolve));
    const message = new Promise<string>((resolve) =>
      socket.once('message', (data: WebSocket.RawData) => resolve(String(data))),
    );
    await call(server, 'settings.set', { theme: 'light' });
    expect(JSON.parse(await message)).toEqual({
      event: 'settings.changed',
      payload: { ...DEFAULT_SETTINGS, theme: 'light' },
    });
    socket.close();
  });

  it('refuses a body nested too deeply before parsing it (JSON.parse slows down with depth)', async () => {
    const { server } = await serve();
    const reply = await send(server.port, {
      method: 'POST',
      path: '/api/call/router.setSample',
      headers: { Authorization: `Bearer ${server.secret}` },
      body: `{"eventConfigId":"1","sample":{"a":${'['.repeat(300_000)}${']'.repeat(300_000)}}}`,
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.message).toBe(
      'The argument nests deeper than 256 levels; nothing was called.',
    );
  });

  it('answers 400 to a call name with a malformed %-escape, naming the problem', async () => {
    const { server } = await serve();
    for (const name of ['app.info%', 'app%E0%A4%A', '%zz']) {
      const reply = await call(server, name);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument', message: expect.stringContaining('%-escape') },
      });
    }
    expect((await call(server, 'app%2Einfo')).status).toBe(200);
  });

  it('closes an events socket that sends an oversized or invalid frame, and keeps serving', async () => {
    const { server, warnings } = await serve();
    const open = async (): Promise<WebSocket> => {
      const socket = new WebSocket(
        `ws://127.0.0.1:${server.port}${EVENTS_PATH}`,
        [EVENTS_PROTOCOL, `${SECRET_PROTOCOL_PREFIX}${server.secret}`],
        { headers: { Origin: `http://127.0.0.1:${server.port}` } },
      );
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('open', resolve));
      return socket;
    };
    const closeCode = (socket: WebSocket) =>
      new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));

    const big = await open();
    const bigClosed = closeCode(big);
    big.send('x'.repeat(70 * 1024));
    // 1009: the message is too big to process (RFC 6455, 7.4.1).
    expect(await bigClosed).toBe(1009);

    const garbled = await open();
    const garbledClosed = closeCode(garbled);
    // A text frame whose payload is not UTF-8, written by hand (ws refuses to send one itself).
    const socket = (garbled as unknown as { _socket: Socket })._socket;
    socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xc3, 0x28]));
    // 1007: the payload is not consistent with the message type (invalid UTF-8).
    expect(await garbledClosed).toBe(1007);

    expect(warnings).toEqual([
      expect.stringMatching(/^Closed an events socket from .*Max payload size exceeded/),
      expect.stringMatching(/^Closed an events socket from .*invalid UTF-8/),
    ]);
    expect((await call(server, 'app.info')).status).toBe(200);
  });
});

describe('a request line that is no address', () => {
  it('is answered 400 on calls and upgrades alike, and the server keeps serving', async () => {
    const { server } = await serve();
    const host = `127.0.0.1:${server.port}`;
    expect(await rawExchange(server.port, `GET http://[ HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).toBe(
      'HTTP/1.1 400 Bad Request',
    );
    const upgrade = (target: string, hostHeader: string) =>
      `GET ${target} HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    expect(await rawExchange(server.port, upgrade('http://[', host))).toBe(
      'HTTP/1.1 400 Bad Request',
    );
    expect(await rawExchange(server.port, upgrade('http://[', 'evil.example'))).toBe(
      'HTTP/1.1 403 Forbidden',
    );
    expect((await call(server, 'app.info')).status).toBe(200);
  });

  it('a refused upgrade whose peer resets the connection ends only that connection', async () => {
    const { server } = await serve();
    const refusedThenReset = () =>
      new Promise<void>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write(
            `GET ${EVENTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: http://evil.example\r\n` +
              'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
              'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
          );
          socket.resetAndDestroy();
          resolve();
        });
        socket.on('error', () => resolve());
      });
    for (let i = 0; i < 40; i++) await refusedThenReset();
    expect((await call(server, 'app.info')).status).toBe(200);
  });
});

describe('a refused upgrade whose peer keeps its side of the connection open', () => {
  /** A peer that sends an upgrade, reads the refusal and then never closes (allowHalfOpen). */
  function lingeringPeer(port: number, headers: string): Promise<{ status: string; peer: Socket }> {
    return new Promise((resolve, reject) => {
      const peer = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
        peer.write(
          `GET ${EVENTS_PATH} HTTP/1.1\r\n${headers}Connection: Upgrade\r\nUpgrade: websocket\r\n` +
            'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        ),
      );
      let answer = '';
      peer.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      peer.once('end', () => resolve({ status: answer.split('\r\n')[0] ?? '', peer }));
      peer.on('error', () => undefined);
      peer.once('close', () => reject(new Error('the server reset the connection unanswered')));
    });
  }

  it('does not hold the connection, so the server can still stop', async () => {
    // Refused upgrades were only half-closed: the server never read those sockets again, so any
    // local program could pin file descriptors without a time limit, and Ctrl+C waited for good.
    const { server } = await serve();
    const host = `Host: 127.0.0.1:${server.port}\r\n`;
    const peers = await Promise.all([
      lingeringPeer(server.port, 'Host: evil.example\r\n'),
      lingeringPeer(server.port, `${host}Origin: https://evil.example\r\n`),
      lingeringPeer(
        server.port,
        `${host}Origin: http://127.0.0.1:${server.port}\r\nSec-WebSocket-Protocol: ${EVENTS_PROTOCOL}\r\n`,
      ),
    ]);
    expect(peers.map(({ status }) => status)).toEqual([
      'HTTP/1.1 403 Forbidden',
      'HTTP/1.1 403 Forbidden',
      'HTTP/1.1 401 Unauthorized',
    ]);
    servers.splice(servers.indexOf(server), 1);
    const stopped = await Promise.race([
      server.close().then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    for (const { peer } of peers) peer.destroy();
    expect(stopped).toBe('stopped');
  });
});
