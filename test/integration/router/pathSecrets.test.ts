/**
 * A webhook address whose path is its credential (Slack's /services/T…/B…/<token>): delivered to
 * as configured, but its token is in no attempt, answer or failure the router stores or shows,
 * rows stored before included, nor in the headless admin API's answer about the target.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  runHeadlessRouter,
  type HeadlessRouter,
} from '../../../src/main/router/headless/runHeadlessRouter';
import { tempDir } from '../../support/tempDir';
import { customSetup, testRouter } from './routerSupport';

const TOKEN = 'x7Kq2LmP9vRt4WzN8cYb3HdF';
const HOOK_PATH = `/services/T0123ABCD/B0456EFGH/${TOKEN}`;

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A target that answers with the address it was called at (as echo endpoints do). */
async function echoingEndpoint() {
  const received: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    received.push(request.url ?? '');
    response.writeHead(404, { 'content-type': 'application/json', location: request.url });
    response.end(JSON.stringify({ error: `no hook at ${request.url}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('a webhook address whose path is its credential', () => {
  it('is delivered to whole, and stored and shown without its token', async () => {
    const { engine, db, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const hook = await echoingEndpoint();
    const webhook = engine.saveTarget({
      name: 'slack',
      kind: 'webhook',
      url: `${hook.base}${HOOK_PATH}`,
    });
    // Its own configuration keeps the address whole: that is what is sent.
    expect(webhook.url).toBe(`${hook.base}${HOOK_PATH}`);
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [webhook.id] });
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-1' });
    await engine.settle();
    await advance(0);

    expect(hook.received).toEqual([HOOK_PATH]);
    const detail = engine.getEvent(id);
    const attempt = detail.executions[0]!.attempts[0]!;
    expect(attempt.request.url).toBe(`${hook.base}/services/T0123ABCD/B0456EFGH/[redacted]`);
    expect(attempt.response?.status).toBe(404);
    expect(JSON.stringify(detail)).not.toContain(TOKEN);
    await vi.waitFor(() => {
      const rows = db.prepare('SELECT request, response, error FROM router_attempts').all();
      expect(rows).toHaveLength(1);
      expect((rows[0] as { response: string | null }).response).not.toBeNull();
      expect(JSON.stringify(rows)).not.toContain(TOKEN);
    });

    // A row an older PortalDesk stored with the address whole is shown without it too.
    db.prepare('UPDATE router_attempts SET request = ?, error = ?').run(
      JSON.stringify({
        method: 'POST',
        url: `${hook.base}${HOOK_PATH}`,
        headers: {},
        body: '{}',
      }),
      `Could not reach ${hook.base}${HOOK_PATH}.`,
    );
    const reread = engine.getEvent(id);
    expect(JSON.stringify(reread)).not.toContain(TOKEN);
    expect(reread.executions[0]!.attempts[0]!.error).toBe(
      `Could not reach ${hook.base}/services/T0123ABCD/B0456EFGH/[redacted].`,
    );
  });

  it("is not in the headless admin API's answer about the target", async () => {
    const file = path.join(tempDir(), 'router.json');
    writeFileSync(
      file,
      JSON.stringify({
        account: { org_id: '60001', project: { name: 'Shop', environment: 'test', id: '60002' } },
        publishers: [],
        targets: [{ id: '3001', url: `https://hooks.slack.com${HOOK_PATH}`, status: 'active' }],
        rules: [],
      }),
    );
    const router: HeadlessRouter = await runHeadlessRouter({
      config: file,
      port: 0,
      adminPort: 0,
      timeScale: 1,
      db: null,
    });
    closing.push(() => router.close());
    const answer = await fetch(`${router.admin}/targets/3001`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${router.adminToken}` },
      body: JSON.stringify({ status: 'inactive' }),
    });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain(TOKEN);
    expect(JSON.parse(text)).toMatchObject({
      status: 'inactive',
      url: 'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/[redacted]',
    });
  });
});
