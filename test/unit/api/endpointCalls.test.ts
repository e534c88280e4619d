import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHART_POINTS_PER_WINDOW,
  EndpointCalls,
  callsChart,
} from '../../../src/main/api/endpointCalls';

const WINDOW = 120_000;

/** The chart read the long way: every call checked against every point's window. */
function naiveChart(times: readonly number[], now: number, windowMs: number) {
  const stepMs = windowMs / CHART_POINTS_PER_WINDOW;
  const inside = (from: number, to: number) => times.filter((t) => t > from && t <= to).length;
  const inWindow = Array.from({ length: 2 * CHART_POINTS_PER_WINDOW }, (_, i) => {
    const end = now - (2 * CHART_POINTS_PER_WINDOW - 1 - i) * stepMs;
    return inside(end - windowMs, end);
  });
  return {
    stepMs,
    inWindow,
    current: inside(now - windowMs, now),
    previous: inside(now - 2 * windowMs, now - windowMs),
  };
}

describe('endpoint calls', () => {
  it('counts the calls in the window ending at each point, as a naive count does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 * WINDOW }), { maxLength: 300 }),
        fc.integer({ min: 0, max: 2 * WINDOW }),
        (sent, after) => {
          // Asked after the calls it shows, as the scheduler's report is.
          const now = Math.max(0, ...sent) + after;
          const calls = new EndpointCalls();
          // Recorded out of order too: the chart must not depend on it.
          for (const at of sent) calls.record('k', at, WINDOW);
          const sorted = [...sent].sort((a, b) => a - b);
          expect(calls.chart('k', now, WINDOW)).toEqual(naiveChart(sorted, now, WINDOW));
          // Asking again after the stale times were dropped gives the same chart.
          expect(calls.chart('k', now, WINDOW)).toEqual(naiveChart(sorted, now, WINDOW));
        },
      ),
    );
  });

  it('keeps keys apart and shows a full window against an empty previous one', () => {
    const calls = new EndpointCalls();
    for (let i = 0; i < 200; i++) calls.record('busy', 300_000 + i * 500, WINDOW);
    calls.record('quiet', 10_000, WINDOW);
    const busy = calls.chart('busy', 400_000, WINDOW);
    expect(busy.current).toBe(200);
    expect(busy.previous).toBe(0);
    expect(busy.inWindow.at(-1)).toBe(200);
    expect(calls.chart('quiet', 400_000, WINDOW)).toEqual(callsChart([], 400_000, WINDOW));
    expect(calls.chart('never', 400_000, WINDOW).inWindow).toHaveLength(24);
  });
});
