/**
 * Which endpoints the Sync view draws a calls chart for, and what each chart says in words.
 * Pure: the chart component (EndpointCallsChart.tsx) draws what these decide.
 */
import type { EndpointBudget } from '../../../../shared/ipc/areas/sync';
import { formatDuration } from './syncFormat';

/** Ours: at most this many charts; the busiest keys, the table above lists every key. */
export const MAX_ENDPOINT_CHARTS = 6;

/**
 * The endpoints with calls in the current or the previous window, busiest first (calls in the
 * current window, then in both), at most `max`.
 */
export function busyEndpoints(
  budgets: readonly EndpointBudget[],
  max = MAX_ENDPOINT_CHARTS,
): EndpointBudget[] {
  return budgets
    .filter((budget) => budget.calls.current + budget.calls.previous > 0)
    .sort(
      (a, b) =>
        b.calls.current - a.calls.current ||
        b.calls.current + b.calls.previous - (a.calls.current + a.calls.previous) ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    )
    .slice(0, max);
}

/** The chart in one sentence, for screen readers and as its caption. */
export function callsChartSummary(budget: EndpointBudget): string {
  const window = formatDuration(budget.windowMs);
  const peak = Math.max(0, ...budget.calls.inWindow);
  return (
    `${budget.calls.current} of ${budget.limit} calls in the current ${window} window, ` +
    `${budget.calls.previous} in the previous one; the most in any ${window} window shown: ${peak}.`
  );
}

/** A point's height as a share of the chart: the limit sits at 90 %, more than it is drawn at the top. */
export function barShare(calls: number, limit: number): number {
  if (limit <= 0) return calls > 0 ? 1 : 0;
  return Math.min(1, (calls / limit) * 0.9);
}
