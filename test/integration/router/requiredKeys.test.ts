/**
 * Issue 19: a schema generated from a sample no longer marks every key required. The user ticks
 * the keys an event must have when generating (the rest are optional), changes that afterwards,
 * and events are validated as chosen: one without an optional key passes, one without a required
 * key is told so in words.
 */
import { describe, expect, it } from 'vitest';
import { RouterInputError } from '../../../src/main/router/engine/routerErrors';
import { customSetup, testRouter } from './routerSupport';

const SAMPLE = { order: 'A-1', amount: 10, customer: { email: 'a@example.com', name: 'Ada' } };

async function setup() {
  const router = await testRouter();
  const { publisher, event } = await customSetup(router.engine);
  /** The schema errors kept on an event published now with this data. */
  const errorsOf = async (data: Record<string, unknown>) => {
    const id = router.engine.publish(publisher.id, 'order_created', data);
    await router.engine.settle();
    return router.engine.getEvent(id).schemaErrors;
  };
  return { ...router, event, errorsOf };
}

const without = (key: string, value: Record<string, unknown> = SAMPLE) =>
  Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

describe('required keys of a schema generated from a sample', () => {
  it('are none unless ticked: an event missing any key of the sample passes', async () => {
    const { engine, event, errorsOf } = await setup();
    const version = engine.setSample(event.id, SAMPLE, false, { required: [] });
    expect(version.schema).not.toHaveProperty('required');
    expect(await errorsOf({})).toEqual([]);
    expect(await errorsOf({ customer: {} })).toEqual([]);
    // Left out altogether (createEvent's sample, a capture, a default publisher): optional too.
    expect(
      engine.createEvent({ publisherId: event.publisherId, apiName: 'x', sample: SAMPLE }),
    ).toMatchObject({ paths: expect.arrayContaining([{ ...pathOf('order'), required: false }]) });
  });

  it('are exactly those ticked, nested ones included; events are validated as chosen', async () => {
    const { engine, event, errorsOf } = await setup();
    engine.setSample(event.id, SAMPLE, false, { required: ['order', 'customer.email'] });
    const required = engine
      .overview()
      .publishers.flatMap((p) => p.events)
      .find((e) => e.id === event.id)!
      .paths.filter((p) => p.required)
      .map((p) => p.path);
    expect(required).toEqual(['order', 'customer.email']);

    // Missing an optional key: valid.
    expect(await errorsOf(without('amount'))).toEqual([]);
    expect(await errorsOf({ ...SAMPLE, customer: { email: 'b@example.com' } })).toEqual([]);
    // Missing a required key: the error says which, where.
    expect(await errorsOf(without('order'))).toEqual([
      "(data): must have required property 'order'",
    ]);
    expect(await errorsOf({ ...SAMPLE, customer: { name: 'Bo' } })).toEqual([
      "/customer: must have required property 'email'",
    ]);
  });

  it('can be changed afterwards, and validation follows at once', async () => {
    const { engine, event, errorsOf } = await setup();
    engine.setSample(event.id, SAMPLE, false, { required: ['order'] });
    expect(await errorsOf(without('amount'))).toEqual([]);

    const edited = engine.editSchemaKeys(
      event.id,
      [],
      [],
      [
        { path: 'amount', required: true },
        { path: 'order', required: false },
      ],
    );
    // Version 1 is customSetup's sample, 2 the generation above.
    expect(edited).toMatchObject({ version: 3, source: 'edit', schema: { required: ['amount'] } });
    expect(await errorsOf(without('amount'))).toEqual([
      "(data): must have required property 'amount'",
    ]);
    expect(await errorsOf(without('order'))).toEqual([]);
    expect(engine.validateSample(event.id, without('amount'))).toEqual({
      valid: false,
      version: 3,
      errors: ["(data): must have required property 'amount'"],
    });
  });

  it('survive merged samples and captures, and a new generation decides again for its keys', async () => {
    const { engine, event } = await setup();
    engine.setSample(event.id, SAMPLE, false, { required: ['amount'] });
    const merged = engine.setSample(event.id, { order: 'B', amount: 1, channel: 'web' }, true);
    expect(merged.schema.required).toEqual(['amount']);
    expect(Object.keys(merged.schema.properties as object)).toContain('channel');

    const again = engine.setSample(event.id, { order: 'C', amount: 2 }, false, {
      required: ['order'],
    });
    expect(again.schema.required).toEqual(['order']);
  });

  it('refuses, in words and changing nothing, a tick the sample lacks or a choice for a key the schema lacks', async () => {
    const { engine, event } = await setup();
    const before = engine.schemaVersions(event.id);
    expect(() =>
      engine.setSample(event.id, SAMPLE, false, { required: ['customer.phone'] }),
    ).toThrow(
      new RouterInputError(
        'customer.phone is not a key of the sample (nested keys are written as customer.email), so it cannot be required. The schema was not changed; tick only keys the sample has.',
      ),
    );
    expect(() =>
      engine.editSchemaKeys(event.id, [], [], [{ path: 'coupon', required: true }]),
    ).toThrow(
      'coupon is not a key of the schema (version 1), so it cannot be made required or optional. The schema was not changed; add the key first.',
    );
    expect(engine.schemaVersions(event.id)).toEqual(before);
  });
});

function pathOf(path: string) {
  return { path, type: expect.anything(), jsonType: expect.any(String), format: null };
}
