/**
 * A webhook target's secret headers (its Authorization, an API key, a cookie) must reach the
 * target but never be kept or shown in the attempts and request bins the router records: they
 * are read by the UI, the admin API and anyone holding a copy of the database.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { customSetup, testRouter } from './routerSupport';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const SECRETS = {
  Authorization: 'Bearer tok-AUTH-3f9a7c',
  'X-Api-Key': 'key-APIKEY-81b2',
  Cookie: 'sid=COOKIE-55e1',
  'X-Auth-Token': 'tok-XAUTH-0c4d',
};

/** A webhook endpoint that keeps the headers it got and sets a session cookie in its answer. */
async function endpoint() {
  const received: IncomingMessage['headers'][] = [];
  const server = createServer((request, response) => {
    request.resume();
    received.push(request.headers);
    response.writeHead(200, {
      'content-type': 'application/json',
      'set-cookie': 'session=ANSWER-COOKIE-9d; HttpOnly',
    });
    response.end('{"ok":true}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const leaked = (text: string) =>
  [...Object.values(SECRETS), 'ANSWER-COOKIE-9d', 'QUERY-TOKEN-77'].filter((secret) =>
    text.includes(secret.replace(/^Bearer /, '')),
  );

describe("a target's secret headers", () => {
  it('are sent to the target, but redacted in the stored and shown attempts and bin entries', async () => {
    const { engine, db, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const hook = await endpoint();
    const headers = [
      ...Object.entries(SECRETS).map(([name, value]) => ({ name, value })),
      { name: 'X-Order', value: '{{order}}' },
    ];
    const webhook = engine.saveTarget({
      name: 'hook',
      kind: 'webhook',
      url: hook.url,
      headers,
      query: [
        { name: 'access_token', value: 'QUERY-TOKEN-77' },
        { name: 'order', value: '{{order}}' },
      ],
    });
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin', headers });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [webhook.id, bin.id] });

    const id = engine.publish(publisher.id, 'order_created', { order: 'A-7' });
    await engine.settle();
    await advance(0);

    // The delivery itself still carries every secret.
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toMatchObject({
      authorization: SECRETS.Authorization,
      'x-api-key': SECRETS['X-Api-Key'],
      cookie: SECRETS.Cookie,
      'x-auth-token': SECRETS['X-Auth-Token'],
      'x-order': 'A-7',
    });

    const detail = engine.getEvent(id);
    const attempts = detail.executions.flatMap((execution) => execution.attempts);
    expect(attempts).toHaveLength(2);
    expect(leaked(JSON.stringify(detail))).toEqual([]);
    const sent = attempts.find((attempt) => attempt.request.url.startsWith('http:'))!;
    // What is not secret stays as sent, and a redacted header still says it was there.
    expect(sent.request.headers['x-order']).toBe('A-7');
    expect(sent.request.headers.authorization).toBe('Bearer [redacted]');
    expect(sent.request.headers['x-api-key']).toBe('[redacted]');
    expect(new URL(sent.request.url).searchParams.get('order')).toBe('A-7');
    expect(sent.response?.headers['set-cookie']).toBe('[redacted]');

    const binEntries = engine.requestBin(bin.id);
    expect(binEntries).toHaveLength(1);
    expect(leaked(JSON.stringify(binEntries))).toEqual([]);
    expect(binEntries[0]!.headers['x-order']).toBe('A-7');

    // Nor does the database keep them.
    const stored = db
      .prepare('SELECT request, response FROM router_attempts')
      .all()
      .concat(db.prepare('SELECT headers, url FROM router_bin_entries').all());
    expect(leaked(JSON.stringify(stored))).toEqual([]);
  });

  it('recorded before the fix are redacted when read', async () => {
    const { engine, db, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const hook = await endpoint();
    const webhook = engine.saveTarget({ name: 'hook', kind: 'webhook', url: hook.url });
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [webhook.id, bin.id] });
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-8' });
    await engine.settle();
    await advance(0);

    // Rows as an older PortalDesk wrote them: the headers as sent, in the clear.
    const oldRequest = JSON.stringify({
      method: 'POST',
      url: `${hook.url}?access_token=QUERY-TOKEN-77`,
      headers: { authorization: SECRETS.Authorization, cookie: SECRETS.Cookie, 'x-order': 'A-8' },
      body: '{}',
    });
    db.prepare('UPDATE router_attempts SET request = ?').run(oldRequest);
    db.prepare('UPDATE router_bin_entries SET headers = ?').run(
      JSON.stringify({ 'x-api-key': SECRETS['X-Api-Key'], 'x-order': 'A-8' }),
    );

    const detail = engine.getEvent(id);
    expect(leaked(JSON.stringify(detail))).toEqual([]);
    expect(detail.executions[0]!.attempts[0]!.request.headers['x-order']).toBe('A-8');
    const entries = engine.requestBin(bin.id);
    expect(leaked(JSON.stringify(entries))).toEqual([]);
    expect(entries[0]!.headers['x-order']).toBe('A-8');
  });

  it('are redacted by their value too, wherever else the request, the answer or the bin holds them', async () => {
    const { engine, db, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    // A target that answers with what it got (as httpbin and many test endpoints do).
    const received: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(request.url ?? '');
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ url: request.url, headers: request.headers }));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const AUTH = 'tok-AUTH-3f9a7c';
    const KEY = 'key-APIKEY-81b2';
    const FROM_DATA = 'data-TOKEN-e7f1a2';
    const headers = [
      { name: 'Authorization', value: `Bearer ${AUTH}` },
      { name: 'X-Api-Key', value: KEY },
      // A credential the event's data carries: it is in the payload (the body) too.
      { name: 'X-Auth-Token', value: '{{creds.token}}' },
      // The same key under a name no rule knows.
      { name: 'X-Signature', value: KEY },
    ];
    const webhook = engine.saveTarget({
      name: 'hook',
      kind: 'webhook',
      // The secret configured into the address's own query string, under names no rule knows.
      url: `${base}?code=${AUTH}&v=1`,
      headers,
      query: [{ name: 'sig', value: KEY }],
    });
    const bin = engine.saveTarget({
      name: 'bin',
      kind: 'request_bin',
      headers,
      query: [{ name: 'sig', value: KEY }],
    });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [webhook.id, bin.id] });
    const id = engine.publish(publisher.id, 'order_created', {
      order: 'A-9',
      creds: { token: FROM_DATA },
    });
    await engine.settle();
    await advance(0);

    // Sent as configured.
    expect(received).toEqual([`/hook?code=${AUTH}&v=1&sig=${KEY}`]);
    const secrets = [AUTH, KEY, FROM_DATA];
    const found = (text: string) => secrets.filter((secret) => text.includes(secret));

    const detail = engine.getEvent(id);
    const attempts = detail.executions.flatMap((execution) => execution.attempts);
    expect(attempts).toHaveLength(2);
    expect(found(JSON.stringify(attempts))).toEqual([]);
    const sent = attempts.find((attempt) => attempt.request.url.startsWith('http:'))!;
    expect(new URL(sent.request.url).searchParams.get('v')).toBe('1');
    expect(sent.request.headers['x-signature']).toBe('[redacted]');
    expect(JSON.parse(sent.request.body!).events[0].data.order).toBe('A-9');
    const binEntries = engine.requestBin(bin.id);
    expect(found(JSON.stringify(binEntries))).toEqual([]);
    const stored = db
      .prepare('SELECT request, response FROM router_attempts')
      .all()
      .concat(db.prepare('SELECT headers, url, body FROM router_bin_entries').all());
    expect(found(JSON.stringify(stored))).toEqual([]);
  });

  it('recorded before the fix are redacted by the values the target is configured with when read', async () => {
    const { engine, db, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const hook = await endpoint();
    const KEY = 'key-APIKEY-81b2';
    const webhook = engine.saveTarget({
      name: 'hook',
      kind: 'webhook',
      url: hook.url,
      headers: [{ name: 'X-Api-Key', value: KEY }],
    });
    const bin = engine.saveTarget({
      name: 'bin',
      kind: 'request_bin',
      headers: [{ name: 'X-Api-Key', value: KEY }],
    });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [webhook.id, bin.id] });
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-10' });
    await engine.settle();
    await advance(0);
    // The delivery thread writes its attempt and the bin its entry on their own time: the rows
    // must be there before they are rewritten, or the UPDATEs below change nothing.
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    await vi.waitFor(() => {
      expect(count('router_attempts')).toBe(2);
      expect(count('router_bin_entries')).toBe(1);
    });
    // As the name rule alone stored them: the key's header redacted, its copy in the address not.
    db.prepare('UPDATE router_attempts SET request = ?').run(
      JSON.stringify({
        method: 'POST',
        url: `${hook.url}?code=${KEY}`,
        headers: { 'x-api-key': '[redacted]' },
        body: '{}',
      }),
    );
    db.prepare('UPDATE router_bin_entries SET url = ?').run(`sandbox://request_bin/x?code=${KEY}`);
    expect(JSON.stringify(engine.getEvent(id))).not.toContain(KEY);
    expect(JSON.stringify(engine.requestBin(bin.id))).not.toContain(KEY);
  });
});
