/**
 * When each endpoint key's calls were sent, kept for the last three windows: enough to draw the
 * Sync view's chart of the current and previous window, where each point is the number of calls
 * in the window ending there (what the spec's "200 calls in 2 minutes" limits). The request
 * scheduler records every send here, retries after a 429 included (the server counted them).
 */

/** Ours: points per window in the chart (10 s each at the spec's 2-minute window). */
export const CHART_POINTS_PER_WINDOW = 12;

/** One key's calls over the previous and the current window. */
export interface EndpointCallsChart {
  /** Milliseconds between points. */
  stepMs: number;
  /**
   * Calls in the window ending at each point, oldest first: 2 × CHART_POINTS_PER_WINDOW points,
   * the last one ending now. The points of the first half end inside the previous window.
   */
  inWindow: number[];
  /** Calls sent in the current window (the last `windowMs`). */
  current: number;
  /** Calls sent in the window before it. */
  previous: number;
}

/** How many of the ascending `times` lie in (from, to]. Pure. */
function countIn(times: readonly number[], from: number, to: number): number {
  return upperBound(times, to) - upperBound(times, from);
}

/** The index of the first time above `value` in the ascending `times`. */
function upperBound(times: readonly number[], value: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((times[middle] as number) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The chart of calls sent at `times` (ascending epoch ms), as of `now`. Pure. */
export function callsChart(
  times: readonly number[],
  now: number,
  windowMs: number,
  pointsPerWindow = CHART_POINTS_PER_WINDOW,
): EndpointCallsChart {
  const stepMs = windowMs / pointsPerWindow;
  const inWindow: number[] = [];
  for (let i = 2 * pointsPerWindow - 1; i >= 0; i--) {
    const end = now - i * stepMs;
    inWindow.push(countIn(times, end - windowMs, end));
  }
  return {
    stepMs,
    inWindow,
    current: countIn(times, now - windowMs, now),
    previous: countIn(times, now - 2 * windowMs, now - windowMs),
  };
}

export class EndpointCalls {
  private readonly sent = new Map<string, number[]>();

  /**
   * A call to `key` left at `at` (the scheduler's clock). Times older than three windows go, so a
   * busy key keeps at most three windows of calls whether or not anyone asks for its chart.
   */
  record(key: string, at: number, windowMs: number): void {
    let times = this.sent.get(key);
    if (!times) {
      times = [];
      this.sent.set(key, times);
    }
    // A clock never goes back here, but a late call must not break the order the counts rely on.
    let index = times.length;
    while (index > 0 && (times[index - 1] as number) > at) index--;
    times.splice(index, 0, at);
    if ((times[0] as number) <= at - 3 * windowMs)
      times.splice(0, upperBound(times, at - 3 * windowMs));
  }

  /** The chart of `key` as of `now`; drops the times no chart needs any more (older than 3 windows). */
  chart(key: string, now: number, windowMs: number): EndpointCallsChart {
    const times = this.sent.get(key) ?? [];
    const stale = upperBound(times, now - 3 * windowMs);
    if (stale > 0) times.splice(0, stale);
    return callsChart(times, now, windowMs);
  }
}
