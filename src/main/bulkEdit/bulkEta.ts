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

/** What the count below reads of a queued operation. */
export interface QueuedOp {
  recordId: string;
  kind: string;
  state: string;
}

/**
 * Record updates among `ops` (queue order) the replay will send without the user acting: only a
 * record's head goes (readyHeads in src/main/outbox/queries/outbox.sql), and an operation the
 * service refused (`failed`) or in conflict stops its record's queue until the user retries,
 * resolves or discards it, so neither it nor anything queued behind it is counted.
 */
export function updatesToSend(ops: Iterable<QueuedOp>): number {
  const stopped = new Set<string>();
  let updates = 0;
  for (const op of ops) {
    if (stopped.has(op.recordId)) continue;
    if (op.state === 'failed' || op.state === 'conflict') stopped.add(op.recordId);
    else if (op.kind === 'update') updates += 1;
  }
  return updates;
}
