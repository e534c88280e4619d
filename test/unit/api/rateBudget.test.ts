import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SAFETY,
  RateBudget,
  reservedCalls,
  SPEC_BLOCK_MS,
  SPEC_RATE_LIMIT,
} from '../../../src/main/api/rateBudget';

const exact = { fraction: 0, minCalls: 0 };

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
    expect(reservedCalls(1000, { fraction: 0.05, minCalls: 0 })).toBe(50);
    expect(reservedCalls(200, exact)).toBe(0);
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

  it('keeps the newer estimate when an older answer arrives late', () => {
    const budget = new RateBudget({ calls: 10, windowMs: 1_000 }, exact);
    budget.synced = true;
    const a = budget.start(0);
    const b = budget.start(0);
    // b was handled after 3 calls by someone else and answered first; a, handled before them, last.
    budget.finish(b, 10, { remaining: 10 - 5 });
    // From b's answer alone a may not have been counted yet: up to 4 calls by someone else.
    expect(budget.report(10)).toMatchObject({ spent: 1 + 1 + 4, remaining: 4 });
    budget.finish(a, 20, { remaining: 10 - 1 });
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
