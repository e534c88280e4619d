import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/main/api/client/apiClient';
import { emulatorServiceProfile } from '../../../src/main/api/client/emulatorProfile';
import { RequestScheduler } from '../../../src/main/api/requestScheduler';
import { systemClock } from '../../../src/main/api/schedulerClock';
import { grantToken } from '../../support/emulator';
import { emulatorClient, syncSession } from './syncSession';

const schedulers: RequestScheduler[] = [];
afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.close();
});

describe('sync through the request scheduler and across data centers', () => {
  it('never trips a small rate limit, and tells an ETA from the budgets', async () => {
    const s = await syncSession({
      // 5 calls a second per endpoint: the scheduler learns it from the first answers.
      emulator: { records: 200, rateLimit: { calls: 5, windowMs: 1_000, blockMs: 60_000 } },
    });
    const scheduler = new RequestScheduler({ clock: systemClock });
    schedulers.push(scheduler);
    let token = grantToken(s.emulator);
    const client = createApiClient({
      profile: emulatorServiceProfile(s.emulator),
      dataCenter: 'us',
      tokens: {
        accessToken: async () => token,
        refresh: async () => (token = grantToken(s.emulator)),
      },
      scheduler,
    });
    const engine = s.newEngine({
      pageSize: 20,
      commentsPerRun: 4,
      budgets: () => scheduler.report(),
    });
    const result = await engine.syncAccount({ accountId: 'acc-1', client }).done;
    expect(result.state).toBe('done');
    for (const p of s.emulator.portals) expect(s.mirroredIds(p)).toEqual(s.serverIds(p));
    const stats = (await s.admin('GET', 'stats')).body;
    expect(stats.throttled).toBe(0);
    // The busiest key needed several windows: the limit was really in play.
    const busiest = Math.max(...(Object.values(stats.requests.per_endpoint) as number[]));
    expect(busiest).toBeGreaterThan(5);
    const waiting = s
      .progress()
      .filter((p) => p.phase === 'records' && p.total !== null && p.done < p.total);
    expect(waiting.some((p) => (p.etaMs ?? 0) > 0)).toBe(true);
  });

  it('mirrors two data centers side by side, one token each, and keeps each one to its own', async () => {
    const s = await syncSession({ emulator: { records: 100, dcs: ['us', 'eu'], multiDc: true } });
    const eu = emulatorClient(s.emulator, 'eu', { email: 'admin.eu@portaldesk.demo' }).client;
    const [us, europe] = await Promise.all([
      s.engine.syncAccount(s.account).done,
      s.engine.syncAccount({ accountId: 'acc-1', client: eu }).done,
    ]);
    expect(us.state).toBe('done');
    expect(europe.state).toBe('done');
    const portals = s.store.db.prepare('SELECT id, dc FROM portals ORDER BY dc, id').all() as {
      id: string;
      dc: string;
    }[];
    expect(
      portals
        .filter((p) => p.dc === 'us')
        .map((p) => p.id)
        .sort(),
    ).toEqual([...s.emulator.portals].sort());
    const euPortals = portals.filter((p) => p.dc === 'eu');
    expect(euPortals).toHaveLength(1);
    for (const portal of portals) expect(s.mirroredIds(portal.id)).toEqual(s.serverIds(portal.id));
    expect(s.mirroredIds(euPortals[0]!.id).size).toBeGreaterThan(0);

    // Syncing one data center again leaves the other's portals alone.
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    expect(s.mirror.metadata.portal(euPortals[0]!.id)).toBeDefined();
  });
});
