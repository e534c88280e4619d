import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import type { CommitSink } from './groupCommit';
import type { DrainedWrites } from './writeBatch';
import type { RouterWriteReply, RouterWriteRequest, RouterWriterData } from './routerWriterWorker';

/**
 * How long a read waits for the writer thread's commits before giving up on it. A commit takes
 * milliseconds; only a thread that hangs comes near this.
 */
const WRITER_WAIT_LIMIT_MS = 30_000;
/** A synchronous wait looks at the replies this often (they cannot be awaited on this thread). */
const WAIT_SLICE_MS = 50;
/**
 * A commit of at most this many rows, with the thread idle, is written on the engine's connection:
 * so small a commit costs less than handing it over, and the hand-over's two thread switches were
 * what the latency's tail was made of on a busy machine (bench:router, 500 events/s). Under load
 * commits grow past it and go to the thread. About two events with their deliveries.
 */
const INLINE_COMMIT_MAX_ROWS = 24;

const rowCount = (writes: DrainedWrites): number =>
  writes.eventInserts.length +
  writes.eventUpdates.length +
  writes.executionInserts.length +
  writes.executionUpdates.length +
  writes.attemptInserts.length +
  writes.attemptFinishes.length +
  writes.attemptDeletes.length +
  writes.binEntries.length;

type Done = (error: Error | null) => void;

/**
 * Group commits on a writer thread with its own connection to the router's file (a headless
 * router's, never the app's shared store): the engine thread only hands each drained batch over,
 * and the thread's reply settles the commit's waiters. Small commits while the thread is idle are
 * written on the engine's connection (INLINE_COMMIT_MAX_ROWS). Reads wait for every commit synchronously
 * (drain). If the thread fails, what it had not confirmed is reported failed and later commits
 * go to `fallback`, the engine's own connection.
 */
export class RouterWriterThread implements CommitSink {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly done: Int32Array;
  private seq = 0;
  private acknowledged = 0;
  private readonly pending = new Map<number, Done[]>();
  private idleWaiters: (() => void)[] = [];
  private failure: Error | null = null;
  private closing = false;
  private readonly inlineMaxRows: number;

  constructor(
    options: {
      script: string | URL;
      file: string;
      /** Commits of at most this many rows go to `fallback` while the thread is idle. */
      inlineMaxRows?: number;
    },
    private readonly fallback: CommitSink,
    private readonly log?: { error(message: string, error: unknown): void },
  ) {
    this.inlineMaxRows = options.inlineMaxRows ?? INLINE_COMMIT_MAX_ROWS;
    const channel = new MessageChannel();
    const shared = new SharedArrayBuffer(4);
    this.done = new Int32Array(shared);
    const workerData: RouterWriterData = {
      portaldeskRouterWriter: true,
      file: options.file,
      port: channel.port2,
      done: shared,
    };
    this.worker = new Worker(options.script, { workerData, transferList: [channel.port2] });
    this.port = channel.port1;
    this.port.on('message', (reply: RouterWriteReply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) =>
      this.fail(new Error(`the router's writer thread stopped (exit code ${code})`)),
    );
    // Neither may keep a finished process alive; close() drains before ending them.
    this.worker.unref();
    this.port.unref();
  }

  /** False once the thread failed and commits went back to the engine's connection. */
  get active(): boolean {
    return this.failure === null;
  }

  /** Commits handed to the thread so far. */
  get commits(): number {
    return this.seq;
  }

  commit(writes: DrainedWrites, done: Done): void {
    // With nothing of the thread's under way, the engine's connection cannot meet its lock.
    const idle = this.acknowledged === this.seq;
    if (this.failure || (idle && rowCount(writes) <= this.inlineMaxRows)) {
      this.fallback.commit(writes, done);
      return;
    }
    const seq = ++this.seq;
    this.pending.set(seq, [done]);
    this.port.postMessage({ seq, writes } satisfies RouterWriteRequest);
  }

  afterCommits(done: Done): void {
    if (this.acknowledged === this.seq || this.failure) done(null);
    else this.pending.get(this.seq)?.push(done);
  }

  whenIdle(ready: () => void): void {
    if (this.acknowledged === this.seq || this.failure) ready();
    else this.idleWaiters.push(ready);
  }

  drain(): void {
    const deadline = performance.now() + WRITER_WAIT_LIMIT_MS;
    while (this.acknowledged < this.seq && !this.failure) {
      for (
        let reply = receiveMessageOnPort(this.port);
        reply;
        reply = receiveMessageOnPort(this.port)
      ) {
        this.settle(reply.message as RouterWriteReply);
      }
      if (this.acknowledged >= this.seq) break;
      const left = deadline - performance.now();
      if (left <= 0) {
        this.fail(
          new Error(`the router's writer thread did not answer within ${WRITER_WAIT_LIMIT_MS} ms`),
        );
        break;
      }
      Atomics.wait(this.done, 0, Atomics.load(this.done, 0), Math.min(left, WAIT_SLICE_MS));
    }
  }

  /** Waits for every commit, then ends the thread. */
  async close(): Promise<void> {
    this.drain();
    this.closing = true;
    this.port.close();
    await this.worker.terminate();
  }

  private settle(reply: RouterWriteReply): void {
    this.acknowledged = Math.max(this.acknowledged, reply.seq);
    const dones = this.pending.get(reply.seq) ?? [];
    this.pending.delete(reply.seq);
    const error = reply.error === null ? null : new Error(reply.error);
    for (const done of dones) done(error);
    if (this.acknowledged === this.seq) this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    for (const ready of this.idleWaiters.splice(0)) ready();
  }

  private fail(error: Error): void {
    if (this.failure || this.closing) return;
    this.failure = error;
    this.log?.error(
      "The router's writer thread failed; commits it had not confirmed are reported failed, later ones are written on the engine's connection",
      error,
    );
    for (const dones of this.pending.values()) for (const done of dones) done(error);
    this.pending.clear();
    this.wakeIdleWaiters();
  }
}
