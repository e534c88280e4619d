/**
 * The overview read on a thread of its own (overviewWorker.ts): the engine's thread asks for a
 * portal and hears its overview, so the counts never hold up `records.query` or any other answer
 * (the overview is read again every 2 s while a sync stores records and the view is open). One
 * worker, started at the first reading and kept; idle, it does not keep the process alive.
 *
 * If the thread stops (it could not open the store, it ran out of memory), the reading it was
 * doing and every later one run on `fallback`, the engine's own connection, as before there was a
 * thread: the overview stays readable, only slower to share the thread with.
 */
import { Worker } from 'node:worker_threads';
import type { MirrorOverview, MirrorOverviewReader } from './mirrorOverview';
import type { OverviewReply, OverviewRequest, OverviewWorkerData } from './overviewWorker';

interface Waiter {
  portalId: string;
  now: number;
  resolve: (value: MirrorOverview | null) => void;
  reject: (error: Error) => void;
}

export class OverviewThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private failed = false;
  private closed = false;

  constructor(
    private readonly options: {
      script: string | URL;
      file: string;
      nativeBinding?: string | undefined;
    },
    private readonly fallback: MirrorOverviewReader,
    private readonly log?: { error(message: string, error: unknown): void },
  ) {}

  /** False once the thread stopped and readings went back to the engine's connection. */
  get active(): boolean {
    return !this.failed && !this.closed;
  }

  read(portalId: string, now: number): Promise<MirrorOverview | null> {
    if (this.closed)
      return Promise.reject(new Error('The app is closing; the overview was not read.'));
    if (this.failed) {
      try {
        return Promise.resolve(this.fallback.read(portalId, now));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { portalId, now, resolve, reject });
      try {
        const worker = this.start();
        // Held while a reading is out: a script with nothing else to wait for would end mid-await.
        worker.ref();
        worker.postMessage({ id, portalId, now } satisfies OverviewRequest);
      } catch (error) {
        this.stopped(error);
      }
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiting.values()) {
      waiter.reject(new Error('The app is closing; the overview was not read.'));
    }
    this.waiting.clear();
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const workerData: OverviewWorkerData = {
      portaldeskOverview: true,
      file: this.options.file,
      ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}),
    };
    const worker = new Worker(this.options.script, { workerData });
    worker.unref();
    worker.on('message', (reply: OverviewReply) => this.answered(reply));
    worker.on('error', (error) => {
      if (this.worker === worker) this.stopped(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.closed) {
        this.stopped(new Error(`the overview's thread stopped (exit code ${code})`));
      }
    });
    this.worker = worker;
    return worker;
  }

  private answered(reply: OverviewReply): void {
    const waiter = this.waiting.get(reply.id);
    if (!waiter) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if (reply.ok) waiter.resolve(reply.value);
    // The thread read the store and SQLite refused: the engine's connection would too.
    else waiter.reject(new Error(reply.message));
  }

  /** The thread is gone: what it was reading, and every later reading, is read here. */
  private stopped(error: unknown): void {
    if (this.closed) return;
    if (!this.failed) {
      this.log?.error(
        "The overview's thread stopped; the overview is read on the engine's thread",
        error,
      );
    }
    this.failed = true;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiting) {
      try {
        waiter.resolve(this.fallback.read(waiter.portalId, waiter.now));
      } catch (readError) {
        waiter.reject(readError instanceof Error ? readError : new Error(String(readError)));
      }
    }
  }
}
