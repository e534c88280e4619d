/**
 * One endpoint key's rate budget: pure arithmetic over a sliding window, with time passed in.
 * The request scheduler owns one per key and does the I/O around it.
 */

/** The spec: "each API endpoint may be called up to 200 times in a 2-minute window". */
export const SPEC_RATE_LIMIT: RateLimit = { calls: 200, windowMs: 2 * 60_000 };

/**
 * The spec: "on exceeding, that API alone is blocked for 10 minutes; ... Retry-After (seconds
 * remaining) is returned". Used when a 429 comes without a readable Retry-After.
 */
export const SPEC_BLOCK_MS = 10 * 60_000;

export interface RateLimit {
  calls: number;
  windowMs: number;
}

/**
 * Calls kept in reserve below the server's limit, for calls made by other clients with the same
 * token between two of our responses (the headers tell us about them only afterwards).
 */
export interface SafetyMargin {
  /** Share of the limit kept in reserve, rounded up. */
  fraction: number;
  /** Never fewer calls than this in reserve. */
  minCalls: number;
}

/** 1 % of the limit, at least one call: 2 of the spec's 200, 1 of a test server's 5. */
export const DEFAULT_SAFETY: SafetyMargin = { fraction: 0.01, minCalls: 1 };

/** Calls held back from `limit`; at least one call per window always stays usable. */
export function reservedCalls(limit: number, safety: SafetyMargin): number {
  const wanted = Math.max(safety.minCalls, Math.ceil(limit * safety.fraction));
  return Math.max(0, Math.min(limit - 1, wanted));
}

/** What a response's rate headers said (any part may be missing). */
export interface ServerReading {
  limit?: number;
  remaining?: number;
  windowMs?: number;
}

export interface BudgetReport {
  limit: number;
  windowMs: number;
  /** Calls occupying the window: ours answered inside it, ours in flight, others' (estimated). */
  spent: number;
  /** Calls we will still send before a slot frees (the safety reserve excluded). */
  remaining: number;
  /** When the next call may go (now if `remaining` > 0); null while only a response can free one. */
  nextSlotAt: number | null;
  blockedUntil: number | null;
}

export interface BudgetSeed {
  limit: number;
  windowMs: number;
  /** Times of calls inside the window, ascending. */
  sends: number[];
  blockedUntil: number | null;
}

/**
 * A sliding window over *occupancy times*: a call occupies a slot from the moment it is sent,
 * and its window starts when its response arrives (the server saw it somewhere in between), so
 * `s[k + budget] >= responseTime[k] + window` holds and the server, whatever window it uses (the
 * emulator's is fixed), never sees more than `budget` calls in any window. The cost is one round
 * trip per window.
 *
 * How a server reading maps onto the window: the server's count `spent = limit - remaining`
 * (RateLimit minus RateLimit-Remaining) is our calls it had counted plus other clients' calls.
 * Our calls it surely had counted are those answered before this one was sent, and those whose
 * own reading was lower (the count rises in the order the server handles calls). The rest of
 * `spent` is taken as other clients' calls: an estimate that occupies that many slots until one
 * window after the response, and that the next response sent after it replaces. If a reading is
 * below what the server surely counted, the server's window has moved on and forgotten our oldest
 * calls: they stop explaining later readings. A reading that reports more room than we think is
 * ignored: we never go faster than our own window.
 */
export class RateBudget {
  limit: number;
  windowMs: number;
  /** Our calls' occupancy start times, ascending; live from `head`. */
  private times: number[] = [];
  /** The server's count each call was answered with (NaN if unknown), parallel to `times`. */
  private readings: number[] = [];
  private head = 0;
  /** First index whose call the server may still count (see the class comment). */
  private attributedFrom = 0;
  /** Other clients' calls in the server's window, as last estimated, and when. */
  private foreign = 0;
  private foreignAt = -Infinity;
  inFlight = 0;
  blockedUntil = 0;
  /**
   * Whether a response has told us where the server stands since start-up or the last block.
   * Until then only one call is in flight, so a budget spent by someone else costs one call.
   */
  synced = false;

  constructor(
    limit: RateLimit,
    private readonly safety: SafetyMargin = DEFAULT_SAFETY,
    seed?: BudgetSeed,
  ) {
    this.limit = seed?.limit ?? limit.calls;
    this.windowMs = seed?.windowMs ?? limit.windowMs;
    if (seed) {
      this.times = [...seed.sends].sort((a, b) => a - b);
      this.readings = this.times.map(() => NaN);
      this.blockedUntil = seed.blockedUntil ?? 0;
    }
  }

  /** Calls we allow ourselves per window. */
  get budget(): number {
    return this.limit - reservedCalls(this.limit, this.safety);
  }

  /** The earliest time a call may be sent: `now` if one may go now; Infinity if only a response can free a slot. */
  nextSendAt(now: number): number {
    this.prune(now);
    if (this.blockedUntil > now) return this.blockedUntil;
    if (!this.synced && this.inFlight > 0) return Infinity;
    return this.slotFreeAt(now);
  }

  /** A call leaves now; returns its send time, which `finish` needs. */
  start(now: number): number {
    this.inFlight++;
    return now;
  }

  /** A response arrived (any status but 429): the call occupies the window from now. */
  finish(sentAt: number, now: number, reading: ServerReading = {}): void {
    this.synced = true;
    this.adopt(reading);
    this.prune(now);
    if (reading.remaining === undefined) {
      this.settle(now, NaN);
      return;
    }
    const serverSpent = Math.max(0, this.limit - reading.remaining);
    this.settle(now, serverSpent);
    this.resync(sentAt, now, serverSpent);
  }

  /** The call failed without a response (network, abort): it may have reached the server. */
  fail(now: number): void {
    this.settle(now, NaN);
  }

  /** A 429: nothing goes to this key before `now + retryAfterMs`; then it probes again. */
  pause(now: number, retryAfterMs: number, reading: ServerReading = {}): void {
    this.settle(now, NaN);
    this.adopt(reading);
    this.blockedUntil = Math.max(this.blockedUntil, now + retryAfterMs);
    this.synced = false;
  }

  report(now: number): BudgetReport {
    this.prune(now);
    const spent = this.times.length - this.head + this.inFlight + this.foreignAlive(now);
    const blocked = this.blockedUntil > now;
    const free = this.slotFreeAt(now);
    const nextSlotAt = blocked ? Math.max(this.blockedUntil, free) : free;
    return {
      limit: this.limit,
      windowMs: this.windowMs,
      spent,
      remaining: blocked ? 0 : Math.max(0, this.budget - spent),
      nextSlotAt: Number.isFinite(nextSlotAt) ? nextSlotAt : null,
      blockedUntil: blocked ? this.blockedUntil : null,
    };
  }

  /**
   * What to remember across a restart: our calls in the window, in-flight ones as sent now, and
   * other clients' estimated calls as sent when we learned of them.
   */
  seed(now: number): BudgetSeed {
    this.prune(now);
    const sends = this.times.slice(this.head);
    for (let i = 0; i < this.foreignAlive(now); i++) sends.push(this.foreignAt);
    for (let i = 0; i < this.inFlight; i++) sends.push(now);
    return {
      limit: this.limit,
      windowMs: this.windowMs,
      sends: sends.sort((a, b) => a - b),
      blockedUntil: this.blockedUntil > now ? this.blockedUntil : null,
    };
  }

  private foreignAlive(now: number): number {
    return this.foreignAt + this.windowMs > now ? this.foreign : 0;
  }

  /** The earliest time at which our live calls, in-flight calls and others' calls leave a slot. */
  private slotFreeAt(now: number): number {
    const live = this.times.length - this.head;
    const fits = (excess: number, from: number): number => {
      // The oldest `excess + 1` live calls must leave first.
      if (excess < 0) return from;
      if (excess >= live) return Infinity;
      return Math.max(from, (this.times[this.head + excess] as number) + this.windowMs);
    };
    const foreign = this.foreignAlive(now);
    const excess = live + this.inFlight - this.budget;
    const withForeign = fits(excess + foreign, now);
    if (foreign === 0) return withForeign;
    return Math.min(withForeign, fits(excess, this.foreignAt + this.windowMs));
  }

  private settle(now: number, serverSpent: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.times.push(now);
    this.readings.push(serverSpent);
  }

  private adopt(reading: ServerReading): void {
    if (reading.limit !== undefined && reading.limit >= 1) this.limit = reading.limit;
    if (reading.windowMs !== undefined && reading.windowMs > 0) this.windowMs = reading.windowMs;
  }

  private resync(sentAt: number, now: number, serverSpent: number): void {
    this.attributedFrom = Math.max(this.attributedFrom, this.head);
    const last = this.times.length - 1; // this call, just settled
    // Answered before this call was sent: the server had counted them.
    const answeredBefore = upperBound(this.times, sentAt, this.attributedFrom, last);
    let counted = answeredBefore - this.attributedFrom + 1;
    // Answered since, with a lower count: the server handled them first.
    for (let i = answeredBefore; i < last; i++) {
      if ((this.readings[i] as number) < serverSpent) counted++;
    }
    if (serverSpent < counted) {
      this.attributedFrom += Math.min(counted - serverSpent, counted - 1);
    }
    const others = Math.max(0, serverSpent - counted);
    // A call sent after the estimate's response was handled after it, so its reading is newer.
    const fresh = sentAt >= this.foreignAt || this.foreignAlive(now) === 0;
    this.foreign = fresh ? others : Math.max(others, this.foreign);
    this.foreignAt = now;
  }

  private prune(now: number): void {
    const times = this.times;
    let head = this.head;
    while (head < times.length && (times[head] as number) + this.windowMs <= now) head++;
    if (head > 256 && head * 2 > times.length) {
      this.times = times.slice(head);
      this.readings = this.readings.slice(head);
      this.attributedFrom = Math.max(0, this.attributedFrom - head);
      head = 0;
    }
    this.head = head;
  }
}

/** First index in [from, to) whose value is greater than `value`, for an ascending array. */
function upperBound(values: readonly number[], value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] as number) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
