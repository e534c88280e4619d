import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import { MirrorWriteError } from './mirrorWriteError';
import { mirrorWriterOf, type MirrorWriter, type WriteTarget } from './mirrorWriter';
import type { MirrorWriteReply, MirrorWriteRequest, MirrorWriterData } from './mirrorWriterWorker';

/** How long closing waits for the writes handed over to be stored. */
const CLOSE_WAIT_LIMIT_MS = 30_000;
/** A synchronous wait looks at the replies this often (they cannot be awaited there). */
const WAIT_SLICE_MS = 50;

interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The error the thread reported, as the sync engine classifies it (MirrorWriteError: skip). */
function errorOf(reply: Extract<MirrorWriteReply, { ok: false }>): Error {
  if (reply.name === 'MirrorWriteError') return new MirrorWriteError(reply.message);
  const error = new Error(reply.message) as Error & { code?: string };
  error.name = reply.name;
  if (reply.code !== null) error.code = reply.code;
  return error;
}

/**
 * Runs a sync's writes of the mirror on a thread with its own connection to the store's file
 * (mirrorWriterWorker.ts): the engine's thread hands what it read over and awaits the answer, so
 * parsing the next page, answering `records.query` and repainting go on while SQLite stores and
 * indexes. Writes are run in the order they were asked, but for readings of record pages, which
 * go first (takeNextWrite). If the thread fails, what it had not
 * confirmed is reported failed (each is one transaction, stored whole or not at all, and a page
 * with its cursor: the next sync reads it again) and later writes go to `fallback`, the engine's
 * own connection.
 */
export class MirrorWriterThread {
  /** The writes, each run on the thread (or, once it failed, on `fallback`). */
  readonly writer: MirrorWriter;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly done: Int32Array;
  private nextId = 1;
  private answered = 0;
  private asked = 0;
  private readonly pending = new Map<number, Waiter>();
  private failure: Error | null = null;
  private closed = false;
  private readonly now: () => number;

  constructor(
    options: {
      script: string | URL;
      file: string;
      nativeBinding?: string | undefined;
      /** The clock of the times the writes store (MirrorWriteRequest.at); Date.now by default. */
      now?: () => number;
    },
    private readonly fallback: MirrorWriter,
    private readonly log?: { error(message: string, error: unknown): void },
  ) {
    const channel = new MessageChannel();
    const shared = new SharedArrayBuffer(4);
    this.done = new Int32Array(shared);
    const workerData: MirrorWriterData = {
      portaldeskMirrorWriter: true,
      file: options.file,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      port: channel.port2,
      done: shared,
    };
    this.now = options.now ?? Date.now;
    this.worker = new Worker(options.script, { workerData, transferList: [channel.port2] });
    this.port = channel.port1;
    this.port.on('message', (reply: MirrorWriteReply) => this.settle(reply));
    this.writer = mirrorWriterOf((target, method, args) => this.run(target, method, args));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) =>
      this.fail(new Error(`the mirror's writer thread stopped (exit code ${code})`)),
    );
    // Neither may keep a finished process alive; close() waits for what was handed over. The port
    // is held (ref) while a write is pending: with nothing else to wait for (a headless child, a
    // script), the process would otherwise end in the middle of an `await` of a write.
    this.worker.unref();
    this.port.unref();
  }

  /** False once the thread failed and writes went back to the engine's connection. */
  get active(): boolean {
    return this.failure === null && !this.closed;
  }

  /**
   * Waits (synchronously, at most CLOSE_WAIT_LIMIT_MS) for every request handed over, then ends
   * the thread. Called before the store closes.
   */
  close(): void {
    if (this.closed) return;
    const deadline = performance.now() + CLOSE_WAIT_LIMIT_MS;
    while (this.answered < this.asked && this.failure === null) {
      for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
        this.settle(got.message as MirrorWriteReply);
      }
      const left = deadline - performance.now();
      if (this.answered >= this.asked || left <= 0) break;
      Atomics.wait(this.done, 0, Atomics.load(this.done, 0), Math.min(left, WAIT_SLICE_MS));
    }
    this.closed = true;
    this.rejectPending(new Error('the app closed before this was stored'));
    this.port.close();
    void this.worker.terminate();
  }

  private run(target: WriteTarget, method: string, args: unknown[]): Promise<unknown> {
    if (!this.active) {
      const fallback = this.fallback[target] as unknown as Record<
        string,
        (...a: unknown[]) => Promise<unknown>
      >;
      return fallback[method]!(...args);
    }
    const id = this.nextId++;
    this.asked++;
    if (this.pending.size === 0) this.port.ref();
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({
        id,
        target,
        method,
        args,
        at: this.now(),
      } satisfies MirrorWriteRequest);
    });
  }

  private settle(reply: MirrorWriteReply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    this.answered++;
    if (this.pending.size === 0) this.port.unref();
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(errorOf(reply));
  }

  private fail(error: unknown): void {
    if (this.failure || this.closed) return;
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.log?.error(
      "The mirror's writer thread failed; records are stored on the engine's connection from now on.",
      error,
    );
    this.rejectPending(
      new Error(
        `The mirror's writer thread failed (${this.failure.message}) before this was done; nothing of it was stored, and the next sync reads it again.`,
      ),
    );
  }

  private rejectPending(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    this.port.unref();
  }
}
