import { ALL_PROJECTS } from '../api/client/endpoints';
import { classifySyncFailure, failureMessage } from './classifySyncFailure';
import { fetchRecordComments } from './commentFetcher';
import { callOptions, type ModuleRef, type RunContext } from './syncContext';
import type { ProgressScope } from './syncProgressTracker';

/**
 * Ours: comments read within one run, per portal. Comments cost a request per record on one
 * endpoint key per portal (200 calls per 2 minutes); staying below one window's budget (198)
 * means a run never waits a window for its own comments. The rest is left to the backfill.
 */
export const COMMENTS_PER_RUN = 100;

/** Ours: comment requests of one run in flight at once (the scheduler caps the total anyway). */
const COMMENT_WORKERS = 2;

/** How often comments waiting for the records' endpoint look again (real time). */
const IDLE_POLL_MS = 250;

/**
 * Comments of the records a run stored or changed, up to `limit` per portal. They are read while
 * the portal's records endpoint waits for its window (or once its records are done), so they never
 * take a request slot the records could use. A record whose comments cannot be read now is left
 * for the backfill; only a stop ends the queue early.
 */
export class RecentCommentQueue {
  private readonly queue: { module: ModuleRef; recordId: string }[] = [];
  private readonly seen = new Set<string>();
  private readonly recordsKey: string;
  private active = 0;
  private polling = false;
  private recordsDone = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly ctx: RunContext,
    private readonly portalId: string,
    private readonly scope: ProgressScope,
    private readonly limit: number = COMMENTS_PER_RUN,
  ) {
    this.recordsKey = ctx.client.endpointKey('listEntities', {
      portal_id: portalId,
      scope_path: ALL_PROJECTS,
      module_api_name: '-',
    });
  }

  /** Queues records of `module` that changed, until the run's limit is reached. */
  offer(module: ModuleRef, recordIds: readonly string[]): void {
    const before = this.seen.size;
    for (const recordId of recordIds) {
      if (this.seen.size >= this.limit) break;
      if (this.seen.has(recordId)) continue;
      this.seen.add(recordId);
      this.queue.push({ module, recordId });
    }
    if (this.seen.size === before) return;
    this.ctx.progress.update(this.scope, { total: this.seen.size });
    this.pump();
  }

  /** The portal's records are pulled: the rest of the queue may go at once. */
  finishRecords(): void {
    this.recordsDone = true;
    this.pump();
  }

  /** Resolves once every queued record's comments were read (or given up on). */
  drained(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Whether the records' endpoint has no use for a request slot now. */
  private recordsIdle(): boolean {
    if (this.recordsDone) return true;
    const budget = this.ctx.budgets().find((report) => report.key === this.recordsKey);
    // Without budgets (no scheduler report) there is nothing to wait for.
    return !budget || budget.remaining === 0;
  }

  private pump(): void {
    if (this.queue.length > 0 && !this.recordsIdle()) {
      this.poll();
      return;
    }
    while (this.active < COMMENT_WORKERS && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.active++;
      void this.fetch(next.module, next.recordId).finally(() => {
        this.active--;
        this.pump();
        if (this.active === 0 && this.queue.length === 0) {
          for (const resolve of this.idle.splice(0)) resolve();
        }
      });
    }
  }

  private poll(): void {
    if (this.polling) return;
    this.polling = true;
    this.ctx.control.sleep(this.ctx.clock.sleep, IDLE_POLL_MS).then(
      () => {
        this.polling = false;
        this.pump();
      },
      () => {
        // Stopped: nothing more is read, and whoever waits for the queue is let go.
        this.polling = false;
        this.queue.length = 0;
        if (this.active === 0) for (const resolve of this.idle.splice(0)) resolve();
      },
    );
  }

  private async fetch(module: ModuleRef, recordId: string): Promise<void> {
    const { ctx, scope } = this;
    if (ctx.control.stopped) {
      this.queue.length = 0;
      return;
    }
    try {
      await fetchRecordComments(
        ctx.client,
        ctx.mirror,
        ctx.writer,
        this.portalId,
        module,
        recordId,
        {
          ...callOptions(ctx),
          onCall: async () => {
            await ctx.control.checkpoint();
            ctx.progress.call(scope);
          },
        },
      );
      ctx.progress.update(scope, { done: scope.done + 1 });
    } catch (error) {
      if (classifySyncFailure(error) === 'stopped') {
        this.queue.length = 0;
        return;
      }
      ctx.log.warn(
        `Comments of record ${recordId} (portal ${this.portalId}) were not read: ${failureMessage(error)} They will be read in the background later.`,
      );
    }
  }
}
