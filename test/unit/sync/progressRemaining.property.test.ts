/**
 * The progress tracker keeps each endpoint key's remaining calls as scopes change; its sums equal
 * the sums over every scope made from scratch (what it did at every event before), and the ETA of
 * each event is the one those sums give, for any order of scopes and updates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EndpointBudgetReport } from '../../../src/main/api/requestScheduler';
import { estimateEtaMs } from '../../../src/main/sync/estimateEtaMs';
import { SyncProgressTracker } from '../../../src/main/sync/syncProgressTracker';
import type { SyncProgress } from '../../../src/main/sync/syncTypes';

const NOW = 1_000_000;
const KEYS = ['k1', 'k2', 'k3'];
const budgets: EndpointBudgetReport[] = [
  {
    key: 'k1',
    limit: 200,
    windowMs: 120_000,
    spent: 150,
    remaining: 50,
    nextSlotAt: NOW + 5_000,
    blockedUntil: null,
    queued: 0,
    inFlight: 0,
    calls: { windowMs: 120_000, current: [], previous: [] },
  } as unknown as EndpointBudgetReport,
];

const pending = fc.option(
  fc.record({ key: fc.constantFrom(...KEYS), calls: fc.integer({ min: -2, max: 400 }) }),
);
const step = fc.record({
  scope: fc.integer({ min: 0, max: 5 }),
  patch: fc.oneof(
    pending.map((p) => ({ pending: p })),
    fc.record({ done: fc.nat({ max: 1000 }) }),
    pending.map((p) => ({ phase: 'records' as const, pending: p })),
  ),
});

describe('SyncProgressTracker: remaining calls', () => {
  it('sums every scope’s remaining calls per key, as made from scratch', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const events: SyncProgress[] = [];
        const tracker = new SyncProgressTracker(
          { runId: 'r', accountId: 'a', dc: 'us' },
          (event) => events.push(event),
          () => budgets,
          () => NOW,
        );
        const scopes = new Map<number, ReturnType<typeof tracker.scope>>();
        for (const { scope: n, patch } of steps) {
          const scope =
            scopes.get(n) ??
            tracker.scope(`s${n}`, {
              portalId: 'p',
              moduleId: `m${n}`,
              module: `M${n}`,
              phase: 'records',
            });
          scopes.set(n, scope);
          tracker.update(scope, patch);
          const fromScratch = new Map<string, number>();
          for (const s of scopes.values()) {
            if (!s.pending || s.pending.calls <= 0) continue;
            fromScratch.set(s.pending.key, (fromScratch.get(s.pending.key) ?? 0) + s.pending.calls);
          }
          expect(tracker.remainingCalls()).toEqual(fromScratch);
          const own = scope.pending
            ? new Map([[scope.pending.key, fromScratch.get(scope.pending.key) ?? 0]])
            : fromScratch;
          const expected =
            own.size === 0 ? (scope.total === null ? null : 0) : estimateEtaMs(own, budgets, NOW);
          expect(events[events.length - 1]!.etaMs).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });
});
