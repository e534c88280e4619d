import type { EndpointBudgetReport } from '../api/requestScheduler';
import { estimateEtaMs } from './estimateEtaMs';
import type { SyncPhase, SyncProgress } from './syncTypes';

/** One portal or module's part of a run, as its progress events tell it. */
export interface ProgressScope {
  readonly portalId: string | null;
  readonly moduleId: string | null;
  readonly module: string | null;
  phase: SyncPhase;
  done: number;
  total: number | null;
  calls: number;
  skipped: number;
  message: string | null;
  /**
   * Calls still to make and the endpoint key they go to, for the ETA; null when none. Changed
   * through SyncProgressTracker.update only (it keeps the sums per key).
   */
  readonly pending: { key: string; calls: number } | null;
}

type ScopeStart = Pick<ProgressScope, 'portalId' | 'moduleId' | 'module' | 'phase'>;

/**
 * Progress of one run (or of the comment backfill): counts calls and records per scope, and
 * emits an event at every change with an ETA from the remaining calls on the scope's endpoint
 * key (every scope's calls on that key, since they share its budget) and the scheduler's budgets.
 */
export class SyncProgressTracker {
  private readonly scopes = new Map<string, ProgressScope>();
  /**
   * Every scope's remaining calls summed by endpoint key, kept as scopes change: summing them
   * over every scope at every progress event cost a run of 256 modules a scan of 256 scopes per
   * page (bench/README.md, issue 18).
   */
  private readonly remaining = new Map<string, number>();
  calls = 0;
  records = 0;

  constructor(
    private readonly base: Pick<SyncProgress, 'runId' | 'accountId' | 'dc'>,
    private readonly emit: (progress: SyncProgress) => void,
    private readonly budgets: () => readonly EndpointBudgetReport[],
    private readonly now: () => number,
  ) {}

  scope(id: string, start: ScopeStart): ProgressScope {
    let scope = this.scopes.get(id);
    if (!scope) {
      scope = {
        ...start,
        done: 0,
        total: null,
        calls: 0,
        skipped: 0,
        message: null,
        pending: null,
      };
      this.scopes.set(id, scope);
    }
    return scope;
  }

  /** Counts one API call of `scope`. */
  call(scope: ProgressScope): void {
    scope.calls++;
    this.calls++;
  }

  /** Applies `patch` and emits the scope's progress. */
  update(scope: ProgressScope, patch: Partial<Omit<ProgressScope, 'portalId' | 'moduleId'>>): void {
    const pendingChanges = 'pending' in patch;
    if (pendingChanges) this.countPending(scope, -1);
    Object.assign(scope, patch);
    if (pendingChanges) this.countPending(scope, 1);
    this.emit({
      ...this.base,
      portalId: scope.portalId,
      moduleId: scope.moduleId,
      module: scope.module,
      phase: scope.phase,
      done: scope.done,
      total: scope.total,
      calls: scope.calls,
      skipped: scope.skipped,
      etaMs: this.etaMs(scope),
      message: scope.message,
    });
  }

  /** Remaining calls of every scope, by endpoint key. */
  remainingCalls(): Map<string, number> {
    return new Map(this.remaining);
  }

  /** Adds (sign 1) or takes away (sign -1) `scope`'s remaining calls from its key's sum. */
  private countPending(scope: ProgressScope, sign: 1 | -1): void {
    const pending = scope.pending;
    if (!pending || !(pending.calls > 0)) return;
    const sum = (this.remaining.get(pending.key) ?? 0) + sign * pending.calls;
    if (sum > 0) this.remaining.set(pending.key, sum);
    else this.remaining.delete(pending.key);
  }

  private etaMs(scope: ProgressScope): number | null {
    if (scope.phase === 'done' || scope.phase === 'failed') return 0;
    const own = scope.pending
      ? new Map([[scope.pending.key, this.remaining.get(scope.pending.key) ?? 0]])
      : this.remaining;
    if (own.size === 0) return scope.total === null ? null : 0;
    return estimateEtaMs(own, this.budgets(), this.now());
  }
}
