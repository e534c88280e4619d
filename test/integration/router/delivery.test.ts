import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERED_PAYLOAD_SCHEMA } from '../../../src/main/router/delivery/deliveredPayloadSchema';
import { SchemaValidator } from '../../../src/main/router/schema/schemaValidator';
import { customSetup, post, testRouter } from './routerSupport';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local webhook endpoint answering with `answer(n)` for its n-th request (0-based). */
async function endpoint(
  answer: (n: number) => { status: number; headers?: Record<string, string> },
) {
  const received: {
    method: string;
    url: string;
    headers: IncomingMessage['headers'];
    body: unknown;
  }[] = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const reply = answer(received.length);
    received.push({
      method: request.method!,
      url: request.url!,
      headers: request.headers,
      body: text ? JSON.parse(text) : null,
    });
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end('{"thanks":true}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('deliveries', () => {
  it('a flaky target: attempt 1 fails, the retry a minute later (attempt 2) succeeds', async () => {
    const { engine, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const target = engine.saveTarget({
      name: 'flaky',
      kind: 'fault',
      fault: { mode: 'flaky', failureRate: 0.5 },
    });
    const rule = engine.saveRule({
      name: 'all',
      eventConfigIds: [event.id],
      targetIds: [target.id],
      retryCount: 3,
    });

    const id = engine.publish(publisher.id, 'order_created', { order: 'A-2', amount: 20 });
    await engine.settle();
    let detail = engine.getEvent(id);
    expect(detail.status).toBe('In Progress');
    expect(detail.executions[0]).toMatchObject({
      ruleId: rule.id,
      targetId: target.id,
      status: 'Retry Scheduled',
    });
    expect(detail.executions[0]!.nextAttemptAt! - detail.timeMs).toBe(60_000);

    await advance(59_999);
    expect(engine.getEvent(id).executions[0]!.attempts).toHaveLength(1);
    await advance(1);
    detail = engine.getEvent(id);
    expect(detail.status).toBe('Success');
    const attempts = detail.executions[0]!.attempts;
    expect(attempts.map((a) => [a.attempt, a.response?.status, a.outcome])).toEqual([
      [1, 500, 'retry'],
      [2, 200, 'success'],
    ]);
    expect(attempts.map((a) => JSON.parse(a.request.body!).attempt)).toEqual([1, 2]);
  });

  it('an always-failing target is tried 1 + retry count times with backoff, then Failed', async () => {
    const { engine, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const target = engine.saveTarget({
      name: 'down',
      kind: 'fault',
      fault: { mode: 'always_500' },
    });
    engine.saveRule({
      name: 'all',
      eventConfigIds: [event.id],
      targetIds: [target.id],
      retryCount: 2,
    });
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-3' });
    await engine.settle();
    await advance(60_000);
    await advance(120_000);
    const detail = engine.getEvent(id);
    expect(detail.status).toBe('Failed');
    const attempts = detail.executions[0]!.attempts;
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts.map((a) => a.startedAt - detail.timeMs)).toEqual([0, 60_000, 180_000]);
    expect(detail.executions[0]!.note).toMatch(/no retries are left/);
  });

  it('a 429 target is retried after its Retry-After, not the backoff', async () => {
    const { engine, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const target = engine.saveTarget({
      name: 'busy',
      kind: 'fault',
      fault: { mode: 'rate_limited', retryAfterSeconds: 5 },
    });
    engine.saveRule({
      name: 'all',
      eventConfigIds: [event.id],
      targetIds: [target.id],
      retryCount: 1,
    });
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-4' });
    await engine.settle();
    expect(engine.getEvent(id).executions[0]!.nextAttemptAt! - engine.getEvent(id).timeMs).toBe(
      5_000,
    );
    await advance(5_000);
    expect(engine.getEvent(id)).toMatchObject({ status: 'Failed' });
    expect(engine.getEvent(id).executions[0]!.attempts).toHaveLength(2);
  });

  it('a rule whose target is deleted leaves the event Dropped, and nothing is sent', async () => {
    const { engine } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [bin.id] });
    engine.setTargetStatus(bin.id, 'deleted');
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-5' });
    await engine.settle();
    expect(engine.getEvent(id)).toMatchObject({
      status: 'Dropped',
      executions: [{ status: 'Dropped', attempts: [] }],
    });
    expect(engine.requestBin(bin.id)).toEqual([]);
  });

  it('no matching rule leaves the event Unmatched, with the explanation saying why', async () => {
    const { engine } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    engine.saveRule({
      name: 'big orders',
      eventConfigIds: [event.id],
      targetIds: [bin.id],
      filter: {
        operator: 'AND',
        conditions: [{ path: 'amount', type: 'number', comparator: 'gte', value: 100 }],
      },
    });
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-6', amount: 99 });
    await engine.settle();
    const detail = engine.getEvent(id);
    expect(detail.status).toBe('Unmatched');
    expect(detail.explanation[0]!.filter!.conditions[0]).toMatchObject({
      actual: 99,
      expected: 100,
      matched: false,
    });
  });

  it('an inactive publisher: accepted by the ingress, recorded as Unprocessed, never delivered', async () => {
    const { engine, url } = await testRouter();
    const { publisher, apiKey, event } = await customSetup(engine);
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [bin.id] });
    engine.setPublisherStatus(publisher.id, 'inactive');
    const reply = await post(
      `${url}/publishers/${publisher.id}/events/order_created`,
      { order: 'A-7' },
      { 'x-api-key': apiKey },
    );
    expect(reply.status).toBe(202);
    await engine.settle();
    expect(engine.getEvent(reply.body!.id as string)).toMatchObject({
      status: 'Unprocessed',
      executions: [],
    });
    expect(engine.requestBin(bin.id)).toEqual([]);
  });

  it('a webhook receives the spec payload with templated headers and query, validated against the spec schema', async () => {
    const { engine, url } = await testRouter();
    const { publisher, apiKey, event } = await customSetup(engine);
    const hook = await endpoint(() => ({ status: 200 }));
    const target = engine.saveTarget({
      name: 'hook',
      kind: 'webhook',
      url: hook.url,
      method: 'PUT',
      headers: [{ name: 'X-Order', value: '{{order}}' }],
      query: [{ name: 'email', value: '{{customer.email}}' }],
    });
    const rule = engine.saveRule({
      name: 'all',
      eventConfigIds: [event.id],
      targetIds: [target.id],
    });
    const reply = await post(
      `${url}/publishers/${publisher.id}/events/order_created`,
      { order: 'A-8', amount: 10, customer: { email: 'b@example.com' } },
      { 'x-api-key': apiKey },
    );
    expect(reply.status).toBe(202);
    await engine.settle();
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request!.method).toBe('PUT');
    expect(request!.url).toBe('/hook?email=b%40example.com');
    expect(request!.headers['x-order']).toBe('A-8');
    const payload = request!.body as Record<string, unknown>;
    expect(new SchemaValidator().validate(DELIVERED_PAYLOAD_SCHEMA, payload)).toEqual([]);
    expect(payload).toMatchObject({
      rule_id: rule.id,
      target_id: target.id,
      version: 1,
      attempt: 1,
      account: { org_id: engine.account().org_id },
      events: [
        {
          id: reply.body!.id,
          data: { order: 'A-8', amount: 10, customer: { email: 'b@example.com' } },
          time_in_ms: Date.parse('2024-05-15T12:00:00Z'),
          source: `${publisher.id}/custom/${engine.account().org_id}`,
          event_config: { id: event.id, api_name: 'order_created' },
        },
      ],
    });
    const detail = engine.getEvent(reply.body!.id as string);
    expect(detail.status).toBe('Success');
    expect(detail.executions[0]!.attempts[0]!.response).toMatchObject({
      status: 200,
      body: '{"thanks":true}',
    });
  });

  it("a target's rate limit spaces deliveries evenly, each in its own slot", async () => {
    const { engine, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const bin = engine.saveTarget({ name: 'slow bin', kind: 'request_bin', rateLimitPerSecond: 2 });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [bin.id] });
    const ids = [1, 2, 3, 4].map((n) => engine.publish(publisher.id, 'order_created', { n }));
    await engine.settle();
    expect(engine.requestBin(bin.id)).toHaveLength(1);
    for (let step = 0; step < 3; step++) await advance(500);
    const starts = ids.map((id) => {
      const detail = engine.getEvent(id);
      return detail.executions[0]!.attempts[0]!.startedAt - detail.timeMs;
    });
    expect(starts).toEqual([0, 500, 1_000, 1_500]);
    expect(ids.map((id) => engine.getEvent(id).status)).toEqual([
      'Success',
      'Success',
      'Success',
      'Success',
    ]);
  });

  it('unfinished deliveries resume after a restart', async () => {
    const first = await testRouter();
    const { publisher, event } = await customSetup(first.engine);
    const target = first.engine.saveTarget({
      name: 'flaky',
      kind: 'fault',
      fault: { mode: 'flaky', failureRate: 0.5 },
    });
    first.engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [target.id] });
    const id = first.engine.publish(publisher.id, 'order_created', { order: 'A-9' });
    await first.engine.settle();
    expect(first.engine.getEvent(id).status).toBe('In Progress');
    await first.close();

    const second = await testRouter({
      file: first.file,
      startMs: Date.parse('2024-05-15T12:05:00Z'),
    });
    // The retry was due at 12:01; the new run starts at 12:05 and makes it at once.
    await second.advance(0);
    expect(second.engine.getEvent(id).executions[0]!.attempts.map((a) => a.attempt)).toEqual([
      1, 2,
    ]);
    // Fault counters start afresh, so attempt 2 fails again; attempt 3 comes two minutes later.
    await second.advance(120_000);
    const detail = second.engine.getEvent(id);
    expect(detail.executions[0]!.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(detail.status).toBe('Success');
  });

  it('an event accepted but not yet routed when the process stopped is routed after a restart', async () => {
    const first = await testRouter();
    const { publisher, event } = await customSetup(first.engine);
    const target = first.engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    first.engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [target.id] });
    // Routing happens on the next turn of the event loop; the process stops before it.
    const id = first.engine.publish(publisher.id, 'order_created', { order: 'A-10' });
    await first.close();

    const second = await testRouter({ file: first.file });
    await second.engine.settle();
    const detail = second.engine.getEvent(id);
    expect(detail.executions).toHaveLength(1);
    expect(detail.status).toBe('Success');
    expect(second.engine.requestBin(target.id)).toHaveLength(1);
  });
});
