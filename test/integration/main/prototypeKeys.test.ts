/**
 * Issue 14, item 5: no user-supplied key may reach a prototype. Every request of the contract
 * (src/shared/ipc/contract.ts and src/shared/ipc/areas/*) is called through the real dispatcher of a
 * seeded engine with `__proto__`, `constructor` and `prototype` wherever its argument takes a
 * key, a key path, a string or JSON: one at a time, as an extra own member and as the name of an
 * existing one of every object, as every string and as segments of dotted paths in it, starting
 * from a well-formed argument with ids the engine has (the same every run, so a failure repeats).
 *
 * Each call must answer with an outcome, leave every built-in prototype as it was, and never
 * fail unexpectedly: a refusal is fine (and for `__proto__` in a key path, expected), an error
 * the handler did not mean is not. `constructor` and `prototype` are plain JSON keys and work.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import type { Engine } from '../../../src/main/engine';
import { requestNames, requests } from '../../../src/shared/ipc/contract';
import { testEngine } from '../../support/engine';
import type { z } from 'zod';
import { hostileArgs, keyVariants } from '../../support/hostileArgs';
import { prototypeSnapshot, seedEngine } from '../../support/seedEngine';

/** Candidates drawn for a request's base argument; the one the gate accepts with most in it wins. */
const BASE_CANDIDATES = 30;

const origin = { transport: 'internal' as const, trusted: true, description: 'prototype keys' };

function seededEngine(): Engine {
  return testEngine({
    secrets: new MemorySecretStore(),
    autoSync: false,
    sync: { engine: { commentBackfill: false } },
    openExternal: () => undefined,
    openLink: () => undefined,
  });
}

/**
 * A well-formed argument for the request, with ids the engine has: the candidate the gate
 * accepts that has the most strings and objects to put keys into (the same every run).
 */
function baseArgs(schema: z.ZodType, ids: (member: string | undefined) => readonly string[]) {
  const candidates = fc.sample(hostileArgs(schema, { ids, plain: true }), {
    numRuns: BASE_CANDIDATES,
    seed: 14,
  });
  const accepted = candidates.filter((candidate) => schema.safeParse(candidate).success);
  const size = (value: unknown) => JSON.stringify(value ?? null).length;
  return [...(accepted.length > 0 ? accepted : candidates)].sort((a, b) => size(b) - size(a))[0];
}

function shown(args: unknown): string {
  const text = JSON.stringify(args) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

describe('prototype keys in every request of the contract', () => {
  it('reach no prototype and break no handler, whichever request carries them', async () => {
    const engine = seededEngine();
    const { ids, quiet } = await seedEngine(engine);
    const prototypes = prototypeSnapshot();
    // Sign-out and sign-in last: a sign-out may take the mirror the other requests read.
    const names = [...requestNames].sort(
      (a, b) => Number(a.startsWith('accounts.')) - Number(b.startsWith('accounts.')),
    );
    const unexpected: string[] = [];
    for (const name of names) {
      const schema = requests[name].args;
      for (const args of keyVariants(baseArgs(schema, ids))) {
        // Syncs are what keeps running after a call (and are stopped when slow); the calls of
        // other areas need no wait.
        if (name.startsWith('sync.') || name.startsWith('accounts.')) await quiet();
        const pending = engine.dispatcher.dispatch(name, args, origin);
        // A sign-in waits for a browser; cancelling it makes it answer.
        const timer = setTimeout(
          () => void engine.dispatcher.dispatch('accounts.cancelSignIn', undefined, origin),
          3_000,
        );
        const outcome = await pending.finally(() => clearTimeout(timer));
        expect(outcome, `${name}(${shown(args)})`).toHaveProperty('ok');
        expect(prototypeSnapshot(), `prototypes after ${name}(${shown(args)})`).toEqual(prototypes);
        if (!outcome.ok && outcome.error.message.includes('failed unexpectedly')) {
          unexpected.push(`${name}(${shown(args)}): ${outcome.error.message}`);
        }
      }
    }
    expect(unexpected).toEqual([]);
  }, 120_000);

  it('keeps constructor and prototype as schema keys, and refuses __proto__ saying why', async () => {
    const engine = seededEngine();
    const call = (name: string, args: unknown) => engine.dispatcher.dispatch(name, args, origin);
    const created = await call('router.createPublisher', { name: 'Shop' });
    const publisherId = created.ok
      ? (created.value as { publisher: { id: string } }).publisher.id
      : '';
    const event = await call('router.createEvent', {
      publisherId,
      apiName: 'order',
      sample: JSON.parse('{"constructor": {"prototype": "x"}, "order": "A-1"}'),
    });
    expect(event.ok).toBe(true);
    const eventConfigId = event.ok ? (event.value as { id: string }).id : '';

    const edited = await call('router.editSchemaKeys', {
      eventConfigId,
      add: [{ path: 'prototype.constructor', type: 'number', required: true }],
    });
    expect(edited).toMatchObject({
      ok: true,
      value: {
        schema: {
          properties: {
            constructor: { properties: { prototype: { type: 'string' } } },
            prototype: { properties: { constructor: { type: 'number' } } },
          },
        },
      },
    });

    const refused = await call('router.editSchemaKeys', {
      eventConfigId,
      add: [{ path: '__proto__.polluted', type: 'string', required: true }],
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(!refused.ok && refused.error.message).toContain(
      'may not name the key "__proto__": JavaScript reads a key named "__proto__" as an object\'s prototype, not as data; rename that key',
    );
    const sample = await call('router.setSample', {
      eventConfigId,
      sample: JSON.parse('{"customer": {"__proto__": {"polluted": true}}}'),
    });
    expect(!sample.ok && sample.error.message).toBe(
      'At customer the sample has a key named "__proto__": JavaScript reads a key named "__proto__" as an object\'s prototype, not as data. Rename that key. The schema was not changed.',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
