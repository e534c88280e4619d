import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHeadlessArgs } from '../../../src/main/router/headless/headlessArgs';
import {
  runHeadlessRouter,
  type HeadlessRouter,
} from '../../../src/main/router/headless/runHeadlessRouter';
import { tempDir } from '../../support/tempDir';

const running: (HeadlessRouter | ReturnType<typeof createServer>)[] = [];
afterEach(async () => {
  for (const item of running.splice(0)) {
    if ('closeAllConnections' in item) {
      item.closeAllConnections();
      await new Promise((resolve) => item.close(resolve));
    } else {
      await item.close();
    }
  }
});

export function exampleConfig(webhookUrl: string) {
  return {
    account: { org_id: '60001', project: { name: 'Shop', environment: 'test', id: '60002' } },
    publishers: [
      {
        id: '1001',
        name: 'Shop backend',
        type: 'custom',
        status: 'active',
        api_key: 'shop-test-key-0123456789',
        events: [{ id: '2001', api_name: 'order_created', sample: { order: 'A-1', amount: 10 } }],
      },
    ],
    targets: [
      {
        id: '3001',
        url: webhookUrl,
        method: 'POST',
        status: 'active',
        headers: { 'X-Order': '{{order}}' },
      },
      { id: '3002', kind: 'fault', fault: { mode: 'flaky', failureRate: 0.5 } },
    ],
    rules: [
      {
        id: '4001',
        status: 'active',
        retry_count: 2,
        events: ['2001'],
        filter: {
          operator: 'AND',
          conditions: [{ path: 'amount', type: 'number', comparator: 'gte', value: 100 }],
        },
        targets: ['3001', '3002'],
      },
    ],
  };
}

describe('the headless router', () => {
  it('parses its command line strictly', () => {
    expect(
      parseHeadlessArgs(['--config', 'a.json', '--port', '0', '--time-scale', '60', '--json']),
    ).toMatchObject({
      config: 'a.json',
      port: 0,
      timeScale: 60,
      json: true,
    });
    expect(parseHeadlessArgs(['--port', '1'])).toEqual({ error: '--config FILE is required.' });
    expect(parseHeadlessArgs(['--config', 'a', '--time-scale', '0'])).toHaveProperty('error');
    expect(parseHeadlessArgs(['--config', 'a', '--verbose'])).toEqual({
      error: 'Unknown argument "--verbose".',
    });
  });

  it('runs a config end to end: ingress, webhook, retries on a scaled clock, admin API with token', async () => {
    const received: { headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];
    const hook = createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += chunk;
      received.push({ headers: request.headers, body: JSON.parse(text) });
      response.writeHead(204).end();
    });
    running.push(hook);
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const dir = tempDir();
    const configFile = path.join(dir, 'router.json');
    writeFileSync(
      configFile,
      JSON.stringify(exampleConfig(`http://127.0.0.1:${(hook.address() as AddressInfo).port}/in`)),
    );

    // 600x: the flaky target's one-minute retry takes 100 ms.
    const router = await runHeadlessRouter({
      config: configFile,
      port: 0,
      adminPort: 0,
      timeScale: 600,
      db: null,
    });
    running.push(router);
    const admin = (pathname: string, init: RequestInit = {}) =>
      fetch(`${router.admin}${pathname}`, {
        ...init,
        headers: { authorization: `Bearer ${router.adminToken}`, ...init.headers },
      });

    const send = (body: unknown) =>
      fetch(`${router.ingress}/publishers/1001/events/order_created`, {
        method: 'POST',
        headers: { 'x-api-key': 'shop-test-key-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const big = (await (await send({ order: 'A-2', amount: 150 })).json()) as { id: string };
    const small = (await (await send({ order: 'A-3', amount: 5 })).json()) as { id: string };

    expect((await fetch(`${router.admin}/events/${big.id}`)).status).toBe(401);

    let detail: Record<string, unknown> = {};
    for (let i = 0; i < 100 && detail.overall_status !== 'Success'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      detail = (await (await admin(`/events/${big.id}`)).json()) as Record<string, unknown>;
    }
    expect(detail.overall_status).toBe('Success');
    const executions = detail.executions as {
      target_id: string;
      status: string;
      attempts: { attempt: number; response: { status: number } }[];
    }[];
    expect(
      executions.map((x) => [
        x.target_id,
        x.status,
        x.attempts.map((a) => [a.attempt, a.response.status]),
      ]),
    ).toEqual([
      ['3001', 'Success', [[1, 204]]],
      [
        '3002',
        'Success',
        [
          [1, 500],
          [2, 200],
        ],
      ],
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['x-order']).toBe('A-2');
    expect(received[0]!.body).toMatchObject({
      rule_id: '4001',
      target_id: '3001',
      version: 1,
      attempt: 1,
    });

    const unmatched = (await (await admin('/events?status=unmatched')).json()) as {
      total: number;
      events: { id: string }[];
    };
    expect(unmatched.events.map((e) => e.id)).toEqual([small.id]);

    // Deleting the webhook target: the next matching event is Dropped on that target.
    expect(
      (
        await admin('/targets/3001', {
          method: 'PATCH',
          body: JSON.stringify({ status: 'deleted' }),
        })
      ).status,
    ).toBe(200);
    expect(
      (await admin('/targets/3002', { method: 'PATCH', body: JSON.stringify({ status: 'dead' }) }))
        .status,
    ).toBe(400);
    const third = (await (await send({ order: 'A-4', amount: 500 })).json()) as { id: string };
    await router.engine.settle();
    const dropped = (await (await admin(`/events/${third.id}`)).json()) as {
      overall_status: string;
      executions: { status: string }[];
    };
    expect(dropped.executions.map((x) => x.status)).toContain('Dropped');
    expect(['Dropped', 'In Progress']).toContain(dropped.overall_status);
  });

  it("takes a publisher's short api_key, the user's own, and warns about it", async () => {
    const file = path.join(tempDir(), 'short-key.json');
    writeFileSync(
      file,
      JSON.stringify({
        account: { org_id: '60001', project: { name: 'Shop', environment: 'test', id: '60002' } },
        publishers: [{ id: '1000000000001', api_key: 'short', events: [] }],
        targets: [],
        rules: [],
      }),
    );
    const warnings: string[] = [];
    const router = await runHeadlessRouter(
      { config: file, port: 0, adminPort: 0, timeScale: 1, db: null },
      { error: () => undefined, warn: (message) => warnings.push(message) },
      { writerScript: null },
    );
    try {
      expect(warnings).toEqual([
        expect.stringMatching(
          /Publisher 1000000000001: its api_key has 5 characters; a key under 16/,
        ),
      ]);
      const send = (key: string) =>
        fetch(`${router.ingress}/publishers/1000000000001/events/NoSuchEvent`, {
          method: 'POST',
          headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
          body: '{}',
        });
      // The key is the publisher's: a wrong one is refused (401), the short one gets past the
      // key check to the event name (404: the publisher has no such event).
      expect((await send('wrong')).status).toBe(401);
      expect((await send('short')).status).toBe(404);
    } finally {
      await router.close();
    }
  });

  it('refuses an invalid config with every problem listed', async () => {
    const file = path.join(tempDir(), 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        account: {},
        publishers: [{ id: 'abc', api_key: '', events: [] }],
        targets: [],
        rules: [],
      }),
    );
    await expect(
      runHeadlessRouter({ config: file, port: 0, adminPort: 0, timeScale: 1, db: null }),
    ).rejects.toThrow(
      /not a valid router config:[\s\S]*account\.org_id[\s\S]*publishers\.0\.id[\s\S]*publishers\.0\.api_key/,
    );
  });
});
