import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callWebhook,
  MAX_RECORDED_RESPONSE_CHARS,
} from '../../../src/main/router/delivery/callWebhook';
import { makeUndiciCaller } from '../../../src/main/router/delivery/callWebhookUndici';

// bench:router compares our own client with undici's Pool; the comparison means something only
// if both record the same answer for the same call.
let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/slow') return; // never answers
      if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('x'.repeat(MAX_RECORDED_RESPONSE_CHARS + 5_000));
        return;
      }
      response.writeHead(request.url === '/missing' ? 404 : 201, {
        'content-type': 'application/json',
        'x-echo-header': String(request.headers['x-custom'] ?? ''),
      });
      response.end(JSON.stringify({ method: request.method, url: request.url, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const undici = makeUndiciCaller({
  socketsPerOrigin: 4,
  idleMs: 5_000,
  maxBodyBytes: MAX_RECORDED_RESPONSE_CHARS,
  pipelining: 1,
});

describe('the undici caller records what our own client records', () => {
  const calls = [
    { path: '/hook?a=1', method: 'POST', body: '{"é":"ü"}' },
    { path: '/missing', method: 'PUT', body: '{}' },
    { path: '/get', method: 'GET', body: null },
    { path: '/big', method: 'POST', body: '{}' },
  ];
  for (const call of calls) {
    it(`${call.method} ${call.path}`, async () => {
      const request = {
        method: call.method,
        url: `${base}${call.path}`,
        headers: { 'content-type': 'application/json', 'x-custom': 'v1' },
        body: call.body,
      };
      const [own, theirs] = await Promise.all([
        callWebhook(request, 5_000),
        undici(request, 5_000),
      ]);
      expect(theirs.error).toBeNull();
      expect(own.error).toBeNull();
      expect(theirs.response?.status).toBe(own.response?.status);
      expect(theirs.response?.body).toBe(own.response?.body);
      expect(theirs.response?.headers['x-echo-header']).toBe(
        own.response?.headers['x-echo-header'],
      );
      expect(theirs.response?.headers['content-type']).toBe(own.response?.headers['content-type']);
    });
  }

  it('both fail a call the target never answers, in words', async () => {
    const request = { method: 'POST', url: `${base}/slow`, headers: {}, body: '{}' };
    const [own, theirs] = await Promise.all([callWebhook(request, 300), undici(request, 300)]);
    expect(own.response).toBeNull();
    expect(theirs.response).toBeNull();
    expect(theirs.error).toMatch(/failed/);
  });

  it('both refuse a URL that is not http', async () => {
    const request = { method: 'POST', url: 'ftp://127.0.0.1/x', headers: {}, body: '{}' };
    const theirs = await undici(request, 300);
    expect((await callWebhook(request, 300)).error).toMatch(/ftp: URLs cannot be called/);
    expect(theirs.error).toMatch(/ftp: URLs cannot be called/);
  });
});
