/**
 * How long the replay of queued record changes takes at the rate limit (issue 20: "an ETA before
 * the user confirms"). Record PATCHes of a portal share one endpoint key (spec "Rate limits":
 * "each API endpoint may be called up to 200 times in a 2-minute window"), so the replay of
 * `calls` PATCHes is paced by that budget: what is left of the current window goes at once, then
 * `limit` more per window. Pure; the scheduler's report of the key gives `remaining`.
 */
import { RECORDS_WAIT_FOR } from '../outbox/recordsWaitFor';

/** A module's configuration queue: `layouts:<module id>` (readyHeads). */
const CONFIG_QUEUE = 'layouts:';

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

/** What the counts below read of a queued operation. */
export interface QueuedOp {
  recordId: string;
  moduleId: string;
  kind: string;
  action: string | null;
  state: string;
}

const stops = (op: Pick<QueuedOp, 'state'>) => op.state === 'failed' || op.state === 'conflict';

/**
 * Modules whose record changes wait for the user: a module's record heads wait while a change of
 * its fields, options or statuses is in its configuration queue (`layouts:<module id>`), whatever
 * its state (readyHeads, @holding: RECORDS_WAIT_FOR); that queue goes head first, so such a change
 * at or behind one refused or in conflict is never sent until the user acts, nor are they.
 */
export function modulesHeldForUser(ops: Iterable<QueuedOp>): Set<string> {
  const stopped = new Set<string>();
  const held = new Set<string>();
  for (const op of ops) {
    if (op.kind !== 'config' || !op.recordId.startsWith(CONFIG_QUEUE)) continue;
    const moduleId = op.recordId.slice(CONFIG_QUEUE.length);
    if (stops(op)) stopped.add(moduleId);
    if (stopped.has(moduleId) && op.action !== null && RECORDS_WAIT_FOR.includes(op.action)) {
      held.add(moduleId);
    }
  }
  return held;
}

/**
 * Record updates among `ops` (queue order) the replay will send without the user acting: only a
 * record's head goes (readyHeads in src/main/outbox/queries/outbox.sql), and an operation the
 * service refused (`failed`) or in conflict stops its record's queue until the user retries,
 * resolves or discards it, so neither it nor anything queued behind it is counted; nor is any
 * update of a module whose configuration queue holds its records for the user (`held`, by default
 * read from `ops`: pass the portal's when `ops` are one record's).
 */
export function updatesToSend(
  ops: Iterable<QueuedOp>,
  held: ReadonlySet<string> = modulesHeldForUser(ops),
): number {
  const stopped = new Set<string>();
  let updates = 0;
  for (const op of ops) {
    if (stopped.has(op.recordId)) continue;
    if (stops(op)) stopped.add(op.recordId);
    else if (op.kind === 'update' && !held.has(op.moduleId)) updates += 1;
  }
  return updates;
}
