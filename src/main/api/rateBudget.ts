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
 * How far below the server's limit we stay. Two different risks, two different answers:
 * - the server's window ending a little later than ours (clock rates, a server that counts in
 *   whole seconds): time slack, a freed slot stays closed a little longer; it costs a fraction of a
 *   window's time instead of whole calls;
 * - calls by another client with the same token, which the headers tell of only afterwards: a
 *   reserve of calls, held while another client has been seen on the key (or while no answer has
 *   said where the server stands), since on a key only we use it would waste calls every window.
 */
export interface SafetyMargin {
  /** While another client may be using the key: share of the limit kept in reserve, rounded up. */
  fraction: number;
  /** While another client may be using the key: never fewer calls than this in reserve. */
  minCalls: number;
  /** Share of the window a slot stays closed after our window frees it. */
  slackFraction: number;
}

/**
 * Reserve: 1 % of the limit, at least one call (2 of the spec's 200, 1 of a test server's 5).
 * Slack: 1 % of the window, 1.2 s of the spec's 2 minutes: more than a server counting in whole
 * seconds or any clock-rate difference can shift its window (NTP keeps rates within 0.05 %).
 */
export const DEFAULT_SAFETY: SafetyMargin = { fraction: 0.01, minCalls: 1, slackFraction: 0.01 };

/**
 * Once another client's calls show in the server's count, the reserve stays on for this many of
 * the key's windows: the spec's block (10 minutes) over its window (2 minutes), as long as an
 * overrun that client causes would close the key.
 */
export const OTHER_CLIENT_MEMORY_WINDOWS = SPEC_BLOCK_MS / SPEC_RATE_LIMIT.windowMs;

/** Calls held back from `limit` while another client may use the key; at least one always stays usable. */
export function reservedCalls(limit: number, safety: SafetyMargin): number {
  const wanted = Math.max(safety.minCalls, Math.ceil(limit * safety.fraction));
  return Math.max(0, Math.min(limit - 1, wanted));
}

/** How long after our window frees a slot it stays closed: `slackFraction` of the window. */
export function slackMs(windowMs: number, safety: SafetyMargin): number {
  return Math.max(0, Math.ceil(windowMs * safety.slackFraction));
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
 * trip per window, plus the time slack (see SafetyMargin): a call occupies its slot for the window
 * and the slack after its response.
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
  /** The call whose reading set `foreign` (index into `times`, -1 if none), and that reading. */
  private estimate = { index: -1, sentAt: 0, serverSpent: 0 };
  /** When a reading last proved that another client had called this key. */
  private othersSeenAt = -Infinity;
  /** Whether a reading with RateLimit-Remaining came since start-up or the last 429. */
  private counting = false;
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

  /**
   * Calls we allow ourselves per window: the whole limit once the server's counts have shown that
   * only we use the key, less the reserve while another client may (see SafetyMargin).
   */
  budgetAt(now: number): number {
    const othersLikely =
      !this.counting || this.othersSeenAt + OTHER_CLIENT_MEMORY_WINDOWS * this.windowMs > now;
    return this.limit - (othersLikely ? reservedCalls(this.limit, this.safety) : 0);
  }

  /** How long a call occupies a slot after its response: the window plus the slack. */
  private get heldMs(): number {
    return this.windowMs + slackMs(this.windowMs, this.safety);
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
    this.counting = true;
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
    // A 429 we did not expect: someone else spent the budget (or the server counts differently).
    this.counting = false;
    this.othersSeenAt = now;
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
      remaining: blocked ? 0 : Math.max(0, this.budgetAt(now) - spent),
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
    return this.foreignAt + this.heldMs > now ? this.foreign : 0;
  }

  /** The earliest time at which our live calls, in-flight calls and others' calls leave a slot. */
  private slotFreeAt(now: number): number {
    const live = this.times.length - this.head;
    const fits = (excess: number, from: number): number => {
      // The oldest `excess + 1` live calls must leave first.
      if (excess < 0) return from;
      if (excess >= live) return Infinity;
      return Math.max(from, (this.times[this.head + excess] as number) + held);
    };
    const held = this.heldMs;
    const foreign = this.foreignAlive(now);
    const excess = live + this.inFlight - this.budgetAt(now);
    const withForeign = fits(excess + foreign, now);
    if (foreign === 0) return withForeign;
    return Math.min(withForeign, fits(excess, this.foreignAt + held));
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
    const counted = this.countedWith(last, sentAt, serverSpent);
    if (serverSpent < counted) {
      this.attributedFrom += Math.min(counted - serverSpent, counted - 1);
    }
    const others = Math.max(0, serverSpent - counted);
    // Our calls still in flight may have been counted before this one; beyond them, surely others.
    if (others > this.inFlight) this.othersSeenAt = now;
    // A call sent after the estimate's response was handled after it, so its reading is newer.
    const fresh = sentAt >= this.foreignAt || this.foreignAlive(now) === 0;
    if (fresh) {
      this.foreign = others;
      this.estimate = { index: last, sentAt, serverSpent };
    } else {
      // An older call answered late. If the server counted it before the estimate's call, the
      // estimate took it for someone else's: count again with what is known now.
      const { index, sentAt: estimateSentAt, serverSpent: estimateSpent } = this.estimate;
      const recounted =
        index >= this.attributedFrom
          ? Math.max(0, estimateSpent - this.countedWith(index, estimateSentAt, estimateSpent))
          : this.foreign;
      this.foreign = Math.max(others, Math.min(this.foreign, recounted));
    }
    this.foreignAt = now;
  }

  /**
   * Our calls the server surely counted when it answered call `index` (sent at `sentAt`) with
   * `serverSpent`: those answered before it was sent, itself, and those answered since with a
   * lower count (the server handled them first).
   */
  private countedWith(index: number, sentAt: number, serverSpent: number): number {
    const answeredBefore = upperBound(this.times, sentAt, this.attributedFrom, index);
    let counted = answeredBefore - this.attributedFrom + 1;
    for (let i = answeredBefore; i < this.times.length; i++) {
      if (i !== index && (this.readings[i] as number) < serverSpent) counted++;
    }
    return counted;
  }

  private prune(now: number): void {
    const times = this.times;
    let head = this.head;
    const held = this.heldMs;
    while (head < times.length && (times[head] as number) + held <= now) head++;
    if (head > 256 && head * 2 > times.length) {
      this.times = times.slice(head);
      this.readings = this.readings.slice(head);
      this.attributedFrom = Math.max(0, this.attributedFrom - head);
      this.estimate.index -= head;
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
