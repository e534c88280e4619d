import type { ApiClient, CallOptions } from '../api/client/apiClient';
import type { ApiEndpointRef } from '../api/client/apiError';
import type { EndpointBudgetReport } from '../api/requestScheduler';
import type { SchedulerClock } from '../api/schedulerClock';
import type { Mirror } from '../store/mirror/mirror';
import type { MirrorWriter } from '../store/mirror/mirrorWriter';
import type { SyncControl } from './syncControl';
import type { ProgressScope, SyncProgressTracker } from './syncProgressTracker';
import type { OptionsRenamedThere } from './syncTypes';

/** Sync requests wait behind the user's own actions and what the user is looking at. */
export const SYNC_PRIORITY = 'background';

export interface SyncLog {
  warn(message: string): void;
}

/** A module with records, as the sync addresses it. */
export interface ModuleRef {
  id: string;
  apiName: string;
  /** Plural name, for progress. */
  name: string;
}

/** What every step of one run works with. */
export interface RunContext {
  runId: string;
  accountId: string;
  client: ApiClient;
  mirror: Mirror;
  /**
   * Every write of the mirror the run makes (on the engine's connection, or the writer thread's);
   * `mirror` is for reads.
   */
  writer: MirrorWriter;
  control: SyncControl;
  progress: SyncProgressTracker;
  clock: SchedulerClock;
  /** The request scheduler's report per endpoint key (empty without one). */
  budgets: () => readonly EndpointBudgetReport[];
  log: SyncLog;
  /** Records per list call (the spec's maximum, 200, unless a test asks for less). */
  pageSize: number;
  reconcileIntervalMs: number;
  /** Compare every module's ids with the server's in this run. */
  forceReconcile: boolean;
  /**
   * Per `portal/module`: how many records the server counts that the mirror cannot hold because
   * the server sends them malformed, as the last reconciliation found; a count differing by just
   * that needs no new reconciliation. Kept by the engine across runs.
   */
  knownGaps: Map<string, number>;
  /** Options renamed on the service, once the mirror's records follow them. */
  optionsRenamed(change: OptionsRenamedThere): void;
}

/** The options every sync call carries: its priority and the run's abort signal. */
export function callOptions(ctx: Pick<RunContext, 'control'>): CallOptions {
  return { priority: SYNC_PRIORITY, signal: ctx.control.signal };
}

type ClientCall<A, R> = (args: A, options?: CallOptions) => Promise<R>;

/**
 * A client function that counts each call for `scope` after the run's checkpoint (so a paused
 * run sends nothing new), keeping the endpoint label paginate uses in its messages.
 */
export function countedCall<A, R>(
  ctx: Pick<RunContext, 'control' | 'progress'>,
  scope: ProgressScope,
  call: ClientCall<A, R>,
): ClientCall<A, R> {
  const counted = async (args: A, options?: CallOptions) => {
    await ctx.control.checkpoint();
    ctx.progress.call(scope);
    return call(args, options);
  };
  const endpoint = (call as { endpoint?: ApiEndpointRef }).endpoint;
  return Object.assign(counted, endpoint ? { endpoint } : {});
}

export function isoNow(clock: Pick<SchedulerClock, 'now'>): string {
  return new Date(clock.now()).toISOString();
}
