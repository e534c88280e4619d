import { describe, expect, it } from 'vitest';
import { rawExchange } from '../../support/rawHttp';
import { customSetup, post, testRouter } from './routerSupport';

describe('the ingress for custom publishers', () => {
  it('refuses a wrong key (401), an unknown publisher or event (404), big or non-JSON bodies (400), recording nothing', async () => {
    const { engine, url } = await testRouter();
    const { publisher, apiKey } = await customSetup(engine);
    const to = (name: string) => `${url}/publishers/${publisher.id}/events/${name}`;
    const key = { 'x-api-key': apiKey };

    expect((await post(to('order_created'), {}, { 'x-api-key': 'wrong' })).status).toBe(401);
    expect((await post(to('order_created'), {})).status).toBe(401);
    expect((await post(`${url}/publishers/123/events/order_created`, {}, key)).status).toBe(404);
    const unknown = await post(to('order_shipped'), {}, key);
    expect(unknown.status).toBe(404);
    expect(unknown.body!.error).toMatch(/no event named "order_shipped"/);
    const big = await post(to('order_created'), { blob: 'x'.repeat(64 * 1024) }, key);
    expect(big.status).toBe(400);
    expect(big.body!.error).toMatch(/over 64 KB/);
    const broken = await post(to('order_created'), '{"order":', key);
    expect(broken.status).toBe(400);
    expect(broken.body!.error).toMatch(/not valid JSON/);
    expect((await post(to('order_created'), [1, 2], key)).status).toBe(400);
    const garbled = await post(to('order_%E0%A4%A'), { order: 'B-1' }, key);
    expect(garbled.status).toBe(400);
    expect(garbled.body!.error).toMatch(/malformed %-escape/);
    // A request line that is no address at all.
    const port = Number(new URL(url).port);
    expect(
      await rawExchange(
        port,
        `POST http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\n\r\n`,
      ),
    ).toBe('HTTP/1.1 400 Bad Request');
    expect(engine.listEvents({}).total).toBe(0);

    const accepted = await post(to('order_created'), { order: 'B-1' }, key);
    expect(accepted.status).toBe(202);
    expect(accepted.body!.id).toMatch(/^[0-9]{18}$/);
    expect(engine.listEvents({}).total).toBe(1);
  });

  it('allows 500 requests a minute per publisher, then answers 429 for 60 seconds', async () => {
    const { engine, url, clock } = await testRouter();
    const { publisher, apiKey } = await customSetup(engine);
    const other = engine.createPublisher({ name: 'Other' });
    engine.createEvent({ publisherId: other.publisher.id, apiName: 'ping' });
    const send = (id: string, name: string, key: string) =>
      post(`${url}/publishers/${id}/events/${name}`, { n: 1 }, { 'x-api-key': key });

    for (let i = 0; i < 500; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () => send(publisher.id, 'order_created', apiKey)),
      );
      expect(batch.every((reply) => reply.status === 202)).toBe(true);
    }
    const refused = await send(publisher.id, 'order_created', apiKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    // Another publisher has its own budget.
    expect((await send(other.publisher.id, 'ping', other.apiKey)).status).toBe(202);
    clock.advance(59_000);
    expect((await send(publisher.id, 'order_created', apiKey)).status).toBe(429);
    clock.advance(1_000);
    expect((await send(publisher.id, 'order_created', apiKey)).status).toBe(202);
    await engine.settle();
    expect(engine.listEvents({ publisherId: publisher.id }).total).toBe(501);
  });
});

describe('live capture URLs', () => {
  it('merge what they receive into the schema for 15 minutes, then answer 410', async () => {
    const { engine, ingress, clock } = await testRouter();
    const { publisher } = engine.createPublisher({ name: 'CRM' });
    const event = engine.createEvent({ publisherId: publisher.id, apiName: 'lead_created' });
    expect(event.schemaVersion).toBeNull();
    const capture = engine.startCapture(event.id);
    const captureUrl = ingress.captureUrl(capture.token)!;

    const first = await post(captureUrl, { name: 'Ada', score: 3 });
    expect(first).toMatchObject({ status: 200, body: { captured: true, version: 1 } });
    clock.advance(14 * 60_000 + 59_999);
    const second = await post(captureUrl, { name: 'Bob', email: 'bob@example.com' });
    expect(second).toMatchObject({ status: 200, body: { captured: true, version: 2 } });
    const schema = engine.schemaVersions(event.id)[0]!.schema as { properties: object };
    expect(Object.keys(schema.properties).sort()).toEqual(['email', 'name', 'score']);
    // Captured keys are optional until the user makes one required (issue 19).
    expect(schema).not.toHaveProperty('required');
    expect(engine.schemaVersions(event.id).map((v) => [v.version, v.source])).toEqual([
      [2, 'capture'],
      [1, 'capture'],
    ]);

    clock.advance(1);
    const late = await post(captureUrl, { name: 'Cy', extra: 1 });
    expect(late.status).toBe(410);
    expect(late.body!.error).toMatch(/expired .* valid for 15 minutes.*start a new capture/);
    expect(engine.schemaVersions(event.id)).toHaveLength(2);
  });
});

describe('schemas and the payload version', () => {
  it('an event carries the schema version current when it arrived, and its validation errors', async () => {
    const { engine } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const first = engine.publish(publisher.id, 'order_created', {
      order: 'C-1',
      amount: 'ten',
      customer: { email: 'c@example.com' },
    });
    engine.editSchemaKeys(
      event.id,
      [{ path: 'channel', type: 'string', required: true }],
      ['customer'],
    );
    const second = engine.publish(publisher.id, 'order_created', {
      order: 'C-2',
      amount: 1,
      channel: 'web',
    });
    await engine.settle();
    expect(engine.getEvent(first)).toMatchObject({
      version: 1,
      schemaErrors: ['/amount: must be integer'],
    });
    expect(engine.getEvent(second)).toMatchObject({ version: 2, schemaErrors: [] });
    expect(engine.validateSample(event.id, { order: 'x', amount: 1 })).toEqual({
      valid: false,
      version: 2,
      errors: ["(data): must have required property 'channel'"],
    });
    // A sample past the limits any sample has is refused before it is checked (no long check on
    // the engine's thread), in words.
    const huge = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
    expect(() => engine.validateSample(event.id, huge)).toThrow(
      /larger than 64 KB.*Nothing was validated/,
    );
  });

  it('API names follow the rule; a duplicate or a non-object sample is refused and changes nothing', async () => {
    const { engine } = await testRouter();
    const { publisher } = await customSetup(engine);
    const { EventApiName } = await import('../../../src/shared/ipc/areas/router');
    expect(EventApiName.safeParse('order_created_2').success).toBe(true);
    expect(EventApiName.safeParse('2nd_order').success).toBe(false);
    expect(EventApiName.safeParse('order-created').success).toBe(false);
    expect(EventApiName.safeParse('a'.repeat(51)).success).toBe(false);
    expect(() =>
      engine.createEvent({ publisherId: publisher.id, apiName: 'order_created' }),
    ).toThrow(/already has an event/);
    expect(() =>
      engine.createEvent({ publisherId: publisher.id, apiName: 'x', sample: [1] }),
    ).toThrow(/JSON object/);
    expect(engine.publisher(publisher.id).events.map((e) => e.apiName)).toEqual(['order_created']);
  });
});
