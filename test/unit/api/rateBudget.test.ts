import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SAFETY,
  OTHER_CLIENT_MEMORY_WINDOWS,
  RateBudget,
  reservedCalls,
  slackMs,
  SPEC_BLOCK_MS,
  SPEC_RATE_LIMIT,
} from '../../../src/main/api/rateBudget';

const exact = { fraction: 0, minCalls: 0, slackFraction: 0 };

/** One call sent at `at` and answered `rtt` later, with the server's remaining count if given. */
function call(budget: RateBudget, at: number, rtt: number, remaining?: number) {
  const sentAt = budget.start(at);
  budget.finish(sentAt, at + rtt, remaining === undefined ? {} : { remaining });
}

describe('the spec constants', () => {
  it('are 200 calls per 2 minutes and a 10-minute block', () => {
    expect(SPEC_RATE_LIMIT).toEqual({ calls: 200, windowMs: 120_000 });
    expect(SPEC_BLOCK_MS).toBe(600_000);
  });
});

describe('reservedCalls', () => {
  it('keeps 1 % in reserve, at least one call, and always leaves one usable', () => {
    expect(reservedCalls(200, DEFAULT_SAFETY)).toBe(2);
    expect(reservedCalls(5, DEFAULT_SAFETY)).toBe(1);
    expect(reservedCalls(1, DEFAULT_SAFETY)).toBe(0);
    expect(reservedCalls(1000, { fraction: 0.05, minCalls: 0, slackFraction: 0 })).toBe(50);
    expect(reservedCalls(200, exact)).toBe(0);
  });
});

describe('slackMs', () => {
  it("keeps a freed slot closed for 1 % of the window: 1.2 s of the spec's 2 minutes", () => {
    expect(slackMs(120_000, DEFAULT_SAFETY)).toBe(1_200);
    expect(slackMs(12_000, DEFAULT_SAFETY)).toBe(120);
    expect(slackMs(120_000, exact)).toBe(0);
  });
});

/** The default reserve of one call in ten, without slack, to read the counts easily. */
const reserveOnly = { fraction: 0.01, minCalls: 1, slackFraction: 0 };

describe('RateBudget: safety', () => {
  it('frees a slot the slack after its window', () => {
    const budget = new RateBudget({ calls: 1, windowMs: 1_000 }, { ...exact, slackFraction: 0.01 });
    budget.synced = true;
    call(budget, 0, 10, 0);
    expect(budget.nextSendAt(1_010)).toBe(1_020);
    expect(budget.report(1_019)).toMatchObject({ spent: 1, remaining: 0 });
    expect(budget.report(1_020)).toMatchObject({ spent: 0, remaining: 1 });
  });

  it('holds the reserve until an answer shows that no other client calls the key', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, reserveOnly);
    expect(budget.report(0)).toMatchObject({ spent: 0, remaining: 9 });
    call(budget, 0, 10, 9);
    // The server counted our one call: the whole limit is ours.
    expect(budget.report(10)).toMatchObject({ spent: 1, remaining: 9 });
    call(budget, 20, 10, 9 - 1);
    expect(budget.report(30)).toMatchObject({ spent: 2, remaining: 8 });
  });

  it(`keeps the reserve for ${OTHER_CLIENT_MEMORY_WINDOWS} windows after another client's calls show`, () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, reserveOnly);
    call(budget, 0, 10, 9);
    // The server counts 4: ours 2, someone else's 2.
    call(budget, 20, 10, 10 - 4);
    expect(budget.report(30)).toMatchObject({ spent: 4, remaining: 10 - 1 - 4 });
    const memory = OTHER_CLIENT_MEMORY_WINDOWS * 1_000;
    expect(budget.report(30 + memory - 1)).toMatchObject({ spent: 0, remaining: 9 });
    expect(budget.report(30 + memory)).toMatchObject({ spent: 0, remaining: 10 });
  });

  it('does not take its own calls still in flight for another client', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, reserveOnly);
    call(budget, 0, 10, 9);
    const a = budget.start(20);
    const b = budget.start(20);
    // b answered first, counted after a: a in flight explains the count, no reserve; a's answer
    // then shows b's count held a, so no one else either.
    budget.finish(b, 30, { remaining: 10 - 3 });
    expect(budget.report(30)).toMatchObject({ spent: 2 + 1 + 1, remaining: 10 - 4 });
    budget.finish(a, 31, { remaining: 10 - 2 });
    expect(budget.report(40)).toMatchObject({ spent: 3, remaining: 10 - 3 });
    // With a third call nothing of ours explains, the reserve is back.
    budget.finish(budget.start(40), 50, { remaining: 10 - 5 });
    expect(budget.report(50)).toMatchObject({ spent: 5, remaining: 10 - 1 - 5 });
  });

  it('holds the reserve again after a 429', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, reserveOnly);
    call(budget, 0, 10, 9);
    budget.pause(budget.start(20) + 10, 500, { remaining: 0 });
    expect(budget.report(600)).toMatchObject({ spent: 2, remaining: 10 - 1 - 2 });
  });
});

describe('RateBudget', () => {
  it('frees a slot one window after the oldest call was answered', () => {
    const budget = new RateBudget({ calls: 3, windowMs: 1_000 }, exact);
    budget.synced = true;
    call(budget, 0, 10);
    call(budget, 100, 10);
    expect(budget.nextSendAt(200)).toBe(200);
    call(budget, 200, 10);
    expect(budget.nextSendAt(300)).toBe(1_010);
    expect(budget.nextSendAt(1_010)).toBe(1_010);
    expect(budget.report(1_010)).toMatchObject({ spent: 2, remaining: 1 });
  });

  it('counts calls in flight, which only their answer can free', () => {
    const budget = new RateBudget({ calls: 2, windowMs: 1_000 }, exact);
    budget.synced = true;
    budget.start(0);
    budget.start(0);
    expect(budget.nextSendAt(5_000)).toBe(Infinity);
    expect(budget.report(5_000)).toMatchObject({ spent: 2, remaining: 0, nextSlotAt: null });
    budget.fail(5_000); // no answer, but the server may have seen it
    expect(budget.nextSendAt(5_000)).toBe(6_000);
  });

  it('sends one call at a time until an answer says where the server stands', () => {
    const budget = new RateBudget(SPEC_RATE_LIMIT);
    expect(budget.nextSendAt(0)).toBe(0);
    const sentAt = budget.start(0);
    expect(budget.nextSendAt(1)).toBe(Infinity);
    budget.finish(sentAt, 10, { limit: 200, remaining: 199, windowMs: 120_000 });
    expect(budget.nextSendAt(10)).toBe(10);
  });

  it('adopts the limit and window the server announces', () => {
    const budget = new RateBudget(SPEC_RATE_LIMIT, exact);
    budget.finish(budget.start(0), 10, { limit: 5, remaining: 4, windowMs: 12_000 });
    expect(budget.report(10)).toMatchObject({ limit: 5, windowMs: 12_000, spent: 1, remaining: 4 });
    expect(budget.nextSendAt(12_010)).toBe(12_010);
  });

  it('counts calls by other clients that the server reports, for one window', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    // The server had 4 calls from someone else before ours.
    call(budget, 0, 10, 10 - 5);
    expect(budget.report(10)).toMatchObject({ spent: 5, remaining: 5 });
    // A later answer that shows no more of them replaces the estimate.
    call(budget, 20, 10, 10 - 6);
    expect(budget.report(30)).toMatchObject({ spent: 6, remaining: 4 });
    // The estimate leaves one window after the answer that made it.
    expect(budget.report(1_029)).toMatchObject({ spent: 1 + 4, remaining: 5 });
    expect(budget.report(1_030)).toMatchObject({ spent: 0, remaining: 10 });
  });

  it('does not take its own concurrent calls for other clients', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    budget.synced = true;
    const sent = [budget.start(0), budget.start(0), budget.start(0), budget.start(0)];
    // The server handled them in order; the answers arrive in order too.
    sent.forEach((sentAt, i) => budget.finish(sentAt, 10, { remaining: 10 - (i + 1) }));
    expect(budget.report(10)).toMatchObject({ spent: 4, remaining: 6 });
  });

  it('counts again when an older answer arrives late and shows the server counted it first', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    budget.synced = true;
    const a = budget.start(0);
    const b = budget.start(0);
    // b was handled after 3 calls by someone else and answered first; a, handled before them, last.
    budget.finish(b, 10, { remaining: 10 - 5 });
    // From b's answer alone a may not have been counted yet: up to 4 calls by someone else.
    expect(budget.report(10)).toMatchObject({ spent: 1 + 1 + 4, remaining: 4 });
    // a was the server's first: b's count held it, so someone else made 3 calls, not 4.
    budget.finish(a, 20, { remaining: 10 - 1 });
    expect(budget.report(20)).toMatchObject({ spent: 2 + 3, remaining: 5 });
  });

  it('keeps the estimate when the older answer shows the server counted it later', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    budget.synced = true;
    const a = budget.start(0);
    const b = budget.start(0);
    // Someone else made 4 calls, then the server handled b, then a.
    budget.finish(b, 10, { remaining: 10 - 5 });
    budget.finish(a, 20, { remaining: 10 - 6 });
    expect(budget.report(20)).toMatchObject({ spent: 2 + 4, remaining: 4 });
  });

  it('stops attributing to the server the calls its window has forgotten', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    call(budget, 0, 10, 9);
    call(budget, 100, 10, 8);
    call(budget, 200, 10, 7);
    // The server's window restarted: it counts only this call...
    call(budget, 600, 10, 9);
    // ...then another client spends 4 calls in it before our next one.
    call(budget, 700, 10, 10 - 6);
    expect(budget.report(710)).toMatchObject({ spent: 5 + 4, remaining: 1 });
  });

  it('closes for Retry-After on a 429 and probes again afterwards', () => {
    const budget = new RateBudget(SPEC_RATE_LIMIT);
    budget.synced = true;
    budget.pause(budget.start(0) + 10, 600_000, { limit: 200, remaining: 0 });
    expect(budget.nextSendAt(10)).toBe(600_010);
    expect(budget.report(10)).toMatchObject({ blockedUntil: 600_010, remaining: 0 });
    expect(budget.nextSendAt(600_010)).toBe(600_010);
    budget.start(600_010);
    expect(budget.nextSendAt(600_011)).toBe(Infinity);
  });

  it('gives back, for a restart, every call that still occupies the window', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    call(budget, 0, 10, 10 - 3); // two calls by someone else
    budget.start(50); // in flight
    const seed = budget.seed(100);
    expect(seed).toEqual({
      limit: 10,
      windowMs: 1_000,
      sends: [10, 10, 10, 100],
      blockedUntil: null,
    });
    const restored = new RateBudget({ calls: 200, windowMs: 120_000 }, exact, seed);
    expect(restored.report(100)).toMatchObject({ limit: 10, spent: 4, remaining: 6 });
    expect(restored.synced).toBe(false);
  });
});
