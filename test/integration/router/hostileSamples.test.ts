/**
 * Issue 14: schema keys and samples that used to break the engine. A key path through
 * `__proto__` was stored and replayed after every restart, polluting Object.prototype; samples
 * past the limits held the engine for minutes or threw RangeError.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SCHEMA_KEYS } from '../../../src/shared/ipc/areas/router';
import { customSetup, post, testRouter } from './routerSupport';

const inherited = () => Object.getOwnPropertyNames(Object.prototype).sort();
const clean = inherited();

afterEach(() => {
  // A failing test must not leave the rest of the run polluted.
  for (const key of inherited()) {
    if (!clean.includes(key)) delete (Object.prototype as Record<string, unknown>)[key];
  }
});

const wide = (keys: number) =>
  Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));

describe('hand-edited schema keys', () => {
  it('a __proto__ edit stored before the fix is dropped on the next start, the others kept', async () => {
    const first = await testRouter();
    const { event } = await customSetup(first.engine);
    first.engine.editSchemaKeys(
      event.id,
      [{ path: 'constructor.prototype', type: 'string', required: true }],
      [],
    );
    // What the unfixed engine stored for `router.editSchemaKeys` with `__proto__.polluted`.
    first.db.prepare('UPDATE router_event_configs SET edits = ? WHERE id = ?').run(
      JSON.stringify([
        { op: 'add', path: 'constructor.prototype', type: 'string', required: true },
        { op: 'add', path: '__proto__.polluted', type: 'string', required: true },
      ]),
      event.id,
    );
    await first.close();

    const logged: string[] = [];
    const again = await testRouter({
      file: first.file,
      log: { error: (message) => logged.push(message) },
    });
    const version = again.engine.setSample(event.id, { order: 'B-2', amount: 3 }, true);
    expect(inherited()).toEqual(clean);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(version.schema.properties).toMatchObject({
      constructor: { type: 'object', properties: { prototype: { type: 'string' } } },
    });
    expect(logged).toEqual([expect.stringMatching(/^Dropped 1 stored hand edit.*"__proto__"/)]);
    // The cleaned list was written back: the next sample reports nothing more.
    again.engine.setSample(event.id, { order: 'B-3' }, true);
    expect(logged).toHaveLength(1);
  });

  it('refuses a key path through __proto__ from any caller, changing nothing', async () => {
    const { engine } = await testRouter();
    const { event } = await customSetup(engine);
    const before = engine.schemaVersions(event.id);
    expect(() =>
      engine.editSchemaKeys(
        event.id,
        [{ path: 'customer.__proto__.polluted', type: 'string', required: true }],
        [],
      ),
    ).toThrow(
      /customer\.__proto__\.polluted names the key "__proto__".*The schema was not changed/,
    );
    expect(() => engine.editSchemaKeys(event.id, [], ['__proto__'])).toThrow(/"__proto__"/);
    expect(engine.schemaVersions(event.id)).toEqual(before);
    expect(inherited()).toEqual(clean);
  });
});

describe('samples past the limits', () => {
  it('a default publisher event past the limits is recorded and routed; only its schema stays', async () => {
    const logged: string[] = [];
    const { engine } = await testRouter({ log: { error: (message) => logged.push(message) } });
    engine.raisePlatformEvent('data_updates', 'SyncCompleted', { run_id: 'r1', records: 3 });
    const publisher = engine
      .overview()
      .publishers.find((p) => p.events.some((e) => e.apiName === 'SyncCompleted'))!;
    const config = publisher.events.find((e) => e.apiName === 'SyncCompleted')!;
    const versions = engine.schemaVersions(config.id).length;

    engine.raisePlatformEvent('data_updates', 'SyncCompleted', wide(MAX_SCHEMA_KEYS + 1));
    await engine.settle();
    expect(engine.listEvents({ publisherId: publisher.id }).total).toBe(2);
    expect(engine.schemaVersions(config.id)).toHaveLength(versions);
    expect(logged).toEqual([expect.stringMatching(/schema of .*SyncCompleted was not updated/)]);
  });

  it('a capture past the limits answers 400 with the reason, and captures nothing', async () => {
    const { engine, ingress } = await testRouter();
    const { event } = await customSetup(engine);
    const captureUrl = ingress.captureUrl(engine.startCapture(event.id).token)!;
    const reply = await post(captureUrl, wide(5_000));
    expect(reply.status).toBe(400);
    expect(reply.body!.error).toMatch(
      new RegExp(
        `more than ${MAX_SCHEMA_KEYS} keys.*The schema was not changed.*Nothing was captured`,
      ),
    );
    expect(engine.schemaVersions(event.id)).toHaveLength(1);
  });
});
