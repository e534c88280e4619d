/**
 * The sandbox's time. `scale` N makes every duration of the router (retry backoff, Retry-After,
 * rate windows, the capture URL's 15 minutes) pass N times faster, so a schedule of retries over
 * hours plays in seconds; `advance` jumps forward. A manual clock (tests) only moves by `advance`,
 * which fires every timer that falls due, in order, before it returns.
 */
export interface RouterClock {
  readonly scale: number;
  /** Virtual epoch milliseconds, whole. */
  now(): number;
  /** Runs `fn` once virtual time reaches `dueAt`; returns a cancel function. */
  at(dueAt: number, fn: () => void): () => void;
  advance(ms: number): void;
  close(): void;
}

interface Timer {
  dueAt: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * The last instant the router's time may reach: a Date's range (ECMAScript, 8.64e15 ms), below
 * the largest integer a double holds exactly, so every stored time stays an INTEGER.
 */
export const LATEST_ROUTER_TIME_MS = 8.64e15;

/** The longest real wait armed at once; longer waits re-arm (Node caps timeouts at 2^31-1 ms). */
const MAX_REAL_WAIT_MS = 2 ** 31 - 1;

export interface VirtualClockOptions {
  /** Virtual ms per real ms; ignored when manual. */
  scale?: number;
  manual?: boolean;
  /** Virtual time at start; default the real time. */
  startMs?: number;
  realNow?: () => number;
}

export class VirtualClock implements RouterClock {
  readonly scale: number;
  private readonly manual: boolean;
  private readonly realNow: () => number;
  private readonly realStart: number;
  private readonly virtualStart: number;
  private offset = 0;
  private seq = 0;
  private heap: Timer[] = [];
  private armed: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: VirtualClockOptions = {}) {
    const scale = options.scale ?? 1;
    if (!(scale > 0) || !Number.isFinite(scale)) {
      throw new Error(`The time scale must be a positive number, not ${String(options.scale)}.`);
    }
    this.scale = options.manual ? 0 : scale;
    this.manual = options.manual ?? false;
    this.realNow = options.realNow ?? (() => performance.timeOrigin + performance.now());
    this.realStart = this.realNow();
    this.virtualStart = options.startMs ?? Date.now();
  }

  now(): number {
    const elapsed = this.manual ? 0 : (this.realNow() - this.realStart) * this.scale;
    // Whole milliseconds: every stored time and the payload's time_in_ms are integers.
    return Math.floor(this.virtualStart + elapsed + this.offset);
  }

  at(dueAt: number, fn: () => void): () => void {
    const timer: Timer = { dueAt, seq: this.seq++, fn, cancelled: false };
    this.push(timer);
    if (!this.manual && this.heap[0] === timer) this.arm();
    return () => {
      timer.cancelled = true;
    };
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error('The router clock only moves forward.');
    if (ms > LATEST_ROUTER_TIME_MS - this.now()) {
      throw new Error(
        `The router clock cannot move ${ms} ms: times past year 275760 cannot be stored.`,
      );
    }
    this.offset += ms;
    if (this.manual) this.fireDue();
    else this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.armed) clearTimeout(this.armed);
    this.heap = [];
  }

  private fireDue(): void {
    for (;;) {
      const next = this.heap[0];
      if (!next || next.dueAt > this.now() || this.closed) break;
      this.pop();
      if (!next.cancelled) next.fn();
    }
  }

  private arm(): void {
    if (this.armed) clearTimeout(this.armed);
    this.armed = null;
    while (this.heap[0]?.cancelled) this.pop();
    const next = this.heap[0];
    if (!next || this.closed) return;
    const realWait = Math.min(
      Math.max(0, (next.dueAt - this.now()) / this.scale),
      MAX_REAL_WAIT_MS,
    );
    this.armed = setTimeout(() => {
      this.armed = null;
      this.fireDue();
      this.arm();
    }, Math.ceil(realWait));
    // Pending retries must not keep a finished process (a test, the CLI after close) alive.
    this.armed.unref();
  }

  private push(timer: Timer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): Timer | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }
}

function before(a: Timer, b: Timer): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}
