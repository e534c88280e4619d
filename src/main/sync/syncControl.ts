import { setMaxListeners } from 'node:events';

/** Why a sync stopped before it was done. */
export type StopReason = 'cancelled' | 'offline' | 'failed';

/** The reason every pending step of a stopped sync rejects with (the abort signal's reason). */
export class SyncStopped extends Error {
  override name = 'SyncStopped';

  constructor(
    readonly reason: StopReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Pause, resume and stop for one sync (or the comment backfill). Every step awaits
 * `checkpoint()` before it sends a request: while paused it waits there, so requests in flight
 * finish and their pages are committed, and nothing new is sent. Stopping aborts `signal`, which
 * every request carries: requests in flight are aborted, and what was committed stays committed.
 */
export class SyncControl {
  private readonly controller = new AbortController();
  private isPaused = false;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly onPausedChange: (paused: boolean) => void = () => undefined) {
    // Every request of the run waits on this signal; a run has many in the scheduler's queue.
    setMaxListeners(0, this.controller.signal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** The stop's reason, or null while the sync may go on. */
  get stopped(): SyncStopped | null {
    return this.signal.aborted ? (this.signal.reason as SyncStopped) : null;
  }

  pause(): void {
    if (this.isPaused || this.signal.aborted) return;
    this.isPaused = true;
    this.onPausedChange(true);
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    for (const wake of [...this.waiting]) wake();
    if (!this.signal.aborted) this.onPausedChange(false);
  }

  /** The first stop wins; later ones change nothing. */
  stop(reason: StopReason, message: string, cause?: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(new SyncStopped(reason, message, cause === undefined ? {} : { cause }));
    for (const wake of [...this.waiting]) wake();
  }

  /** Resolves when the sync may send its next request; rejects once it is stopped. */
  async checkpoint(): Promise<void> {
    while (this.isPaused && !this.signal.aborted) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiting.delete(wake);
          resolve();
        };
        this.waiting.add(wake);
      });
    }
    if (this.signal.aborted) throw this.signal.reason;
  }

  /** Waits `ms` on `sleep`, cut short (rejecting) by a stop. */
  async sleep(
    sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
    ms: number,
  ): Promise<void> {
    try {
      await sleep(ms, this.signal);
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason;
      throw error;
    }
  }
}
