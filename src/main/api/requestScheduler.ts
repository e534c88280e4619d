import type { BudgetStore, StoredBudget } from './budgetStore';
import { EndpointCalls, type EndpointCallsChart } from './endpointCalls';
import { Fifo } from './fifo';
import {
  DEFAULT_SAFETY,
  RateBudget,
  SPEC_BLOCK_MS,
  SPEC_RATE_LIMIT,
  type RateLimit,
  type SafetyMargin,
} from './rateBudget';
import { readRateHeaders } from './rateHeaders';
import type { SchedulerClock } from './schedulerClock';

/** The user's own actions and outbox replays, then what the user is looking at, then background sync. */
export type Priority = 'user' | 'visible' | 'background';

/** Strict order among requests that may go now. */
export const PRIORITIES: readonly Priority[] = ['user', 'visible', 'background'];

/** Requests in flight across all endpoint keys (issue 4: "concurrency capped (default 4)"). */
export const DEFAULT_CONCURRENCY = 4;

/**
 * A request answered 429 again and again is handed back (as the 429 response) after this many
 * sends, so its caller can report the endpoint as blocked instead of waiting without end.
 */
export const MAX_SENDS_PER_REQUEST = 6;

/** How long budget changes may wait to be written together (real milliseconds). */
export const DEFAULT_FLUSH_DELAY_MS = 250;

export interface ScheduledRequest {
  /** Endpoint key: data center + method + route template + portal, built by the caller. */
  key: string;
  priority: Priority;
  /**
   * Sends the request. Called again for a transparent retry after a 429, so it must build a
   * fresh request each time. Must honour `signal`.
   */
  send: (signal: AbortSignal) => Promise<Response>;
  signal?: AbortSignal;
}

/** One endpoint key, for the Sync view. Times are epoch ms of the scheduler's clock. */
export interface EndpointBudgetReport {
  key: string;
  /** Calls per window the server allows (its `RateLimit` header once seen). */
  limit: number;
  windowMs: number;
  /** Calls in the current window: answered, in flight, and other clients' calls the server told of. */
  spent: number;
  /** Calls we will still send in this window (the safety reserve excluded). */
  remaining: number;
  /** When the next call may go: now if `remaining` > 0; null while only an answer can free a slot. */
  nextSlotAt: number | null;
  /** Set while a 429's Retry-After keeps this key closed. */
  blockedUntil: number | null;
  queued: number;
  inFlight: number;
  /** Calls sent over the previous and the current window, for the Sync view's chart. */
  calls: EndpointCallsChart;
}

/** How a send ended: with the service's answer (any status), or without one. */
export type CallOutcome = { answered: true } | { answered: false; error: unknown };

export interface RequestSchedulerOptions {
  clock: SchedulerClock;
  /** Where budgets survive a restart; without it they live in memory only. */
  store?: BudgetStore;
  concurrency?: number;
  /** What we assume until a response's headers say otherwise (the spec's 200 per 2 minutes). */
  limit?: RateLimit;
  safety?: Partial<SafetyMargin>;
  flushDelayMs?: number;
  log?: { warn(message: string): void };
}

interface Endpoint {
  key: string;
  budget: RateBudget;
  queues: Record<Priority, Fifo<Job>>;
  /** Queued, not cancelled, per priority (cancelled jobs stay in the Fifo until shifted). */
  live: Record<Priority, number>;
  /** Out of the ready rings until `wakeAt` or until one of its responses arrives. */
  parked: boolean;
  wakeAt: number;
}

interface Job {
  request: ScheduledRequest;
  endpoint: Endpoint;
  resolve: (response: Response) => void;
  reject: (reason: unknown) => void;
  queued: boolean;
  settled: boolean;
  sends: number;
  controller: AbortController | null;
  onAbort: (() => void) | null;
}

function abortError(message: string): DOMException {
  return new DOMException(message, 'AbortError');
}

/** Lets the connection go: an unread body would otherwise hold it. */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

/**
 * Every API request goes through here. Per endpoint key a sliding-window budget (see RateBudget)
 * decides when a call may go; among the calls that may go, priority decides, then round-robin
 * over keys, then arrival order; at most `concurrency` are in flight. A 429 closes its key alone
 * for Retry-After and the request is sent again afterwards.
 */
export class RequestScheduler {
  private readonly clock: SchedulerClock;
  private readonly store: BudgetStore | undefined;
  private readonly concurrency: number;
  private readonly limit: RateLimit;
  private readonly safety: SafetyMargin;
  private readonly flushDelayMs: number;
  private readonly log: { warn(message: string): void };

  private readonly endpoints = new Map<string, Endpoint>();
  /**
   * The endpoints sorted by key, made again only when one is added: a sync's progress asks for
   * the report at every page, and sorting 40 keys each time was a third of what the report cost
   * the engine's thread (bench/README.md, issue 18).
   */
  private sorted: Endpoint[] = [];
  /** Per priority, keys with queued work that are not parked, in round-robin order. */
  private readonly rings: Record<Priority, Set<string>> = {
    user: new Set(),
    visible: new Set(),
    background: new Set(),
  };
  private readonly parked = new Set<Endpoint>();
  private readonly inFlight = new Set<Job>();
  private readonly listeners = new Set<(key: string) => void>();
  private readonly outcomeListeners = new Set<(outcome: CallOutcome) => void>();
  private readonly dirty = new Set<Endpoint>();
  private readonly calls = new EndpointCalls();
  private active = 0;
  private pumping = false;
  private pumpAgain = false;
  private closed = false;
  private timerAt = Infinity;
  private timer: AbortController | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private storeFailed = false;

  constructor(options: RequestSchedulerOptions) {
    this.clock = options.clock;
    this.store = options.store;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
    this.limit = options.limit ?? SPEC_RATE_LIMIT;
    this.safety = { ...DEFAULT_SAFETY, ...options.safety };
    this.flushDelayMs = options.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS;
    this.log = options.log ?? console;
    if (this.store) {
      for (const stored of this.store.load(this.clock.now())) this.restore(stored);
    }
  }

  schedule(request: ScheduledRequest): Promise<Response> {
    if (this.closed) {
      return Promise.reject(abortError('The request scheduler is closed; nothing was sent.'));
    }
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const endpoint = this.endpoint(request.key);
    return new Promise<Response>((resolve, reject) => {
      const job: Job = {
        request,
        endpoint,
        resolve,
        reject,
        queued: false,
        settled: false,
        sends: 0,
        controller: null,
        onAbort: null,
      };
      if (signal) {
        job.onAbort = () => this.cancel(job, signal.reason);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.enqueue(job, false);
      this.changed(endpoint);
      this.pump();
    });
  }

  /** Per endpoint key, sorted by key. */
  report(): EndpointBudgetReport[] {
    const now = this.clock.now();
    return this.sortedEndpoints().map((endpoint) => ({
      key: endpoint.key,
      ...endpoint.budget.report(now),
      queued: endpoint.live.user + endpoint.live.visible + endpoint.live.background,
      inFlight: endpoint.budget.inFlight,
      calls: this.calls.chart(endpoint.key, now, endpoint.budget.windowMs),
    }));
  }

  private sortedEndpoints(): Endpoint[] {
    if (this.sorted.length === 0 && this.endpoints.size > 0) {
      this.sorted = [...this.endpoints.values()].sort((a, b) =>
        a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
      );
    }
    return this.sorted;
  }

  /** Called with the key whose budget, queue or in-flight calls changed. */
  onChange(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called as each send ends, answered or not: every API call of the app passes here, so this is
   * what connectivity (src/main/connectivity/) reads the connection from.
   */
  onCallEnded(listener: (outcome: CallOutcome) => void): () => void {
    this.outcomeListeners.add(listener);
    return () => this.outcomeListeners.delete(listener);
  }

  /** Writes changed budgets now (otherwise within `flushDelayMs`). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.store || this.dirty.size === 0) return;
    const now = this.clock.now();
    const budgets: StoredBudget[] = [...this.dirty].map((endpoint) => ({
      key: endpoint.key,
      ...endpoint.budget.seed(now),
      updatedAt: now,
    }));
    this.dirty.clear();
    try {
      this.store.save(budgets);
      this.storeFailed = false;
    } catch (error) {
      if (!this.storeFailed) {
        this.log.warn(
          `Could not save the API rate budgets (${error instanceof Error ? error.message : String(error)}). ` +
            'Requests go on with the budgets in memory; after a restart PortalDesk re-learns them from the server.',
        );
      }
      this.storeFailed = true;
    }
  }

  /**
   * Stops: queued requests are rejected with an AbortError without being sent, in-flight ones are
   * aborted, and the budgets (in-flight calls counted as spent) are written.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.timer?.abort();
    this.timer = null;
    for (const endpoint of this.endpoints.values()) {
      for (const priority of PRIORITIES) {
        const queue = endpoint.queues[priority];
        for (let job = queue.shift(); job; job = queue.shift()) {
          if (job.queued) {
            job.queued = false;
            this.settle(job);
            job.reject(
              abortError('The request scheduler was closed before this request was sent.'),
            );
          }
        }
        endpoint.live[priority] = 0;
      }
    }
    for (const job of this.inFlight) {
      const reason = abortError(
        'The request scheduler was closed while this request was in flight.',
      );
      job.controller?.abort(reason);
      this.settle(job);
      job.reject(reason);
    }
    this.flush();
    this.listeners.clear();
  }

  private restore(stored: StoredBudget): void {
    const budget = new RateBudget(this.limit, this.safety, stored);
    this.endpoints.set(stored.key, this.newEndpoint(stored.key, budget));
    this.sorted = [];
  }

  private endpoint(key: string): Endpoint {
    let endpoint = this.endpoints.get(key);
    if (!endpoint) {
      endpoint = this.newEndpoint(key, new RateBudget(this.limit, this.safety));
      this.endpoints.set(key, endpoint);
      this.sorted = [];
    }
    return endpoint;
  }

  private newEndpoint(key: string, budget: RateBudget): Endpoint {
    return {
      key,
      budget,
      queues: { user: new Fifo(), visible: new Fifo(), background: new Fifo() },
      live: { user: 0, visible: 0, background: 0 },
      parked: false,
      wakeAt: Infinity,
    };
  }

  private enqueue(job: Job, front: boolean): void {
    const { endpoint } = job;
    const priority = job.request.priority;
    if (front) endpoint.queues[priority].unshift(job);
    else endpoint.queues[priority].push(job);
    job.queued = true;
    endpoint.live[priority]++;
    if (!endpoint.parked) this.rings[priority].add(endpoint.key);
  }

  private cancel(job: Job, reason: unknown): void {
    if (job.settled) return;
    const { endpoint } = job;
    if (job.queued) {
      // Left in its Fifo and skipped when reached; the counts say it is gone.
      job.queued = false;
      const priority = job.request.priority;
      endpoint.live[priority]--;
      if (endpoint.live[priority] === 0) {
        endpoint.queues[priority].clear();
        this.rings[priority].delete(endpoint.key);
      }
    } else {
      // In flight: its slot frees when `send` settles, since the server may have seen it.
      job.controller?.abort(reason);
    }
    this.settle(job);
    job.reject(reason);
    this.changed(endpoint);
  }

  private settle(job: Job): void {
    job.settled = true;
    if (job.onAbort) job.request.signal?.removeEventListener('abort', job.onAbort);
    job.onAbort = null;
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        const now = this.clock.now();
        while (this.active < this.concurrency && !this.closed) {
          const job = this.nextReadyJob(now);
          if (!job) break;
          this.start(job, now);
        }
      } while (this.pumpAgain && !this.closed);
    } finally {
      this.pumping = false;
    }
  }

  private nextReadyJob(now: number): Job | undefined {
    for (const priority of PRIORITIES) {
      const ring = this.rings[priority];
      for (const key of ring) {
        const endpoint = this.endpoints.get(key) as Endpoint;
        if (endpoint.budget.nextSendAt(now) > now) {
          this.park(endpoint, now);
          continue;
        }
        const queue = endpoint.queues[priority];
        let job = queue.shift();
        while (job && !job.queued) job = queue.shift();
        if (!job) {
          ring.delete(key);
          continue;
        }
        job.queued = false;
        endpoint.live[priority]--;
        // To the back of the ring: the next call at this priority goes to another key.
        ring.delete(key);
        if (endpoint.live[priority] > 0) ring.add(key);
        return job;
      }
    }
    return undefined;
  }

  private park(endpoint: Endpoint, now: number): void {
    endpoint.parked = true;
    this.parked.add(endpoint);
    for (const priority of PRIORITIES) this.rings[priority].delete(endpoint.key);
    endpoint.wakeAt = endpoint.budget.nextSendAt(now);
    if (endpoint.wakeAt < this.timerAt) this.armTimer(endpoint.wakeAt, now);
  }

  private unpark(endpoint: Endpoint): void {
    if (!endpoint.parked) return;
    endpoint.parked = false;
    this.parked.delete(endpoint);
    endpoint.wakeAt = Infinity;
    for (const priority of PRIORITIES) {
      if (endpoint.live[priority] > 0) this.rings[priority].add(endpoint.key);
    }
  }

  private armTimer(at: number, now: number): void {
    if (this.closed || !Number.isFinite(at)) return;
    this.timer?.abort();
    const controller = new AbortController();
    this.timer = controller;
    this.timerAt = at;
    this.clock.sleep(Math.max(0, at - now), controller.signal).then(
      () => {
        if (this.timer !== controller) return;
        this.timer = null;
        this.timerAt = Infinity;
        this.wake();
      },
      () => undefined,
    );
  }

  /** The timer fired: keys whose time has come go back to the rings; the next timer is armed. */
  private wake(): void {
    const now = this.clock.now();
    let next = Infinity;
    for (const endpoint of [...this.parked]) {
      if (endpoint.wakeAt <= now) this.unpark(endpoint);
      else next = Math.min(next, endpoint.wakeAt);
    }
    if (next < this.timerAt) this.armTimer(next, now);
    this.pump();
  }

  private start(job: Job, now: number): void {
    const { endpoint } = job;
    const sentAt = endpoint.budget.start(now);
    this.calls.record(endpoint.key, sentAt, endpoint.budget.windowMs);
    this.active++;
    job.sends++;
    const controller = new AbortController();
    job.controller = controller;
    this.inFlight.add(job);
    let sending: Promise<Response>;
    try {
      sending = job.request.send(controller.signal);
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending.then(
      (response) => this.answered(job, sentAt, response),
      (error: unknown) => this.failed(job, error),
    );
    this.markDirty(endpoint);
    this.changed(endpoint);
  }

  private answered(job: Job, sentAt: number, response: Response): void {
    const { endpoint } = job;
    this.active--;
    this.inFlight.delete(job);
    job.controller = null;
    const now = this.clock.now();
    const reading = readRateHeaders(response.headers, now);
    this.ended({ answered: true });
    if (response.status === 429) {
      // Never less than Retry-After; without one, the spec's 10-minute block.
      endpoint.budget.pause(now, reading.retryAfterMs ?? SPEC_BLOCK_MS, reading);
      if (job.settled || this.closed) {
        discard(response);
      } else if (job.sends < MAX_SENDS_PER_REQUEST) {
        // It never reached the endpoint's handler: send the same request again once reopened.
        discard(response);
        this.enqueue(job, true);
      } else {
        this.settle(job);
        job.resolve(response);
      }
    } else {
      endpoint.budget.finish(sentAt, now, reading);
      if (job.settled) {
        discard(response);
      } else {
        this.settle(job);
        job.resolve(response);
      }
    }
    this.afterResponse(endpoint);
  }

  private failed(job: Job, error: unknown): void {
    const { endpoint } = job;
    this.active--;
    this.inFlight.delete(job);
    job.controller = null;
    endpoint.budget.fail(this.clock.now());
    this.ended({ answered: false, error });
    if (!job.settled) {
      this.settle(job);
      job.reject(error);
    }
    this.afterResponse(endpoint);
  }

  private ended(outcome: CallOutcome): void {
    for (const listener of this.outcomeListeners) {
      try {
        listener(outcome);
      } catch (error) {
        this.log.warn(`A request scheduler listener failed: ${String(error)}`);
      }
    }
  }

  private afterResponse(endpoint: Endpoint): void {
    if (this.closed) return;
    this.unpark(endpoint);
    this.markDirty(endpoint);
    this.changed(endpoint);
    this.pump();
  }

  private markDirty(endpoint: Endpoint): void {
    if (!this.store || this.closed) return;
    this.dirty.add(endpoint);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => this.flush(), this.flushDelayMs);
    this.flushTimer.unref?.();
  }

  private changed(endpoint: Endpoint): void {
    for (const listener of this.listeners) {
      try {
        listener(endpoint.key);
      } catch (error) {
        this.log.warn(`A request scheduler listener failed: ${String(error)}`);
      }
    }
  }
}
