import { describe, expect, it } from 'vitest';
import {
  OFFLINE_RETRY_DELAYS_MS,
  PERIODIC_SYNC_MS,
  planAutoSync,
} from '../../../src/main/sync/autoSyncPlan';

describe('planAutoSync', () => {
  it('retries sooner after going offline, backing off to every five minutes', () => {
    let state = { offlineStreak: 0 };
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const decision = planAutoSync(state, 'offline');
      delays.push(decision.delayMs!);
      state = decision.state;
    }
    expect(delays).toEqual([15_000, 30_000, 60_000, 120_000, 300_000, 300_000, 300_000, 300_000]);
    expect(Math.max(...delays)).toBe(OFFLINE_RETRY_DELAYS_MS.at(-1));
  });

  it('goes back to the periodic sync once the service answers, whether or not all went well', () => {
    for (const ended of ['done', 'failed'] as const) {
      const decision = planAutoSync({ offlineStreak: 3 }, ended);
      expect(decision).toEqual({ state: { offlineStreak: 0 }, delayMs: PERIODIC_SYNC_MS });
    }
    // The next outage starts again from the shortest wait.
    expect(planAutoSync({ offlineStreak: 0 }, 'offline').delayMs).toBe(15_000);
  });

  it('does not retry a sync the user cancelled before the periodic one', () => {
    expect(planAutoSync({ offlineStreak: 2 }, 'cancelled', 60_000)).toEqual({
      state: { offlineStreak: 2 },
      delayMs: 60_000,
    });
  });

  it('plans no periodic sync when it is turned off, but still retries after going offline', () => {
    for (const ended of ['done', 'failed', 'cancelled'] as const) {
      expect(planAutoSync({ offlineStreak: 0 }, ended, null).delayMs).toBeNull();
    }
    expect(planAutoSync({ offlineStreak: 0 }, 'offline', null).delayMs).toBe(15_000);
  });
});
