import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  runHeadlessRouter,
  type HeadlessRouter,
} from '../../../src/main/router/headless/runHeadlessRouter';
import { tempDir } from '../../support/tempDir';
import { removeRouterWriterBundle, routerWriterScript } from './routerWriterBuild';
import { failEventInserts } from './routerSupport';

afterAll(removeRouterWriterBundle);

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of running.splice(0).reverse()) await close();
});

async function start(): Promise<{ router: HeadlessRouter; file: string; received: unknown[] }> {
  const received: unknown[] = [];
  const hook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.writeHead(200).end('{"thanks":true}');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  running.push(async () => {
    hook.closeAllConnections();
    await new Promise((resolve) => hook.close(resolve));
  });
  const dir = tempDir('portaldesk-router-writer-');
  const config = path.join(dir, 'router.json');
  const file = path.join(dir, 'router.sqlite');
  writeFileSync(
    config,
    JSON.stringify({
      account: { org_id: '60001', project: { name: 'Shop', environment: 'test', id: '60002' } },
      publishers: [
        {
          id: '1001',
          type: 'custom',
          status: 'active',
          api_key: 'shop-test-key-0123456789',
          events: [{ id: '2001', api_name: 'order_created' }],
        },
      ],
      targets: [
        {
          id: '3001',
          url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/in`,
          method: 'POST',
          status: 'active',
          headers: {},
        },
      ],
      rules: [{ id: '4001', status: 'active', events: ['2001'], targets: ['3001'] }],
    }),
  );
  const router = await runHeadlessRouter(
    { config, port: 0, adminPort: 0, timeScale: 1, db: file },
    { error: () => {} },
    // Every commit on the thread (small ones would otherwise stay on the engine's connection).
    { writerScript: await routerWriterScript(), writerInlineMaxRows: 0 },
  );
  running.push(() => router.close());
  return { router, file, received };
}

const send = (router: HeadlessRouter, data: unknown) =>
  fetch(`${router.ingress}/publishers/1001/events/order_created`, {
    method: 'POST',
    headers: { 'x-api-key': 'shop-test-key-0123456789', 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });

describe('the headless router with its writer thread', () => {
  it('stores and delivers as on one connection; reads see every commit', async () => {
    const { router, file, received } = await start();
    expect(router.writerThread()).toEqual({ active: true, commits: 0 });
    const replies = await Promise.all([1, 2, 3].map((n) => send(router, { n })));
    expect(replies.map((reply) => reply.status)).toEqual([202, 202, 202]);
    const ids = await Promise.all(
      replies.map(async (reply) => ((await reply.json()) as { id: string }).id),
    );
    // Answered 202: committed by the writer thread, so another connection sees the events now.
    const other = new Database(file, { readonly: true });
    expect(
      other
        .prepare(`SELECT count(*) FROM router_events WHERE id IN (?, ?, ?)`)
        .pluck()
        .get(...ids),
    ).toBe(3);
    other.close();

    await router.engine.settle();
    expect(received).toHaveLength(3);
    const detail = await fetch(`${router.admin}/events/${ids[0]}`, {
      headers: { authorization: `Bearer ${router.adminToken}` },
    });
    const body = (await detail.json()) as {
      overall_status: string;
      executions: { status: string; attempts: { attempt: number; response: { body: string } }[] }[];
    };
    expect(body.overall_status).toBe('Success');
    expect(body.executions[0]!.status).toBe('Success');
    expect(body.executions[0]!.attempts[0]!.response.body).toBe('{"thanks":true}');
    expect(router.writerThread()!.active).toBe(true);
    expect(router.writerThread()!.commits).toBeGreaterThanOrEqual(2);
  });

  it('a commit the writer thread could not make answers 500 and nothing is sent', async () => {
    const { router, file, received } = await start();
    const undo = failEventInserts(file);
    const refused = await send(router, { n: 1 });
    undo();
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^The router could not store this event \(disk I\/O error \(simulated\)\)\. Nothing was recorded/,
    );
    expect((await send(router, { n: 2 })).status).toBe(202);
    await router.engine.settle();
    expect(received).toEqual([expect.objectContaining({ attempt: 1 })]);
    expect(router.engine.listEvents({}).total).toBe(1);
    // A failed commit is the commit's, not the thread's: it keeps writing.
    expect(router.writerThread()!.active).toBe(true);
  });
});
