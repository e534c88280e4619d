import { listAllPortals, paginate } from '../api/client/paginate';
import type { EndpointBudgetReport } from '../api/requestScheduler';
import type { SchedulerClock } from '../api/schedulerClock';
import type { Module } from '@portaldesk/portal-api/domain/module';
import { PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import type { Mirror } from '../store/mirror/mirror';
import type { MirrorWriter } from '../store/mirror/mirrorWriter';
import type { MirrorModule, MirrorPortal } from '../store/mirror/mirrorTypes';
import { classifySyncFailure, failureMessage } from './classifySyncFailure';
import { hasRecords, mapModule } from './mapModule';
import { mapPortal, reportedTimeZone } from './mapPortal';
import { MentionedUsers } from './mentionedUsers';
import { RecentCommentQueue } from './recentCommentQueue';
import {
  callOptions,
  countedCall,
  type ModuleRef,
  type RunContext,
  type SyncLog,
} from './syncContext';
import { SyncControl } from './syncControl';
import { syncModuleRecords } from './syncModuleRecords';
import { syncModuleSettings } from './syncModuleSettings';
import { SyncProgressTracker, type ProgressScope } from './syncProgressTracker';
import type {
  SyncAccount,
  SyncEvent,
  SyncOutcome,
  SyncResult,
  SyncRun,
  SyncState,
} from './syncTypes';

/** What a run needs from the engine. */
export interface SyncRunnerDeps {
  mirror: Mirror;
  writer: MirrorWriter;
  clock: SchedulerClock;
  log: SyncLog;
  budgets: () => readonly EndpointBudgetReport[];
  emit: (event: SyncEvent) => void;
  pageSize: number;
  reconcileIntervalMs: number;
  commentsPerRun: number;
  /** Waits before the engine's own retries of a failed step (after the client's retries). */
  retryDelaysMs: readonly number[];
  knownGaps: Map<string, number>;
}

export interface SyncRequest {
  account: SyncAccount;
  /** One portal, or null for every portal the account reaches in the client's data center. */
  portalId: string | null;
  forceReconcile: boolean;
}

/** A portal's modules with records, once a run has read them (for the comment backfill). */
export interface SyncedPortal {
  portalId: string;
  modules: ModuleRef[];
}

/** A stored module as the input the mirror's replaceModules takes. */
function storedAsInput(stored: ReturnType<Mirror['metadata']['modules']>[number]): MirrorModule {
  return {
    id: stored.id,
    apiName: stored.apiName,
    singularName: stored.singularName,
    pluralName: stored.pluralName,
    iconClass: stored.iconClass,
    isActive: stored.isActive === 1,
    isDefault: stored.isDefault === 1,
    createdTime: stored.createdTime,
    details: JSON.parse(stored.details) as Record<string, unknown>,
  };
}

let runCounter = 0;

/**
 * One sync of an account's portals in one data center (or of one portal): portals and their
 * details, then per portal its modules, and per module with records its settings and its records
 * side by side, with comments of changed records read along the way. Portals and modules run
 * concurrently; the request scheduler paces them by endpoint key.
 *
 * A failing module or portal is retried (`retryDelaysMs`), then reported failed while the others
 * go on. A lost connection stops the whole run as `offline`, a refused sign-in as `failed`, and
 * `cancel()` as `cancelled`; pages stored before stay stored, and the next run resumes from the
 * cursors.
 */
export class SyncRunner implements SyncRun {
  readonly id: string;
  readonly accountId: string;
  readonly dc: string;
  readonly done: Promise<SyncResult>;
  readonly synced: SyncedPortal[] = [];
  private current: SyncState = 'running';
  private readonly control: SyncControl;
  private readonly progress: SyncProgressTracker;
  private readonly ctx: RunContext;
  private readonly outcomes: SyncOutcome[] = [];

  constructor(
    private readonly request: SyncRequest,
    private readonly deps: SyncRunnerDeps,
  ) {
    this.id = `sync-${++runCounter}`;
    this.accountId = request.account.accountId;
    this.dc = request.account.client.dataCenter;
    this.control = new SyncControl((paused) => this.setState(paused ? 'paused' : 'running', null));
    this.progress = new SyncProgressTracker(
      { runId: this.id, accountId: this.accountId, dc: this.dc },
      (progress) => deps.emit({ type: 'progress', ...progress }),
      deps.budgets,
      () => deps.clock.now(),
    );
    this.ctx = {
      runId: this.id,
      accountId: this.accountId,
      client: request.account.client,
      mirror: deps.mirror,
      writer: deps.writer,
      control: this.control,
      progress: this.progress,
      clock: deps.clock,
      budgets: deps.budgets,
      log: deps.log,
      pageSize: deps.pageSize,
      reconcileIntervalMs: deps.reconcileIntervalMs,
      forceReconcile: request.forceReconcile,
      knownGaps: deps.knownGaps,
      optionsRenamed: (change) => deps.emit({ type: 'optionsRenamed', ...change }),
    };
    // Started on the next tick, so the caller holds the handle before the first event.
    this.done = Promise.resolve().then(() => this.run());
  }

  state(): SyncState {
    return this.current;
  }

  pause(): void {
    this.control.pause();
  }

  resume(): void {
    this.control.resume();
  }

  cancel(): void {
    this.control.stop(
      'cancelled',
      'The sync was cancelled. Everything pulled so far is kept; the next sync resumes from there.',
    );
  }

  private setState(state: SyncState, message: string | null): void {
    this.current = state;
    this.deps.emit({
      type: 'state',
      runId: this.id,
      accountId: this.accountId,
      dc: this.dc,
      state,
      message,
    });
  }

  private async run(): Promise<SyncResult> {
    this.setState(this.control.paused ? 'paused' : 'running', null);
    const scope = this.progress.scope('portals', {
      portalId: null,
      moduleId: null,
      module: null,
      phase: 'portals',
    });
    try {
      let portals: MirrorPortal[] = [];
      const read = await this.attempt(null, null, scope, async () => {
        portals = await this.readPortals(scope);
      });
      if (read) {
        this.progress.update(scope, { phase: 'done', done: portals.length, total: portals.length });
        await this.settle(portals.map((portal) => this.syncPortal(portal)));
      }
    } catch {
      // A stop: its reason is the run's state, below.
    }
    return this.finish();
  }

  private finish(): SyncResult {
    const stopped = this.control.stopped;
    const failures = this.outcomes.filter((outcome) => !outcome.ok);
    let state: SyncResult['state'] = 'done';
    let message: string | null = null;
    if (stopped) {
      state = stopped.reason;
      message = stopped.message;
    } else if (failures.length > 0) {
      state = 'failed';
      message =
        `${failures.length} part(s) of the sync failed; everything else was pulled. ` +
        `First: ${failures[0]!.message ?? 'unknown error'}`;
    }
    this.setState(state, message);
    return {
      runId: this.id,
      state,
      message,
      calls: this.progress.calls,
      records: this.progress.records,
      outcomes: this.outcomes,
    };
  }

  /** Waits for every task; a stop ends the caller too, once nothing of it runs any more. */
  private async settle(tasks: Promise<unknown>[]): Promise<void> {
    await Promise.allSettled(tasks);
    const stopped = this.control.stopped;
    if (stopped) throw stopped;
  }

  /**
   * Runs a step, retrying it after `retryDelaysMs` when the service failed or did not answer.
   * Returns whether it succeeded; a failure of this part only is recorded; one that ends the run
   * (stop, lost connection, refused access) is thrown.
   */
  private async attempt(
    portalId: string | null,
    moduleId: string | null,
    scope: ProgressScope,
    step: () => Promise<void>,
  ): Promise<boolean> {
    const delays = this.deps.retryDelaysMs;
    for (let retry = 0; ; retry++) {
      try {
        await step();
        return true;
      } catch (error) {
        const kind = classifySyncFailure(error);
        if (kind === 'stopped') throw this.control.stopped ?? error;
        if ((kind === 'retry' || kind === 'offline') && retry < delays.length) {
          await this.control.sleep(this.deps.clock.sleep, delays[retry]!);
          continue;
        }
        const message = failureMessage(error);
        if (kind === 'offline') {
          this.control.stop(
            'offline',
            `PortalDesk is offline: ${message} Everything pulled so far is kept; the sync resumes from there when the service can be reached.`,
            error,
          );
          throw this.control.stopped;
        }
        if (kind === 'signedOut') {
          this.control.stop('failed', message, error);
          throw this.control.stopped;
        }
        this.outcomes.push({ portalId: portalId ?? '', moduleId, ok: false, message });
        this.progress.update(scope, { phase: 'failed', pending: null, message });
        return false;
      }
    }
  }

  private async readPortals(scope: ProgressScope): Promise<MirrorPortal[]> {
    const { ctx, request } = this;
    const { client } = request.account;
    const listed = await listAllPortals(
      { listPortals: countedCall(ctx, scope, client.listPortals) },
      callOptions(ctx),
    );
    const wanted =
      request.portalId === null
        ? listed.items
        : listed.items.filter((portal) => portal.id === request.portalId);
    if (request.portalId !== null && wanted.length === 0) {
      throw new Error(
        `Portal ${request.portalId} is not among the portals this account reaches in data center ${this.dc}. Nothing of it was changed in the local mirror; check the account it belongs to.`,
      );
    }
    this.progress.update(scope, { total: wanted.length });
    const getPortal = countedCall(ctx, scope, client.getPortal);
    const details = await Promise.all(
      wanted.map(async (portal) => {
        try {
          return await getPortal({ portal_id: portal.id }, callOptions(ctx));
        } catch (error) {
          if (classifySyncFailure(error) !== 'skip') throw error;
          this.deps.log.warn(
            `The details of portal ${portal.id} could not be read (${failureMessage(error)}); its list entry is mirrored instead.`,
          );
          return null;
        }
      }),
    );
    const place = { accountId: this.accountId, dc: this.dc };
    const portals = wanted.map((portal, index) => mapPortal(portal, details[index] ?? null, place));
    // A portal the server listed malformed must not be dropped with everything mirrored of it.
    if (request.portalId === null && listed.skipped.length === 0) {
      await ctx.writer.metadata.replaceAccountPortals(this.accountId, this.dc, portals);
    } else {
      await ctx.writer.metadata.upsertPortals(portals);
    }
    for (const [index, portal] of wanted.entries()) {
      const users = new MentionedUsers();
      users.addPortalOwner(portal.owner);
      users.addPortalOwner(details[index]?.owner ?? null);
      await ctx.writer.metadata.upsertUsers(portal.id, users.list());
    }
    return portals;
  }

  /** The portal's modules (all of them, mirrored), and those with records. */
  private async readModules(portalId: string, scope: ProgressScope): Promise<ModuleRef[]> {
    const { ctx } = this;
    const modules: Module[] = [];
    let skipped = 0;
    const list = countedCall(ctx, scope, ctx.client.listModules);
    for await (const page of paginate(
      list,
      { portal_id: portalId },
      {
        ...callOptions(ctx),
        perPage: PER_PAGE_MAX,
      },
    )) {
      modules.push(...page.items);
      skipped += page.skipped.length;
    }
    const mapped = modules.flatMap((module) => mapModule(module) ?? []);
    if (skipped > 0 || mapped.length < modules.length) {
      // Modules that could not be read stay as stored, with their records.
      const listed = new Set(mapped.map((module) => module.id));
      const kept = ctx.mirror.metadata
        .modules(portalId)
        .filter((stored) => !listed.has(stored.id))
        .map(storedAsInput);
      await ctx.writer.metadata.replaceModules(portalId, [...mapped, ...kept]);
    } else {
      await ctx.writer.metadata.replaceModules(portalId, mapped);
    }
    return modules.flatMap((module) =>
      module.id !== null && hasRecords(module)
        ? [{ id: module.id, apiName: module.api_name, name: module.plural_name }]
        : [],
    );
  }

  private async syncPortal(portal: MirrorPortal): Promise<void> {
    const { ctx, progress } = this;
    const start = { portalId: portal.id, moduleId: null, module: null };
    const scope = progress.scope(`portal:${portal.id}`, { ...start, phase: 'metadata' });
    const commentScope = progress.scope(`comments:${portal.id}`, { ...start, phase: 'comments' });
    const comments = new RecentCommentQueue(ctx, portal.id, commentScope, this.deps.commentsPerRun);
    let modules: ModuleRef[] = [];
    progress.update(scope, {});
    const read = await this.attempt(portal.id, null, scope, async () => {
      modules = await this.readModules(portal.id, scope);
    });
    if (!read) return;
    progress.update(scope, { total: modules.length });
    const ref = { id: portal.id, timeZone: reportedTimeZone(portal) };
    let settingsDone = 0;
    await this.settle(
      modules.flatMap((module) => {
        const moduleScope = progress.scope(`records:${portal.id}:${module.id}`, {
          portalId: portal.id,
          moduleId: module.id,
          module: module.name,
          phase: 'records',
        });
        return [
          this.attempt(portal.id, module.id, scope, () =>
            syncModuleSettings(ctx, scope, portal.id, module),
          ).then(() => progress.update(scope, { done: ++settingsDone })),
          this.attempt(portal.id, module.id, moduleScope, () =>
            syncModuleRecords(ctx, ref, module, moduleScope, comments),
          ),
        ];
      }),
    );
    comments.finishRecords();
    await comments.drained();
    progress.update(commentScope, { phase: 'done' });
    this.synced.push({ portalId: portal.id, modules });
    const failed = this.outcomes.some((outcome) => outcome.portalId === portal.id && !outcome.ok);
    progress.update(scope, { phase: failed ? 'failed' : 'done' });
    // The portal's own part (its details and modules); its modules report for themselves.
    this.outcomes.push({ portalId: portal.id, moduleId: null, ok: true, message: null });
  }
}
