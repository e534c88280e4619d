import { DEFAULT_SAFETY, slackMs, SPEC_RATE_LIMIT, type RateLimit } from '../api/rateBudget';
import type { EndpointBudgetReport } from '../api/requestScheduler';

/**
 * How long the rate limit makes the remaining calls take, in milliseconds: per endpoint key, the
 * calls its budget still allows in the current window go at once, the rest wait for slots that
 * free from `nextSlotAt` on, one window's budget per window (a key a 429 blocked reports its
 * next slot at the block's end). Keys have separate budgets and run side by side, so the slowest key decides.
 * Rate time only: the time the calls themselves take is left out, as it is small next to a
 * 2-minute window.
 *
 * A key the scheduler has not seen yet is taken at `assumed` (the spec's 200 per 2 minutes).
 * Each window counts with the scheduler's time slack, and at its whole limit: the scheduler keeps
 * calls in reserve only while another client is seen on the key (src/main/api/README.md), and
 * an estimate then a few calls short is better than one always a few calls long.
 */
export function estimateEtaMs(
  remainingCallsByKey: ReadonlyMap<string, number> | Readonly<Record<string, number>>,
  budgets: readonly EndpointBudgetReport[],
  now: number,
  assumed: RateLimit = SPEC_RATE_LIMIT,
): number {
  const entries =
    remainingCallsByKey instanceof Map
      ? [...remainingCallsByKey.entries()]
      : Object.entries(remainingCallsByKey);
  const byKey = new Map(budgets.map((budget) => [budget.key, budget]));
  let eta = 0;
  for (const [key, calls] of entries) {
    if (!(calls > 0)) continue;
    eta = Math.max(eta, keyEtaMs(Math.ceil(calls), byKey.get(key), now, assumed));
  }
  return eta;
}

function keyEtaMs(
  calls: number,
  budget: EndpointBudgetReport | undefined,
  now: number,
  assumed: RateLimit,
): number {
  const limit = budget?.limit ?? assumed.calls;
  const windowMs = budget?.windowMs ?? assumed.windowMs;
  const cycleMs = windowMs + slackMs(windowMs, DEFAULT_SAFETY);
  const windows = (n: number) => (Math.ceil(n / Math.max(1, limit)) - 1) * cycleMs;
  if (!budget) return windows(calls);
  // A blocked key reports nothing remaining and its next slot at the block's end.
  const later = calls - budget.remaining;
  if (later <= 0) return 0;
  // No slot time known (only an answer can free one): the next one frees within a window.
  const firstSlot = budget.nextSlotAt ?? now + cycleMs;
  return Math.max(0, firstSlot - now) + windows(later);
}
