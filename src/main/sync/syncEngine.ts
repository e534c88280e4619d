import type { ApiClient } from '../api/client/apiClient';
import type { EndpointBudgetReport } from '../api/requestScheduler';
import { systemClock, type SchedulerClock } from '../api/schedulerClock';
import { PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import type { Mirror } from '../store/mirror/mirror';
import { inlineMirrorWriter, type MirrorWriter } from '../store/mirror/mirrorWriter';
import { CommentBackfill } from './commentBackfill';
import { fetchRecordComments } from './commentFetcher';
import { RECONCILE_INTERVAL_MS } from './planRecordPull';
import { COMMENTS_PER_RUN } from './recentCommentQueue';
import type { SyncLog } from './syncContext';
import { SyncRunner } from './syncRunner';
import type { SyncAccount, SyncEvent, SyncRun } from './syncTypes';

/**
 * Ours: the engine's own retries of a step the client already retried (4 sends over ~3.5 s):
 * a service that fails or a connection that drops for a few seconds does not end the sync.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000];

export interface SyncEngineOptions {
  mirror: Mirror;
  /**
   * Where the sync writes the mirror: by default on the mirror's own connection
   * (inlineMirrorWriter); the app hands the writer thread's (MirrorWriterThread).
   */
  writer?: MirrorWriter;
  /** Time for cursors and reconciliation, and waits between retries. */
  clock?: SchedulerClock;
  /** The request scheduler's report, for ETAs and the comment backfill's headroom. */
  budgets?: () => readonly EndpointBudgetReport[];
  log?: SyncLog;
  /** Records per list call; default and maximum 200 (spec: per_page 1-200), at least 2. */
  pageSize?: number;
  reconcileIntervalMs?: number;
  /** Comments read within one run, per portal (see COMMENTS_PER_RUN). */
  commentsPerRun?: number;
  /** Read the remaining comments in the background after each sync (default true). */
  commentBackfill?: boolean;
  retryDelaysMs?: readonly number[];
}

export interface SyncOptions {
  /** Compare every module's ids with the server's now, whatever the counts say. */
  reconcile?: boolean;
}

/** Where a record is, for reading its comments at once. */
export interface RecordRef {
  portalId: string;
  moduleId: string;
  recordId: string;
}

/**
 * The sync engine: pulls accounts' portals into the mirror, one run per account and data center
 * at a time (asking again while one runs returns that run), reads comments in the background
 * afterwards, and reads a record's comments at once when the user opens it. Progress and state
 * go to `onEvent` listeners.
 */
export class SyncEngine {
  private readonly mirror: Mirror;
  private readonly writer: MirrorWriter;
  private readonly clock: SchedulerClock;
  private readonly budgets: () => readonly EndpointBudgetReport[];
  private readonly log: SyncLog;
  private readonly options: SyncEngineOptions;
  private readonly listeners = new Set<(event: SyncEvent) => void>();
  private readonly runs = new Map<string, SyncRunner>();
  private readonly backfills = new Map<string, CommentBackfill>();
  /** The client that last reached each portal, for reading comments on demand. */
  private readonly portalClients = new Map<string, ApiClient>();
  private readonly knownGaps = new Map<string, number>();
  private isPaused = false;
  private closed = false;
  private commentBackfill: boolean;

  constructor(options: SyncEngineOptions) {
    this.options = options;
    this.commentBackfill = options.commentBackfill !== false;
    this.mirror = options.mirror;
    this.writer = options.writer ?? inlineMirrorWriter(options.mirror);
    this.clock = options.clock ?? systemClock;
    this.budgets = options.budgets ?? (() => []);
    this.log = options.log ?? console;
    const pageSize = options.pageSize ?? PER_PAGE_MAX;
    // A full pull's windows overlap by one record (scanRunsAhead.ts): one alone would never move.
    if (!Number.isInteger(pageSize) || pageSize < 2 || pageSize > PER_PAGE_MAX) {
      throw new RangeError(`pageSize must be from 2 to ${PER_PAGE_MAX}, not ${pageSize}.`);
    }
  }

  onEvent(listener: (event: SyncEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** Every portal the account reaches in its client's data center. */
  syncAccount(account: SyncAccount, options: SyncOptions = {}): SyncRun {
    return this.start(account, null, options);
  }

  /** One portal of the account, without touching its other portals. */
  syncPortal(account: SyncAccount, portalId: string, options: SyncOptions = {}): SyncRun {
    return this.start(account, portalId, options);
  }

  /** Runs in progress. */
  active(): SyncRun[] {
    return [...this.runs.values()];
  }

  /** Nothing new is sent until `resume()`; requests in flight finish and are stored. */
  pause(): void {
    this.isPaused = true;
    for (const run of this.runs.values()) run.pause();
    for (const backfill of this.backfills.values()) backfill.control.pause();
  }

  resume(): void {
    this.isPaused = false;
    for (const run of this.runs.values()) run.resume();
    for (const backfill of this.backfills.values()) backfill.control.resume();
  }

  /**
   * Turns the background comment reading on or off (settings.backgroundComments): off stops the
   * backfills now, on starts them after the next sync.
   */
  setCommentBackfill(on: boolean): void {
    this.commentBackfill = on;
    if (on) return;
    for (const slot of [...this.backfills.keys()]) this.stopBackfill(slot);
  }

  /** Cancels every run and the backfills; what was stored stays. */
  cancel(): void {
    for (const run of this.runs.values()) run.cancel();
    for (const backfill of this.backfills.values()) backfill.stop();
  }

  /** Cancels everything and refuses new runs. */
  close(): void {
    this.closed = true;
    this.cancel();
  }

  /**
   * Reads a record's comments now, at the priority of what the user is looking at, and stores
   * them. Uses the client that last synced the record's portal unless one is given. Resolves to
   * the number of comments stored.
   */
  async fetchCommentsNow(record: RecordRef, client?: ApiClient): Promise<number> {
    const via = client ?? this.portalClients.get(record.portalId);
    if (!via) {
      throw new Error(
        `PortalDesk has not reached portal ${record.portalId} in this session, so its comments cannot be read yet. Nothing was changed; sync the portal first.`,
      );
    }
    const module = this.mirror.metadata
      .modules(record.portalId)
      .find((stored) => stored.id === record.moduleId);
    if (!module) {
      throw new Error(
        `Module ${record.moduleId} of portal ${record.portalId} is not in the local mirror, so the record's comments cannot be read. Nothing was changed; sync the portal first.`,
      );
    }
    return fetchRecordComments(
      via,
      this.mirror,
      this.writer,
      record.portalId,
      { id: module.id, apiName: module.apiName, name: module.pluralName },
      record.recordId,
      { priority: 'visible' },
    );
  }

  /** Resolves when every run and backfill has ended (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.runs.size > 0 || this.backfills.size > 0) {
      await Promise.all([
        ...[...this.runs.values()].map((run) => run.done),
        ...[...this.backfills.values()].map((backfill) => backfill.done),
      ]);
    }
  }

  private emit(event: SyncEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.warn(`A sync event listener failed: ${String(error)}`);
      }
    }
  }

  private start(account: SyncAccount, portalId: string | null, options: SyncOptions): SyncRun {
    if (this.closed) throw new Error('The sync engine is closed; nothing was started.');
    const slot = `${account.accountId}\u0000${account.client.dataCenter}`;
    const running = this.runs.get(slot);
    if (running) return running;
    this.stopBackfill(slot);
    const run = new SyncRunner(
      { account, portalId, forceReconcile: options.reconcile === true },
      {
        mirror: this.mirror,
        writer: this.writer,
        clock: this.clock,
        log: this.log,
        budgets: this.budgets,
        emit: (event) => this.emit(event),
        pageSize: this.options.pageSize ?? PER_PAGE_MAX,
        reconcileIntervalMs: this.options.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS,
        commentsPerRun: this.options.commentsPerRun ?? COMMENTS_PER_RUN,
        retryDelaysMs: this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        knownGaps: this.knownGaps,
      },
    );
    if (this.isPaused) run.pause();
    this.runs.set(slot, run);
    void run.done.then((result) => {
      this.runs.delete(slot);
      for (const portal of run.synced) this.portalClients.set(portal.portalId, account.client);
      const reachable = result.state === 'done' || result.state === 'failed';
      if (reachable && !this.closed && this.commentBackfill) {
        this.startBackfill(slot, account, run);
      }
    });
    return run;
  }

  private startBackfill(slot: string, account: SyncAccount, run: SyncRunner): void {
    if (run.synced.length === 0) return;
    const backfill = new CommentBackfill({
      account,
      mirror: this.mirror,
      writer: this.writer,
      portals: run.synced,
      clock: this.clock,
      budgets: this.budgets,
      emit: (progress) => this.emit({ type: 'progress', ...progress }),
      log: this.log,
      paused: this.isPaused,
    });
    this.backfills.set(slot, backfill);
    void backfill.done.then(() => {
      if (this.backfills.get(slot) === backfill) this.backfills.delete(slot);
    });
  }

  /** Stops the slot's backfill; it leaves the map when it has ended, so idle() waits for that. */
  private stopBackfill(slot: string): void {
    this.backfills.get(slot)?.stop();
  }
}
