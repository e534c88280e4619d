/**
 * DNS rebinding: a page on evil.example re-points its name at 127.0.0.1 and calls a loopback
 * server from the victim's browser. Its requests name evil.example in Host, and every loopback
 * server of ours must refuse them before doing anything, while answering its real addresses.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@portaldesk/emulator';
import { RouterAdminApi } from '../../../src/main/router/headless/routerAdminApi';
import { customSetup, testRouter } from '../router/routerSupport';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One request with a Host of our choosing (fetch would not let us set it). */
function send(
  base: string,
  options: {
    method?: string;
    path: string;
    host: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { ...options.headers, Host: options.host },
        timeout: 5_000,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 5 s')));
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const portOf = (base: string) => new URL(base).port;

describe('loopback servers refuse a foreign Host (DNS rebinding)', () => {
  it("the router's ingress records nothing for a rebound page, and answers its own address", async () => {
    const { engine, url } = await testRouter();
    const { publisher, apiKey } = await customSetup(engine);
    const post = (host: string) =>
      send(url, {
        method: 'POST',
        path: `/publishers/${publisher.id}/events/order_created`,
        host,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: '{"order":"A-1"}',
      });

    const rebound = await post(`evil.example:${portOf(url)}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/nothing was done/);
    await engine.stored();
    expect(engine.listEvents({}).total).toBe(0);

    for (const host of ['127.0.0.1', 'localhost', 'LocalHost']) {
      expect((await post(`${host}:${portOf(url)}`)).status).toBe(202);
    }
  });

  it('the headless admin API refuses a rebound page even before the token', async () => {
    const { engine } = await testRouter();
    const admin = new RouterAdminApi(engine, 'admin-token-0123456789');
    const base = await admin.start(0);
    cleanups.push(() => admin.close());
    const get = (host: string) =>
      send(base, {
        path: '/events',
        host,
        headers: { authorization: `Bearer ${admin.token}` },
      });
    expect((await get(`evil.example:${portOf(base)}`)).status).toBe(403);
    expect((await get(`127.0.0.1:${portOf(base)}`)).status).toBe(200);
    expect((await get(`[::1]:${portOf(base)}`)).status).toBe(200);
  });

  it('the emulator refuses a rebound page, answers its own address and names it was given', async () => {
    const emulator: RunningEmulator = await startEmulator({
      records: 0,
      log: () => undefined,
      allowedHosts: ['emulator.test'],
    });
    cleanups.push(() => emulator.close());
    const base = emulator.dcs.us!.api;
    const port = portOf(base);
    const portals = (host: string) => send(base, { path: '/api/v3/portals', host });

    const rebound = await portals(`evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/nothing was done/);
    // Its own address and configured names reach the API (401: no token sent).
    expect((await portals(new URL(base).host)).status).toBe(401);
    expect((await portals(`localhost:${port}`)).status).toBe(401);
    expect((await portals(`emulator.test:${port}`)).status).toBe(401);
    // The admin surface is refused too, even with its secret.
    const stats = await send(base, {
      path: '/__emulator/stats',
      host: `evil.example:${port}`,
      headers: { 'x-emulator-admin': emulator.adminSecret },
    });
    expect(stats.status).toBe(403);
  });
});
