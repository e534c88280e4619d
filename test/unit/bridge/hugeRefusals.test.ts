/**
 * A call whose argument fills web mode's 1 MiB body with wrong items: each wrong item used to be
 * one complaint, all of them checked, put in words and sent back, holding the engine's thread for
 * seconds (router.saveRule: about 6 s) and answering with megabytes. The refusal must stay small
 * and quick whatever the argument's size.
 */
import { describe, expect, it } from 'vitest';
import { ContractDispatcher, type Handlers } from '../../../src/main/bridge/dispatcher';
import { MAX_ISSUES_TOLD } from '../../../src/main/bridge/dispatcher';

const trusted = { transport: 'web' as const, trusted: true, description: 'test' };
/** Web mode's body limit (bridge/webServer.ts). */
const BODY_LIMIT = 1024 * 1024;

const keyed = (count: number, key: (i: number) => string, value: unknown) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [key(i), value]));

/** Arguments of about 1 MiB, each made of many wrong items. */
const HUGE: [string, unknown][] = [
  ['router.saveRule', { name: 'r', eventConfigIds: new Array(500_000).fill(1), targetIds: ['1'] }],
  [
    'outbox.edit',
    { portalId: '1', recordId: '1', changes: keyed(55_000, (i) => `BAD KEY ${i}`, 1) },
  ],
  [
    'outbox.create',
    { portalId: '1', moduleId: '1', values: keyed(55_000, (i) => `BAD KEY ${i}`, 1) },
  ],
  [
    'accounts.signIn',
    {
      profileId: 'x',
      dataCenter: 'us',
      clientId: 'c',
      clientSecret: 's',
      redirectUri: 'r',
      scopes: 'a',
      otherSecrets: keyed(80_000, (i) => `k${i}`, 1),
    },
  ],
  [
    'accounts.addProfile',
    {
      profile: {
        id: 'x',
        name: 'n',
        dataCenters: keyed(40_000, (i) => `k${i}`, { api: 1 }),
        apiPrefix: '/a',
        scopePrefixes: { api: 'A', files: 'B' },
        commentSegment: 'c',
        legacyAuthScheme: 'x',
        multiDc: false,
      },
    },
  ],
  // Keys no request knows: one complaint, which named every one of them (550 kB).
  ['backups.verify', keyed(70_000, (i) => `k${i}`, 1)],
];

describe('a huge wrong argument', () => {
  const dispatcher = new ContractDispatcher({} as Handlers, { warn() {}, error() {} });

  for (const [name, args] of HUGE) {
    it(`${name}: is refused with a bounded answer, in a moment`, async () => {
      expect(JSON.stringify(args).length).toBeLessThanOrEqual(BODY_LIMIT);
      const started = performance.now();
      const outcome = await dispatcher.dispatch(name, args, trusted);
      const tookMs = performance.now() - started;
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe('invalid_argument');
      expect(outcome.error.message).toContain('Nothing was changed');
      expect(outcome.error.issues?.length ?? 0).toBeLessThanOrEqual(MAX_ISSUES_TOLD + 1);
      expect(JSON.stringify(outcome).length).toBeLessThan(16 * 1024);
      // Generous for a shared machine (about 25 ms alone): router.saveRule took 6 s.
      expect(tookMs).toBeLessThan(400);
    });
  }
});

describe('keys no request knows', () => {
  it('are named a few at a time, with how many more', async () => {
    const dispatcher = new ContractDispatcher({} as Handlers, { warn() {}, error() {} });
    const outcome = await dispatcher.dispatch(
      'backups.verify',
      keyed(7, (i) => `k${i}`, 1),
      trusted,
    );
    expect(!outcome.ok && outcome.error.message).toContain(
      'k0, k1, k2, k3, k4 and 2 more keys are not expected here',
    );
  });
});
