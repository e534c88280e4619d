import { afterEach, describe, expect, it } from 'vitest';
import { RequestScheduler } from '../../../src/main/api/requestScheduler';
import { systemClock } from '../../../src/main/api/schedulerClock';
import { api, grantToken, testEmulator } from '../../support/emulator';
import { portalsThrough, throttled } from './schedulerSupport';

const open: RequestScheduler[] = [];
afterEach(() => {
  for (const scheduler of open.splice(0)) scheduler.close();
});

async function emulatorWithSpentBudget(directCalls: number) {
  const emulator = await testEmulator({
    records: 0,
    rateLimit: { calls: 5, windowMs: 1_000, blockMs: 1_000 },
  });
  const token = grantToken(emulator);
  // Another app with the same token spends the budget first.
  for (let i = 0; i < directCalls; i++) {
    await api(emulator.dcs.us!.api, token, 'GET', '/api/v3/portals');
  }
  const scheduler = new RequestScheduler({ clock: systemClock });
  open.push(scheduler);
  return { emulator, token, scheduler };
}

describe('the request scheduler against an emulator whose budget another client spent', () => {
  it('learns from the headers how much is left and still trips nothing', async () => {
    const { emulator, token, scheduler } = await emulatorWithSpentBudget(3);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => portalsThrough(scheduler, emulator, token)),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    expect(await throttled(emulator)).toBe(0);
  });

  it('waits out the block it runs into, then completes every request', async () => {
    const { emulator, token, scheduler } = await emulatorWithSpentBudget(6);
    expect(await throttled(emulator)).toBe(1); // the other app's 6th call started a block
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => portalsThrough(scheduler, emulator, token)),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    // One 429 for the scheduler's first call, which it could not know would fail; none after.
    expect(await throttled(emulator)).toBe(2);
  });
});
