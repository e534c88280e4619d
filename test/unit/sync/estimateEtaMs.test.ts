import { describe, expect, it } from 'vitest';
import type { EndpointBudgetReport } from '../../../src/main/api/requestScheduler';
import { estimateEtaMs } from '../../../src/main/sync/estimateEtaMs';

const NOW = 1_000_000;
const WINDOW = 120_000;
/** A window and the scheduler's time slack after it (1 % of the window). */
const CYCLE = 121_200;
const KEY = 'us GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities portal=1';

function budget(patch: Partial<EndpointBudgetReport> = {}): EndpointBudgetReport {
  return {
    key: KEY,
    limit: 200,
    windowMs: WINDOW,
    spent: 0,
    remaining: 200,
    nextSlotAt: NOW,
    blockedUntil: null,
    queued: 0,
    inFlight: 0,
    calls: { stepMs: 10_000, inWindow: [], current: 0, previous: 0 },
    ...patch,
  };
}

describe('estimateEtaMs', () => {
  it('is zero when the calls left fit in what the window still allows', () => {
    expect(estimateEtaMs({ [KEY]: 200 }, [budget()], NOW)).toBe(0);
    expect(estimateEtaMs({}, [budget()], NOW)).toBe(0);
    expect(estimateEtaMs({ [KEY]: 0 }, [budget({ remaining: 0 })], NOW)).toBe(0);
  });

  it('adds a window and its slack for every further 200 calls', () => {
    // 201 calls: 200 now, one when a slot frees.
    expect(estimateEtaMs({ [KEY]: 201 }, [budget()], NOW)).toBe(0);
    // Spent 150 of 200: 50 go now, the next 200 as slots free, the last 2 one window later.
    const partly = budget({ spent: 150, remaining: 50, nextSlotAt: NOW });
    expect(estimateEtaMs({ [KEY]: 252 }, [partly], NOW)).toBe(CYCLE);
    const exhausted = budget({ spent: 200, remaining: 0, nextSlotAt: NOW + 30_000 });
    expect(estimateEtaMs({ [KEY]: 200 }, [exhausted], NOW)).toBe(30_000);
    expect(estimateEtaMs({ [KEY]: 201 }, [exhausted], NOW)).toBe(30_000 + CYCLE);
    expect(estimateEtaMs({ [KEY]: 1000 }, [exhausted], NOW)).toBe(30_000 + 4 * CYCLE);
  });

  it('waits out a 429 block before the budget starts afresh', () => {
    const blocked = budget({
      remaining: 0,
      blockedUntil: NOW + 600_000,
      nextSlotAt: NOW + 600_000,
    });
    expect(estimateEtaMs({ [KEY]: 10 }, [blocked], NOW)).toBe(600_000);
    expect(estimateEtaMs({ [KEY]: 400 }, [blocked], NOW)).toBe(600_000 + CYCLE);
  });

  it('takes the slowest key, since keys have separate budgets', () => {
    const other = 'us GET /api/v3/portal/{portal_id}/settings/options portal=1';
    const slow = budget({ remaining: 0, nextSlotAt: NOW + 10_000 });
    const fast = budget({ key: other });
    expect(
      estimateEtaMs(
        new Map([
          [KEY, 5],
          [other, 5],
        ]),
        [slow, fast],
        NOW,
      ),
    ).toBe(10_000);
  });

  it("assumes the spec's limit for a key the scheduler has not seen, and learns a server's", () => {
    expect(estimateEtaMs({ [KEY]: 500 }, [], NOW)).toBe(2 * CYCLE);
    // A server stating 5 calls per second: 5 per window, each 10 ms of slack longer.
    const small = budget({ limit: 5, windowMs: 1_000, remaining: 5, nextSlotAt: NOW });
    expect(estimateEtaMs({ [KEY]: 12 }, [small], NOW)).toBe(1_010);
  });

  it('never promises a slot in the past when nothing says when one frees', () => {
    const unknown = budget({ remaining: 0, nextSlotAt: null });
    expect(estimateEtaMs({ [KEY]: 1 }, [unknown], NOW)).toBe(CYCLE);
  });
});
