import { afterEach, describe, expect, it } from 'vitest';
import { rateCeilingSeconds } from '../../../src/main/api/rateCeiling';
import { RequestScheduler } from '../../../src/main/api/requestScheduler';
import { systemClock } from '../../../src/main/api/schedulerClock';
import { grantToken, testEmulator } from '../../support/emulator';
import { portalsThrough, throttled } from './schedulerSupport';

const open: RequestScheduler[] = [];
afterEach(() => {
  for (const scheduler of open.splice(0)) scheduler.close();
});

describe('the request scheduler against the emulator', () => {
  it('sends 30 requests to one endpoint limited to 5 a second without a single 429', async () => {
    // A 1 s window: the shortest the emulator's whole-second RateLimit-Window header can state.
    const emulator = await testEmulator({
      records: 0,
      rateLimit: { calls: 5, windowMs: 1_000, blockMs: 60_000 },
    });
    const token = grantToken(emulator);
    // It starts from the spec's 200 per 2 minutes and learns 5 per second from the headers.
    const scheduler = new RequestScheduler({ clock: systemClock });
    open.push(scheduler);
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => portalsThrough(scheduler, emulator, token)),
    );
    const wallS = (performance.now() - started) / 1000;

    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    expect(await throttled(emulator)).toBe(0);
    expect(scheduler.report()).toMatchObject([{ limit: 5, windowMs: 1_000, queued: 0 }]);
    // All 5 calls per window once the first answer shows no one else calls the endpoint, each
    // window 1 % longer (the time slack): 6 windows, 5 waits.
    expect(wallS).toBeGreaterThanOrEqual(rateCeilingSeconds([30], 5, 1.01));
    expect(wallS).toBeLessThan(12);
  });
});
