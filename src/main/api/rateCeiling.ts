/**
 * The sync benchmark's `ceiling_s` (issue 4): the earliest moment the rate limit lets the last
 * call go. Only the busiest endpoint key matters, since keys have separate budgets: its first
 * `limit` calls go at once and each further batch of `limit` waits one more window, so
 * (⌈calls ÷ limit⌉ − 1) × window. Pass the window in the unit you want back (real seconds for
 * the benchmark, where `--time-scale` has already shortened it).
 */
export function rateCeilingSeconds(
  callsPerKey: Iterable<number>,
  limitCalls: number,
  windowSeconds: number,
): number {
  if (!(Number.isInteger(limitCalls) && limitCalls >= 1)) {
    throw new RangeError(`The rate limit must be a whole number of calls ≥ 1, not ${limitCalls}.`);
  }
  if (!(windowSeconds >= 0)) {
    throw new RangeError(`The rate window must be ≥ 0 seconds, not ${windowSeconds}.`);
  }
  let busiest = 0;
  for (const calls of callsPerKey) busiest = Math.max(busiest, calls);
  if (busiest <= 0) return 0;
  return (Math.ceil(busiest / limitCalls) - 1) * windowSeconds;
}
