import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  runHeadlessRouter,
  type HeadlessRouter,
} from '../../../src/main/router/headless/runHeadlessRouter';
import { tempDir } from '../../support/tempDir';

const KEY = 'shop-test-key-0123456789';
const running: HeadlessRouter[] = [];
afterEach(async () => {
  for (const router of running.splice(0)) await router.close();
});

async function startRouter(): Promise<HeadlessRouter> {
  const configFile = path.join(tempDir(), 'router.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      account: { org_id: '60001', project: { name: 'Shop', environment: 'test', id: '60002' } },
      publishers: [
        {
          id: '1001',
          type: 'custom',
          status: 'active',
          api_key: KEY,
          events: [{ id: '2001', api_name: 'order_created' }],
        },
      ],
      targets: [{ id: '3002', name: 'bin', kind: 'request_bin' }],
      rules: [{ id: '4001', status: 'active', events: ['2001'], targets: ['3002'] }],
    }),
  );
  const router = await runHeadlessRouter({
    config: configFile,
    port: 0,
    adminPort: 0,
    timeScale: 1,
    db: null,
  });
  running.push(router);
  return router;
}

function adminOf(router: HeadlessRouter) {
  return async (pathname: string, init: RequestInit = {}) => {
    const response = await fetch(`${router.admin}${pathname}`, {
      ...init,
      headers: { authorization: `Bearer ${router.adminToken}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

function publish(router: HeadlessRouter, data: unknown) {
  return fetch(`${router.ingress}/publishers/1001/events/order_created`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });
}

describe("the headless router's admin API against odd input", () => {
  it('answers a list query whose numbers are not whole numbers with 400 naming the parameter', async () => {
    const router = await startRouter();
    const admin = adminOf(router);
    expect((await publish(router, { order: 'A-1' })).status).toBe(202);
    for (const [query, name] of [
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=x', 'offset'],
      ['offset=-1', 'offset'],
      // NaN used to drop the condition silently: the answer said no event had arrived.
      ['from=yesterday', 'from'],
      ['to=soon', 'to'],
      ['limit=', 'limit'],
    ] as const) {
      const answer = await admin(`/events?${query}`);
      expect(answer.status, query).toBe(400);
      expect(String(answer.body.error), query).toContain(name);
    }
    // Well-formed numbers still list, with limits clamped as documented.
    const all = await admin(`/events?from=0&to=${Date.now() + 60_000}&limit=9999&offset=0`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(1);
  });

  it('refuses a clock jump past the last date it can store, and the router keeps taking events', async () => {
    const router = await startRouter();
    const admin = adminOf(router);
    for (const ms of [1e308, 9e15]) {
      const answer = await admin('/clock/advance', {
        method: 'POST',
        body: JSON.stringify({ ms }),
      });
      expect(answer.status).toBe(400);
      expect(String(answer.body.error)).toContain('the clock did not move');
    }
    // Before, every event after such a jump was refused with 500 until the router restarted.
    expect((await publish(router, { order: 'A-2' })).status).toBe(202);
    const year = await admin('/clock/advance', {
      method: 'POST',
      body: JSON.stringify({ ms: 365 * 86_400_000 }),
    });
    expect(year.status).toBe(200);
    expect((await publish(router, { order: 'A-3' })).status).toBe(202);
  });
});
