import type { EndpointBudgetReport } from '../api/requestScheduler';
import type { SchedulerClock } from '../api/schedulerClock';
import type { Mirror } from '../store/mirror/mirror';
import type { MirrorWriter } from '../store/mirror/mirrorWriter';
import { classifySyncFailure, failureMessage } from './classifySyncFailure';
import { commentsKey, fetchRecordComments } from './commentFetcher';
import { countRecordsNeedingComments, recordsNeedingComments } from './commentNeeds';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SYNC_PRIORITY, type SyncLog } from './syncContext';
import { SyncControl } from './syncControl';
import type { SyncedPortal } from './syncRunner';
import { SyncProgressTracker } from './syncProgressTracker';
import type { SyncAccount, SyncProgress } from './syncTypes';

/**
 * Ours: calls the backfill leaves unspent on a portal's comments key in every window, so a record
 * the user opens has its comments read at once instead of after the window.
 */
export const COMMENT_VISIBLE_RESERVE = 10;

/**
 * Ours: mirrored comments are read again once older than this. A new comment does not change its
 * record's last_updated_time, so only a re-read finds it.
 */
export const COMMENT_REFRESH_MS = 7 * 24 * 60 * 60 * 1000;

/** Records taken from the mirror at a time. */
const BATCH = 50;
/** How often a backfill short of budget looks again (real time). */
const HEADROOM_POLL_MS = 1000;

export interface CommentBackfillDeps {
  account: SyncAccount;
  mirror: Mirror;
  writer: MirrorWriter;
  portals: readonly SyncedPortal[];
  clock: SchedulerClock;
  budgets: () => readonly EndpointBudgetReport[];
  emit: (progress: SyncProgress) => void;
  log: SyncLog;
  paused: boolean;
}

/**
 * Comments of every record whose comments are not mirrored (or changed since, or are older than
 * COMMENT_REFRESH_MS), one request per record at background priority, sending only while the
 * portal's comments key has more than COMMENT_VISIBLE_RESERVE calls left in its window. Not part
 * of a sync's "done": it runs after a sync until nothing is left, and stops quietly when offline.
 */
export class CommentBackfill {
  readonly control: SyncControl;
  readonly done: Promise<void>;
  private readonly progress: SyncProgressTracker;

  constructor(private readonly deps: CommentBackfillDeps) {
    this.control = new SyncControl();
    if (deps.paused) this.control.pause();
    this.progress = new SyncProgressTracker(
      { runId: null, accountId: deps.account.accountId, dc: deps.account.client.dataCenter },
      deps.emit,
      deps.budgets,
      () => deps.clock.now(),
    );
    this.done = Promise.resolve()
      .then(() => this.run())
      .catch(() => undefined);
  }

  stop(): void {
    this.control.stop('cancelled', 'The comment backfill was stopped.');
  }

  private async run(): Promise<void> {
    for (const portal of this.deps.portals) {
      for (const module of portal.modules) {
        if (!(await this.fillModule(portal.portalId, module))) return;
      }
    }
  }

  /** Returns false when the backfill must stop (stopped, offline). */
  private async fillModule(
    portalId: string,
    module: SyncedPortal['modules'][number],
  ): Promise<boolean> {
    const { mirror, account, clock } = this.deps;
    const key = commentsKey(account.client, portalId, module);
    const scope = this.progress.scope(`${portalId}:${module.id}`, {
      portalId,
      moduleId: module.id,
      module: module.name,
      phase: 'comments',
    });
    // Counted once there is work: a module whose comments are all read and fresh costs one walk
    // of its records, not a count of its comment_sync rows as well.
    let total: number | undefined;
    const failed = new Set<string>();
    for (;;) {
      const staleBefore = new Date(clock.now() - COMMENT_REFRESH_MS).toISOString();
      let ids: string[];
      try {
        ids = await recordsNeedingComments(
          (listState, after, chunk) =>
            mirror.comments.commentNeedsChunk(portalId, module.id, listState, after, {
              chunk,
              staleBefore,
            }),
          { limit: BATCH, skip: failed, pause: this.betweenChunks },
        );
        if (ids.length > 0) {
          total ??= await countRecordsNeedingComments(mirror.comments, portalId, module.id, {
            pause: this.betweenChunks,
          });
        }
      } catch (error) {
        // Stopped (or paused, then stopped) between two chunks.
        if (this.ended(scope, error)) return false;
        throw error;
      }
      if (ids.length === 0) break;
      total = Math.max(total ?? 0, scope.done + ids.length);
      for (const recordId of ids) {
        try {
          await this.headroom(key);
          await fetchRecordComments(
            account.client,
            mirror,
            this.deps.writer,
            portalId,
            module,
            recordId,
            {
              priority: SYNC_PRIORITY,
              signal: this.control.signal,
              onCall: async () => {
                await this.control.checkpoint();
                this.progress.call(scope);
              },
            },
          );
          this.progress.update(scope, {
            done: scope.done + 1,
            total,
            pending: { key, calls: total - scope.done - 1 },
          });
        } catch (error) {
          if (this.ended(scope, error)) return false;
          failed.add(recordId);
          this.deps.log.warn(
            `Comments of record ${recordId} (portal ${portalId}) could not be read: ${failureMessage(error)} They are tried again after the next sync.`,
          );
        }
      }
    }
    this.progress.update(scope, {
      phase: 'done',
      pending: null,
      done: scope.done,
      total: total ?? 0,
    });
    return true;
  }

  /**
   * Whether `error` ends the backfill (stopped, offline, signed out), said in the module's
   * progress. The module's records are still up to date; the records whose comments are not read
   * say so where they are shown.
   */
  private ended(scope: ReturnType<SyncProgressTracker['scope']>, error: unknown): boolean {
    const kind = classifySyncFailure(error);
    if (kind !== 'stopped' && kind !== 'offline' && kind !== 'signedOut') return false;
    this.progress.update(scope, { phase: 'done', pending: null, message: failureMessage(error) });
    return true;
  }

  /**
   * Between two chunks of the mirror's walks: the engine's thread answers what waits, and a
   * pause or stop takes effect.
   */
  private readonly betweenChunks = async (): Promise<void> => {
    await nextTurn();
    await this.control.checkpoint();
  };

  /** Waits while the key has no more than the reserve left in its window. */
  private async headroom(key: string): Promise<void> {
    for (;;) {
      await this.control.checkpoint();
      const budget = this.deps.budgets().find((report) => report.key === key);
      if (!budget || budget.remaining > COMMENT_VISIBLE_RESERVE) return;
      await this.control.sleep(this.deps.clock.sleep, HEADROOM_POLL_MS);
    }
  }
}
