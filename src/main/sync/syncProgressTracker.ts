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
  /** Calls still to make and the endpoint key they go to, for the ETA; null when none. */
  pending: { key: string; calls: number } | null;
}

type ScopeStart = Pick<ProgressScope, 'portalId' | 'moduleId' | 'module' | 'phase'>;

/**
 * Progress of one run (or of the comment backfill): counts calls and records per scope, and
 * emits an event at every change with an ETA from the remaining calls on the scope's endpoint
 * key (every scope's calls on that key, since they share its budget) and the scheduler's budgets.
 */
export class SyncProgressTracker {
  private readonly scopes = new Map<string, ProgressScope>();
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
    Object.assign(scope, patch);
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
    const byKey = new Map<string, number>();
    for (const scope of this.scopes.values()) {
      if (!scope.pending || scope.pending.calls <= 0) continue;
      byKey.set(scope.pending.key, (byKey.get(scope.pending.key) ?? 0) + scope.pending.calls);
    }
    return byKey;
  }

  private etaMs(scope: ProgressScope): number | null {
    if (scope.phase === 'done' || scope.phase === 'failed') return 0;
    const byKey = this.remainingCalls();
    const own = scope.pending
      ? new Map([[scope.pending.key, byKey.get(scope.pending.key) ?? 0]])
      : byKey;
    if (own.size === 0) return scope.total === null ? null : 0;
    return estimateEtaMs(own, this.budgets(), this.now());
  }
}
