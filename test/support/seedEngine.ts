/**
 * An engine with something behind every request, for tests that call the whole contract (the
 * contract fuzz test, the prototype-key walk): the embedded demo portal signed in and synced,
 * and a router sandbox with a custom publisher, an event with a sample, a request-bin target, a
 * rule and one routed event. Returns every id it saw, for arguments to reuse.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../../src/main/engine';

const origin = { transport: 'internal' as const, trusted: true, description: 'seed' };
/** How long a sync started by a call may run before it is cancelled. */
const SYNC_PATIENCE_MS = 2_000;

async function call<T>(engine: Engine, name: string, args?: unknown): Promise<T> {
  const outcome = await engine.dispatcher.dispatch(name, args, origin);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  return outcome.value as T;
}

/** Which kind of id each argument member names; anything else draws from every id. */
const KIND_OF_MEMBER: Record<string, string> = {
  accountId: 'account',
  portalId: 'portal',
  moduleId: 'module',
  recordId: 'record',
  commentId: 'record',
  publisherId: 'publisher',
  eventConfigId: 'eventConfig',
  eventConfigIds: 'eventConfig',
  targetId: 'target',
  targetIds: 'target',
  ruleId: 'rule',
};

export async function seedEngine(engine: Engine): Promise<{
  /** Ids of the kind an argument member names (see KIND_OF_MEMBER). */
  ids: (member: string | undefined) => readonly string[];
  /** Settles once nothing the engine started in the background is still running. */
  quiet: () => Promise<void>;
}> {
  const byKind = new Map<string, Set<string>>();
  const add = (kind: string, id: string) => {
    const set = byKind.get(kind) ?? new Set<string>();
    byKind.set(kind, set.add(id));
  };
  const quiet = async () => {
    // A full sync, or reading every record's comments once a call turned that on, takes
    // minutes at the service's rate limit: a run still going after a moment is cancelled.
    const idle = await Promise.race([
      engine.sync.idle().then(() => true),
      sleep(SYNC_PATIENCE_MS, false),
    ]);
    if (!idle) {
      await engine.dispatcher.dispatch('sync.cancel', undefined, origin);
      await engine.sync.idle();
    }
    // Outbox replays and router deliveries go to the in-process demo portal and request bin.
    await sleep(10);
  };

  const account = await call<{ accountId: string }>(engine, 'accounts.signInDemo');
  add('account', account.accountId);
  await call(engine, 'sync.start', {});
  await engine.sync.idle();
  for (const portal of await call<{ id: string }[]>(engine, 'records.portals')) {
    add('portal', portal.id);
    const modules = await call<{ id: string }[]>(engine, 'records.modules', {
      portalId: portal.id,
    });
    for (const module of modules.slice(0, 2)) {
      add('module', module.id);
      const window = await call<{ rows: { id: string }[] }>(engine, 'records.query', {
        portalId: portal.id,
        moduleId: module.id,
        offset: 0,
        limit: 3,
      });
      for (const row of window.rows) add('record', row.id);
    }
  }

  const { publisher } = await call<{ publisher: { id: string } }>(
    engine,
    'router.createPublisher',
    { name: 'Fuzz shop' },
  );
  const event = await call<{ id: string }>(engine, 'router.createEvent', {
    publisherId: publisher.id,
    apiName: 'order_created',
    sample: { order: 'A-1', amount: 10, customer: { email: 'a@example.com' } },
  });
  const target = await call<{ id: string }>(engine, 'router.saveTarget', {
    name: 'bin',
    kind: 'request_bin',
  });
  const rule = await call<{ id: string }>(engine, 'router.saveRule', {
    name: 'all orders',
    eventConfigIds: [event.id],
    targetIds: [target.id],
  });
  const sent = await call<{ id: string }>(engine, 'router.sendTestEvent', {
    eventConfigId: event.id,
  });
  add('publisher', publisher.id);
  add('eventConfig', event.id);
  add('target', target.id);
  add('rule', rule.id);
  add('event', sent.id);
  await quiet();
  const all = [...byKind.values()].flatMap((set) => [...set]);
  const ids = (member: string | undefined) => {
    const kind = member === undefined ? undefined : KIND_OF_MEMBER[member];
    return kind ? [...(byKind.get(kind) ?? [])] : all;
  };
  return { ids, quiet };
}

/** The keys of the built-in prototypes and of Object itself: what prototype pollution changes. */
export function prototypeSnapshot(): Record<string, string[]> {
  const keysOf = (value: object) => Reflect.ownKeys(value).map(String).sort();
  return {
    Object: keysOf(Object),
    'Object.prototype': keysOf(Object.prototype),
    'Array.prototype': keysOf(Array.prototype),
    'Function.prototype': keysOf(Function.prototype),
    'String.prototype': keysOf(String.prototype),
  };
}
