import { WriteBatch, type DrainedWrites } from './writeBatch';

/**
 * The least time between two scheduled commits: under load a commit then holds many events. Each
 * commit rewrites every index page it touched (events by publisher, executions by rule: about a
 * hundred pages per commit in bench:router), so fewer, larger commits cost less per event. 4 ms
 * measured better than 8 (p50 5 ms against 9.5 at 500 events/s, p99 no worse). When the last
 * commit is older than this, the next one runs at once: a lone event waits for nothing.
 */
const MIN_COMMIT_INTERVAL_MS = 4;

/** Where group commits are written: the engine's connection (inline) or the writer thread. */
export interface CommitSink {
  /** Writes `writes` in one transaction; `done` gets null once committed, else the error. */
  commit(writes: DrainedWrites, done: (error: Error | null) => void): void;
  /** Calls `done` once every commit begun so far is done (at once if none is under way). */
  afterCommits(done: (error: Error | null) => void): void;
  /** Returns once every commit begun so far is done and its `done` was called. */
  drain(): void;
  /**
   * A sink that commits elsewhere (the writer thread) calls `ready` once no commit of it is under
   * way, at once (synchronously) if none is: the next group commit waits for that too, so under
   * load each commit takes everything queued while the previous one was being written.
   */
  whenIdle?(ready: () => void): void;
}

export interface GroupCommitOptions {
  sink: CommitSink;
  /** False once the database is closed: nothing more can be stored. */
  isOpen(): boolean;
  /** A commit that failed (its waiters are rejected too), or a hook that threw. */
  onError(error: unknown): void;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the delivery path: everything queued in one turn of the event loop (or, under
 * load, in MIN_COMMIT_INTERVAL_MS) is written in one transaction, since a commit costs far more
 * than a row. Whoever may not go on before the data is stored (the ingress before it answers 202,
 * a delivery before it sends) awaits `committed()`, which settles with the commit holding
 * everything queued so far.
 */
export class GroupCommit {
  private readonly batch = new WriteBatch();
  private readonly hooks: (() => void)[] = [];
  private waiters: Waiter[] = [];
  private scheduled: { cancel(): void } | null = null;
  private flushing = false;
  private lastCommitAt = -Infinity;

  constructor(private readonly options: GroupCommitOptions) {}

  /** Runs just before each commit; what it queues goes into that commit (routing new events). */
  beforeCommit(hook: () => void): void {
    this.hooks.push(hook);
  }

  /** Queues writes for the next commit. */
  queue(write: (batch: WriteBatch) => void): void {
    write(this.batch);
    this.schedule();
  }

  /** Settles once everything queued so far is committed; rejects if that commit failed. */
  committed(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  /**
   * Commits what is queued and returns once every commit is done, so reads see every queued write.
   * Inside a commit (a hook reading the database) it does nothing: that commit takes the queue.
   */
  flush(): void {
    if (this.flushing) return;
    this.begin();
    this.options.sink.drain();
  }

  /** Starts the commit of everything queued; the sink settles its waiters when it is stored. */
  private begin(): void {
    this.scheduled?.cancel();
    this.scheduled = null;
    this.flushing = true;
    this.lastCommitAt = performance.now();
    let waiters: Waiter[] = [];
    try {
      for (const hook of this.hooks) hook();
      waiters = this.waiters;
      this.waiters = [];
      const done = (error: Error | null): void => {
        if (error) this.options.onError(error);
        for (const waiter of waiters) {
          if (error) waiter.reject(error);
          else waiter.resolve();
        }
      };
      if (this.batch.isEmpty) {
        this.options.sink.afterCommits(done);
      } else {
        const writes = this.batch.drain();
        if (this.options.isOpen()) this.options.sink.commit(writes, done);
        else done(new Error('the database is already closed'));
      }
    } catch (error) {
      for (const waiter of [...waiters, ...this.waiters.splice(0)]) waiter.reject(error);
      this.options.onError(error);
    } finally {
      this.flushing = false;
    }
    if (!this.batch.isEmpty || this.waiters.length > 0) this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    let cancelled = false;
    let clear = (): void => {};
    const handle = {
      cancel: () => {
        cancelled = true;
        clear();
      },
    };
    this.scheduled = handle;
    const go = (): void => {
      if (cancelled || this.scheduled !== handle) return;
      this.scheduled = null;
      this.begin();
    };
    // The interval first, then (writer thread) the previous commit's end: what queues meanwhile
    // joins this commit.
    const run = (): void => {
      if (cancelled) return;
      const { sink } = this.options;
      if (sink.whenIdle) sink.whenIdle(go);
      else go();
    };
    const wait = this.lastCommitAt + MIN_COMMIT_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      const immediate = setImmediate(run);
      clear = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(run, wait);
      clear = () => clearTimeout(timer);
    }
  }
}
