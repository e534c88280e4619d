/**
 * How long the replay of queued record changes takes at the rate limit (issue 20: "an ETA before
 * the user confirms"). Record PATCHes of a portal share one endpoint key (spec "Rate limits":
 * "each API endpoint may be called up to 200 times in a 2-minute window"), so the replay of
 * `calls` PATCHes is paced by that budget: what is left of the current window goes at once, then
 * `limit` more per window. Pure; the scheduler's report of the key gives `remaining`.
 */
export interface EtaBudget {
  /** Calls per window (the server's RateLimit once seen, else the spec's 200). */
  limit: number;
  windowMs: number;
  /** Calls the scheduler will still send in the current window. */
  remaining: number;
}

export function replayEtaSeconds(calls: number, budget: EtaBudget): number {
  if (!(Number.isInteger(calls) && calls >= 0)) {
    throw new RangeError(`Calls must be a whole number ≥ 0, not ${calls}.`);
  }
  if (!(Number.isInteger(budget.limit) && budget.limit >= 1)) {
    throw new RangeError(`The rate limit must be a whole number ≥ 1, not ${budget.limit}.`);
  }
  const later = calls - Math.max(0, budget.remaining);
  if (later <= 0) return 0;
  return (Math.ceil(later / budget.limit) * budget.windowMs) / 1000;
}
