import type Database from 'better-sqlite3';
import type { SyncProgress, SyncRunEntry, SyncStatus } from '../../shared/ipc/areas/sync';
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import type { SyncPreferences } from '../../shared/ipc/settings';
import {
  createApiClient,
  describeMalformedReply,
  type ApiClient,
  type ApiClientOptions,
} from '../api/client/apiClient';
import type { TokenProvider } from '../api/client/tokenProvider';
import type { EventPusher } from '../bridge/eventHub';
import type { RequestScheduler } from '../api/requestScheduler';
import { systemClock, type SchedulerClock } from '../api/schedulerClock';
import {
  Connectivity,
  memoryWorkOfflineStore,
  type ConnectivityState,
} from '../connectivity/connectivity';
import type { Mirror } from '../store/mirror/mirror';
import { planAutoSync, PERIODIC_SYNC_MS, type AutoSyncState } from './autoSyncPlan';
import { SyncEngine, type RecordRef, type SyncEngineOptions } from './syncEngine';
import { SyncRunLog } from './syncRunLog';
import { fetchRecordTimeline } from './timelineFetcher';
import type { OptionsRenamedThere, SyncEvent, SyncRun } from './syncTypes';

/** A signed-in account the sync can pull for (sign-in's AccountManager provides them). */
export interface SyncableAccount {
  accountId: string;
  /** Shown in the Sync view, e.g. the user's e-mail; the account id when absent. */
  label?: string;
  profile: ServiceProfile;
  dataCenter: string;
  tokens: TokenProvider;
}

export interface AccountSource {
  signedIn(): SyncableAccount[];
  onSignedIn(listener: (account: SyncableAccount) => void): () => void;
  onSignedOut(listener: (accountId: string) => void): () => void;
}

export interface SyncServiceOptions {
  db: Database.Database;
  mirror: Mirror;
  accounts: AccountSource;
  /** Every API call of the app goes through this one scheduler; the caller closes it. */
  scheduler: RequestScheduler;
  /**
   * Whether the service answers and the user's "Work offline" switch (the engine's one source);
   * by default one fed by `scheduler`, its switch in memory.
   */
  connectivity?: Connectivity;
  /**
   * Where `sync.status` snapshots and `records.changed` go, at the rates the event hub sets
   * (src/main/bridge/pushRates.ts); a snapshot is built only when it is sent.
   */
  events: EventPusher;
  clock?: SchedulerClock;
  /**
   * Sync every signed-in account at start-up, after each sign-in, periodically, and again after
   * going offline (default true; tests turn it off and start syncs themselves).
   */
  autoSync?: boolean;
  /** Between automatic syncs (default PERIODIC_SYNC_MS); null: none (settings.autoSyncMinutes 0). */
  periodicMs?: number | null;
  engine?: Partial<Omit<SyncEngineOptions, 'mirror' | 'clock' | 'budgets'>>;
  client?: Partial<Omit<ApiClientOptions, 'profile' | 'dataCenter' | 'tokens' | 'scheduler'>>;
  log?: { warn(message: string): void };
}

/** Phases whose progress means records were written. */
const WRITING_PHASES = new Set(['records', 'incremental', 'reconcile', 'done']);

/** Ours: finished modules' progress kept in the snapshot, so the view shows how the last run ended. */
const KEPT_PROGRESS = 500;

/**
 * Sync as the app runs it: one request scheduler for every API call (its budgets persisted in the
 * store), one API client per signed-in account, the sync engine, the run log, automatic syncs
 * (start-up, sign-in, periodic, after going offline) and the status snapshot the renderer shows.
 */
export class SyncService {
  readonly scheduler: RequestScheduler;
  private readonly engine: SyncEngine;
  private readonly runLog: SyncRunLog;
  private readonly clock: SchedulerClock;
  private readonly options: SyncServiceOptions;
  private readonly clients = new Map<string, ApiClient>();
  private readonly running = new Map<string, SyncRunEntry>();
  private readonly progress = new Map<string, SyncProgress>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly runEndedListeners = new Set<(run: SyncRunEntry) => void>();
  private readonly renameListeners = new Set<(change: OptionsRenamedThere) => void>();
  private readonly connectivity: Connectivity;
  private auto: AutoSyncState = { offlineStreak: 0 };
  private autoTimer: ReturnType<typeof setTimeout> | null = null;
  private nextAutoSyncAt: number | null = null;
  /** The armed automatic sync is the periodic one (not a start-up sync or an offline retry). */
  private autoIsPeriodic = false;
  /** When the last run ended: a new periodic interval counts from there. */
  private lastRunEndedAt: number | null = null;
  private periodicMs: number | null;
  private closed = false;

  constructor(options: SyncServiceOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.periodicMs = options.periodicMs === undefined ? PERIODIC_SYNC_MS : options.periodicMs;
    this.runLog = new SyncRunLog(options.db, this.clock.now());
    this.scheduler = options.scheduler;
    this.connectivity =
      options.connectivity ?? Connectivity.fedBy(options.scheduler, memoryWorkOfflineStore());
    this.engine = new SyncEngine({
      ...options.engine,
      mirror: options.mirror,
      clock: this.clock,
      budgets: () => this.scheduler.report(),
      ...(options.log ? { log: options.log } : {}),
    });
    this.unsubscribe.push(
      this.engine.onEvent((event) => this.onEngineEvent(event)),
      this.scheduler.onChange(() => this.changed()),
      this.connectivity.onChange((state, was) => this.connectivityChanged(state, was)),
      options.accounts.onSignedIn((account) => {
        this.clients.delete(account.accountId);
        if (this.autoSync && !this.workOffline()) this.startAccount(account, {});
        this.changed();
      }),
      options.accounts.onSignedOut((accountId) => {
        this.clients.delete(accountId);
        this.changed();
      }),
    );
    if (this.autoSync) this.armAutoSync(0);
  }

  private get autoSync(): boolean {
    return this.options.autoSync !== false;
  }

  /**
   * The user's sync settings, applied at once: a new interval counts from the end of the last
   * run (a periodic sync already due starts now; none when turned off); turning the background
   * comments off stops the ones being read, turning them on takes effect after the next sync.
   */
  setPreferences(preferences: SyncPreferences): void {
    this.engine.setCommentBackfill(preferences.commentBackfill);
    if (preferences.periodicMs === this.periodicMs) return;
    this.periodicMs = preferences.periodicMs;
    const idle = this.running.size === 0 && this.lastRunEndedAt !== null;
    // A start-up sync or an offline retry already armed keeps its time.
    if (!this.closed && this.autoSync && idle && (!this.autoTimer || this.autoIsPeriodic)) {
      if (this.periodicMs === null) this.disarmAutoSync();
      else {
        const due = this.lastRunEndedAt! + this.periodicMs - this.clock.now();
        this.armAutoSync(Math.max(0, due), true);
      }
    }
    this.changed();
  }

  /** Whether a sync run is going on (without building a status snapshot). */
  isSyncing(): boolean {
    return this.running.size > 0;
  }

  status(): SyncStatus {
    const now = this.clock.now();
    return {
      paused: this.engine.paused,
      online: this.connectivity.state().reachable,
      accounts: this.options.accounts.signedIn().map((account) => ({
        accountId: account.accountId,
        dc: account.dataCenter,
        label: account.label ?? account.accountId,
      })),
      running: [...this.running.values()],
      progress: [...this.progress.values()],
      // The scheduler's report is the contract's EndpointBudget, field for field.
      budgets: this.scheduler.report(),
      lastSynced: this.runLog.lastSynced(),
      log: this.runLog.recent(),
      nextAutoSyncAt: this.nextAutoSyncAt,
      at: now,
    };
  }

  /**
   * Syncs every signed-in account, one account or one portal of it. Asking while a run of that
   * account is going on joins that run.
   */
  start(args: { accountId?: string; portalId?: string; reconcile?: boolean } = {}): SyncRun[] {
    if (this.closed) throw new Error('PortalDesk is shutting down; no sync was started.');
    if (this.workOffline()) {
      throw new Error(
        'PortalDesk is set to work offline, so nothing was synced. Switch "Work offline" off to sync.',
      );
    }
    const accounts = this.options.accounts.signedIn();
    const chosen =
      args.accountId === undefined
        ? accounts
        : accounts.filter((account) => account.accountId === args.accountId);
    if (chosen.length === 0) {
      throw new Error(
        args.accountId === undefined
          ? 'No account is signed in, so there is nothing to sync. Sign in to a portal first.'
          : `Account ${args.accountId} is not signed in, so it cannot be synced. Nothing was changed; sign in to it again.`,
      );
    }
    const options = args.reconcile === undefined ? {} : { reconcile: args.reconcile };
    return chosen.map((account) =>
      args.portalId === undefined
        ? this.startAccount(account, options)
        : this.startPortal(account, args.portalId, options),
    );
  }

  private workOffline(): boolean {
    return this.connectivity.state().workOffline;
  }

  /**
   * Work offline switched on: running syncs stop (what they pulled stays) and none start; off: an
   * automatic sync starts now. The service answering or not only changes what the status shows.
   */
  private connectivityChanged(state: ConnectivityState, was: ConnectivityState): void {
    if (state.workOffline !== was.workOffline && !this.closed) {
      if (state.workOffline) this.engine.cancel();
      else if (this.autoSync) this.armAutoSync(0);
    }
    this.changed();
  }

  pause(): void {
    this.engine.pause();
    this.changed();
  }

  resume(): void {
    this.engine.resume();
    this.changed();
  }

  cancel(): void {
    this.engine.cancel();
    this.changed();
  }

  /**
   * Reads a record's comments and status timeline now (the user opened it), through the account
   * that mirrors its portal. `timeline` is null when it could not be read (the comments were).
   */
  async fetchComments(record: RecordRef): Promise<{ stored: number; timeline: number | null }> {
    if (this.workOffline()) {
      throw new Error(
        'PortalDesk is set to work offline, so the comments were not read. The mirrored copy is shown; switch "Work offline" off to read them now.',
      );
    }
    const portal = this.options.mirror.metadata.portal(record.portalId);
    if (!portal) {
      throw new Error(
        `Portal ${record.portalId} is not in the local mirror, so its comments cannot be read. Nothing was changed; sync the portal first.`,
      );
    }
    const account = this.options.accounts
      .signedIn()
      .find((candidate) => candidate.accountId === portal.accountId);
    if (!account) {
      throw new Error(
        `The account that mirrors portal ${portal.name} is signed out, so its comments cannot be read now. The mirrored copy is kept; sign in again to read them.`,
      );
    }
    const client = this.clientFor(account);
    const stored = await this.engine.fetchCommentsNow(record, client);
    let timeline: number | null = null;
    const module = this.options.mirror.metadata
      .modules(record.portalId)
      .find((candidate) => candidate.id === record.moduleId);
    if (module) {
      try {
        timeline = await fetchRecordTimeline(
          client,
          this.options.mirror,
          record.portalId,
          { id: module.id, apiName: module.apiName, name: module.pluralName },
          record.recordId,
          { priority: 'visible' },
        );
      } catch (error) {
        // The comments are stored; the timeline keeps its mirrored copy until the next try.
        this.options.log?.warn(
          `The status timeline of record ${record.recordId} could not be read: ${String(error)}`,
        );
      }
    }
    this.changed();
    return { stored, timeline };
  }

  /**
   * Called when a sync found options renamed on the service and the mirror's records followed
   * (what else holds option names, the outbox's queued changes, follows through it).
   */
  onOptionsRenamed(listener: (change: OptionsRenamedThere) => void): () => void {
    this.renameListeners.add(listener);
    return () => this.renameListeners.delete(listener);
  }

  /** Called with each run once it has ended (the event router's "data updates"). */
  onRunEnded(listener: (run: SyncRunEntry) => void): () => void {
    this.runEndedListeners.add(listener);
    return () => this.runEndedListeners.delete(listener);
  }

  /**
   * The API client of the signed-in account that mirrors a portal (the outbox replays through
   * it, so its calls share the scheduler's budgets and priorities); undefined when signed out.
   */
  clientForPortal(portalId: string): ApiClient | undefined {
    const portal = this.options.mirror.metadata.portal(portalId);
    if (!portal) return undefined;
    const account = this.options.accounts
      .signedIn()
      .find((candidate) => candidate.accountId === portal.accountId);
    return account ? this.clientFor(account) : undefined;
  }

  /** Resolves when every run and backfill has ended. */
  idle(): Promise<void> {
    return this.engine.idle();
  }

  /** Stops every run and timer; call before closing the scheduler and the store. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.autoTimer) clearTimeout(this.autoTimer);
    for (const stop of this.unsubscribe) stop();
    this.engine.close();
  }

  private clientFor(account: SyncableAccount): ApiClient {
    let client = this.clients.get(account.accountId);
    if (!client) {
      client = createApiClient({
        ...this.options.client,
        profile: account.profile,
        dataCenter: account.dataCenter,
        tokens: account.tokens,
        scheduler: this.scheduler,
        ...(this.options.log
          ? { onMalformed: (report) => this.options.log?.warn(describeMalformedReply(report)) }
          : {}),
      });
      this.clients.set(account.accountId, client);
    }
    return client;
  }

  private startAccount(account: SyncableAccount, options: { reconcile?: boolean }): SyncRun {
    const run = this.engine.syncAccount(
      { accountId: account.accountId, client: this.clientFor(account) },
      options,
    );
    this.track(run);
    return run;
  }

  private startPortal(
    account: SyncableAccount,
    portalId: string,
    options: { reconcile?: boolean },
  ): SyncRun {
    const run = this.engine.syncPortal(
      { accountId: account.accountId, client: this.clientFor(account) },
      portalId,
      options,
    );
    this.track(run);
    return run;
  }

  /** Logs a run once, however often it is asked for, and plans what follows it. */
  private track(run: SyncRun): void {
    if (this.running.has(run.id)) return;
    const startedAt = this.clock.now();
    const entry: SyncRunEntry = {
      runId: run.id,
      accountId: run.accountId,
      dc: run.dc,
      startedAt,
      endedAt: null,
      state: run.state(),
      message: null,
      calls: 0,
      records: 0,
      outcomes: [],
    };
    this.running.set(run.id, entry);
    // A new run of an account replaces that account's finished progress rows.
    for (const [key, row] of this.progress) {
      if (row.accountId === run.accountId && row.runId !== run.id) this.progress.delete(key);
    }
    this.runLog.begin({ runId: run.id, accountId: run.accountId, dc: run.dc, startedAt });
    this.changed();
    void run.done.then((result) => {
      this.running.delete(run.id);
      try {
        this.runLog.finish(result, this.clock.now());
      } catch (error) {
        // The store is closing: the run is logged as interrupted at the next start.
        this.options.log?.warn(`The sync log could not be written: ${String(error)}`);
      }
      const ended: SyncRunEntry = {
        ...entry,
        endedAt: this.clock.now(),
        state: result.state,
        message: result.message,
        calls: result.calls,
        records: result.records,
        outcomes: result.outcomes,
      };
      for (const listener of this.runEndedListeners) {
        try {
          listener(ended);
        } catch (error) {
          this.options.log?.warn(`A sync listener failed: ${String(error)}`);
        }
      }
      if (!this.closed && this.autoSync && this.running.size === 0) {
        this.lastRunEndedAt = this.clock.now();
        const decision = planAutoSync(this.auto, result.state, this.periodicMs);
        this.auto = decision.state;
        if (decision.delayMs !== null) {
          this.armAutoSync(decision.delayMs, result.state !== 'offline');
        } else {
          this.disarmAutoSync();
        }
      }
      this.changed();
    });
  }

  private disarmAutoSync(): void {
    if (this.autoTimer) clearTimeout(this.autoTimer);
    this.autoTimer = null;
    this.nextAutoSyncAt = null;
    this.autoIsPeriodic = false;
  }

  private armAutoSync(delayMs: number, periodic = false): void {
    this.disarmAutoSync();
    this.nextAutoSyncAt = this.clock.now() + delayMs;
    this.autoIsPeriodic = periodic;
    this.autoTimer = setTimeout(() => {
      this.disarmAutoSync();
      if (this.closed || this.workOffline()) return;
      for (const account of this.options.accounts.signedIn()) this.startAccount(account, {});
      this.changed();
    }, delayMs);
    this.autoTimer.unref?.();
  }

  private onEngineEvent(event: SyncEvent): void {
    const { type, ...fields } = event;
    if (type === 'progress') {
      const progress = fields as Omit<Extract<SyncEvent, { type: 'progress' }>, 'type'>;
      const key = `${progress.accountId}\u0000${progress.portalId ?? ''}\u0000${progress.moduleId ?? ''}`;
      this.progress.delete(key);
      this.progress.set(key, { ...progress, at: this.clock.now() });
      if (progress.portalId && progress.moduleId && WRITING_PHASES.has(progress.phase)) {
        const { portalId, moduleId } = progress;
        this.options.events.push('records.changed', `${portalId}/${moduleId}`, () => ({
          portalId,
          moduleId,
        }));
      }
      while (this.progress.size > KEPT_PROGRESS) {
        const oldest = this.progress.keys().next().value;
        if (oldest === undefined) break;
        this.progress.delete(oldest);
      }
    } else if (type === 'optionsRenamed') {
      const change = fields as OptionsRenamedThere;
      this.options.events.push('records.changed', `${change.portalId}/${change.moduleId}`, () => ({
        portalId: change.portalId,
        moduleId: change.moduleId,
      }));
      for (const listener of this.renameListeners) {
        try {
          listener(change);
        } catch (error) {
          // The mirror followed already; the sync goes on whatever a listener met.
          this.options.log?.warn(`A listener of renamed options failed: ${String(error)}`);
        }
      }
    } else {
      const entry = this.running.get(event.runId);
      if (entry) {
        entry.state = event.state;
        entry.message = event.message;
      }
    }
    this.changed();
  }

  /** The status changed: the hub sends a snapshot at its rate, built when it goes. */
  private changed(): void {
    if (this.closed) return;
    this.options.events.push('sync.status', '', () => (this.closed ? null : this.status()));
  }
}
